/// The trace file formats ABRSim reads and writes (DESIGN.md §2.2).
///
/// Chosen explicitly by a scenario or the command line, or recognised from a file's content by
/// ``detect(path:)``; used by ``TraceReader`` and ``TraceWriter``.
public enum TraceFormat: String, Sendable, CaseIterable {
    /// One integer millisecond per 1500-byte delivery opportunity (``MahimahiTrace``).
    case mahimahi
    /// Pensieve's cooked `time_s throughput_Mbit/s` lines (``PensieveTrace``).
    case pensieve
    /// sabre's JSON array of `{duration_ms, bandwidth_kbps, latency_ms}` periods (``SabreTrace``).
    case sabre
    /// CSV with a `time_s,bandwidth_kbps[,latency_ms][,loss]` header (``CSVTrace``).
    case csv

    /// Recognises the format of the file at `path` from its first non-blank, non-`#` line, not its extension:
    /// a line starting with `[` or `{` is sabre JSON; one starting with `time_s` (or any comma-separated line
    /// starting with a letter: a header in another column order) is a CSV header; a single
    /// integer is mahimahi; two numbers are pensieve. Throws an ``InputError`` naming the file and line when
    /// nothing fits, or when the file is missing, a directory or empty.
    public static func detect(path: String) throws -> TraceFormat {
        let reader = try LineReader(path: path)
        while let raw = try reader.nextLine() {
            let line = TraceText.trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            if line.first == UInt8(ascii: "[") || line.first == UInt8(ascii: "{") { return .sabre }
            if line.starts(with: Array("time_s".utf8)) { return .csv }
            // A header in another column order (`bandwidth_kbps,time_s`): commas and a name first.
            if line.contains(UInt8(ascii: ",")), let first = line.first,
                (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
            {
                return .csv
            }
            let fields = TraceText.whitespaceFields(line)
            if fields.count == 1, TraceText.unsignedInteger(fields[0]) != nil { return .mahimahi }
            if fields.count == 2, TraceText.number(fields[0]) != nil, TraceText.number(fields[1]) != nil {
                return .pensieve
            }
            throw InputError.atLine(
                path, reader.lineNumber,
                "cannot tell the trace format: expected a JSON array (sabre), a CSV header starting with time_s,"
                    + " one integer millisecond per line (mahimahi) or `time_s throughput_Mbit/s` lines (pensieve)")
        }
        throw InputError.atLine(path, max(reader.lineNumber, 1), "empty trace file: cannot tell its format")
    }
}
