/// Reads a trace file of any registered ``TraceFormat`` into a ``Trace``.
///
/// Called by the scenario loader and `abrsim trace …`. Each format's semantics are documented on its reader
/// (``MahimahiTrace``, ``PensieveTrace``, ``SabreTrace``, ``CSVTrace``). Every problem is an ``InputError``
/// naming the file and the line or JSON path.
public enum TraceReader {
    /// Reads the trace at `path` the way a run uses it: a mahimahi trace in the scenario decoder's 100 ms bins, so
    /// that `run`, `compare`, `sweep` and `tune` see the same network from the same file.
    public static func readForRuns(path: String) throws -> Trace {
        try read(path: path, mahimahiBinMs: NetworkDecoder.defaultMahimahiBinMs)
    }

    /// Reads the trace at `path`, in `format` or (when nil) the format ``TraceFormat/detect(path:)`` finds;
    /// `mahimahiBinMs` is the bin width in milliseconds used to turn mahimahi opportunities into rates.
    public static func read(path: String, format: TraceFormat? = nil, mahimahiBinMs: Int = 1) throws -> Trace {
        try InputFile.checkReadable(path)
        do {
            return try (format ?? TraceFormat.detect(path: path)).definition.read(path: path, binMs: mahimahiBinMs)
        } catch let error as InputError {
            guard let format else { throw error }
            throw TraceFormat.explainingClash(error, path: path, declared: format)
        }
    }
}
