/// One trace file format: how a file in it is recognised, read into a ``Trace`` and written back.
///
/// Each format is one conforming type (``MahimahiTrace``, ``PensieveTrace``, ``SabreTrace``, ``CSVTrace``), listed
/// in ``TraceFormat/registry``. ``TraceReader``, ``TraceWriter``, the scenario decoder (`network.format`) and
/// `abrsim trace` reach formats only through that registry, by ``name``. Implementations are pure and
/// thread-safe; every problem is an ``InputError`` naming the file and the line or JSON path.
public protocol TraceFileFormat: Sendable {
    /// The name scenarios and `--format` give (`mahimahi`).
    var name: String { get }
    /// What a file of this format looks like, for the error when no format recognises a file ("one integer
    /// millisecond per line (mahimahi)").
    var appearance: String { get }
    /// Whether `line`, a file's first non-blank, non-`#` line (trimmed), starts a file of this format.
    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool
    /// Reads the file at `path`; `binMs` is the bin width in milliseconds for formats of discrete delivery
    /// opportunities (mahimahi), ignored by the others.
    func read(path: String, binMs: Int) throws -> Trace
    /// The file content of `trace` (already validated) in this format; throws an ``InputError`` when the trace
    /// cannot be expressed in it.
    func write(_ trace: Trace) throws -> [UInt8]
}

/// The trace formats ABRSim reads and writes. Their recognisers accept disjoint first lines, so detection does
/// not depend on their order.
public enum TraceFormats: Seam {
    /// Every trace format; add one with `TraceFormat.registry.register(MyFormat(), name: …)`.
    public static let registry: Registry<any TraceFileFormat> = {
        let formats: [any TraceFileFormat] = [MahimahiTrace(), PensieveTrace(), SabreTrace(), CSVTrace()]
        return Registry(formats.map { (name: $0.name, member: $0) })
    }()
}

/// A registered trace format, by name (DESIGN.md §2.2): what scenarios, commands and ``TraceReader`` pass around.
/// Chosen explicitly by a scenario or the command line, or recognised from a file's content by
/// ``Registered/detect(path:)``.
public typealias TraceFormat = Registered<TraceFormats>

extension Registered where S == TraceFormats {
    /// The format `definition` defines, under its own name.
    public init(_ definition: any TraceFileFormat) { self.init(name: definition.name, definition: definition) }

    /// One integer millisecond per 1500-byte delivery opportunity (``MahimahiTrace``).
    public static var mahimahi: TraceFormat { TraceFormat(MahimahiTrace()) }
    /// Pensieve's cooked `time_s throughput_Mbit/s` lines (``PensieveTrace``).
    public static var pensieve: TraceFormat { TraceFormat(PensieveTrace()) }
    /// sabre's JSON array of `{duration_ms, bandwidth_kbps, latency_ms}` periods (``SabreTrace``).
    public static var sabre: TraceFormat { TraceFormat(SabreTrace()) }
    /// CSV with a `time_s,bandwidth_kbps[,latency_ms][,loss]` header (``CSVTrace``).
    public static var csv: TraceFormat { TraceFormat(CSVTrace()) }

    /// The registered names, comma-separated, for error messages and help.
    public static var knownNames: String { registry.names.joined(separator: ", ") }

    /// Recognises the format of the file at `path` from its first non-blank, non-`#` line, not its extension: the
    /// first registered format whose ``TraceFileFormat/recognises(firstLine:)`` accepts it. Throws an
    /// ``InputError`` naming the file and line when none does (listing what each format looks like), or when the
    /// file is missing, a directory or empty.
    public static func detect(path: String) throws -> TraceFormat {
        let reader = try LineReader(path: path)
        while let raw = try reader.nextLine() {
            let line = TraceText.trimmed(raw)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let formats = registry.members
            if let format = formats.first(where: { $0.recognises(firstLine: line) }) { return TraceFormat(format) }
            let expected = listedAsAlternatives(formats.map { $0.appearance })
            throw InputError(
                .line(path, reader.lineNumber),
                .within(
                    "cannot tell the trace format",
                    .expected(expected, found: "‘\(TraceText.text(line.prefix(40)))’")))
        }
        throw InputError(.line(path, max(reader.lineNumber, 1)), .empty("trace", no: "line to tell its format by"))
    }
}
