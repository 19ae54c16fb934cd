/// Every policy on every trace, one player each: what `abrsim compare` runs.
///
/// Runs are independent, so they go in parallel; the reports come back in a fixed order (policy by policy, each
/// over the traces in sorted order) whatever the number of threads, so the files written from them are
/// byte-identical for any `--jobs`.
public struct ComparisonPlan: Sendable {
    /// A registered profile (see ``ComparisonProfile``).
    public typealias Model = Profile

    /// Trace files, in run order.
    public var traces: [String]
    /// The content every run plays.
    public var content: Content
    /// The policies, in the order given.
    public var policies: [PolicySpec]
    /// The profile whose engine runs the plan.
    public var model: Profile = .faithful
    /// Player settings for the faithful model.
    public var settings = PlayerSettings()
    /// RTT before each request's first byte when a trace carries no latency (faithful model), seconds.
    public var rttSeconds = 0.08
    /// QoE weights for the summaries.
    public var qoe = QoESettings()
    /// Seed of every run.
    public var seed: UInt64 = 1
    /// The label of the `scenario` column.
    public var label = "compare"

    /// A plan over `traces` × `policies` playing `content`.
    public init(traces: [String], content: Content, policies: [PolicySpec]) {
        self.traces = traces
        self.content = content
        self.policies = policies
    }

    /// What one segment record of one run holds until `segments.csv` is written: the record and its CSV row.
    public static var estimatedBytesPerSegment: Int { MemoryLayout<SegmentRecord>.stride + 256 }

    /// A comparison keeps every run's segment records for `segments.csv`: traces × policies × segments of them.
    /// The error (located at `--traces`) when their estimate exceeds ``ScenarioBounds/maximumRecordBytes``, else
    /// `nil`; checked by `abrsim compare` before any run.
    public var recordMemoryError: InputError? {
        let records = Double(traces.count) * Double(policies.count) * Double(content.segmentCount)
        let estimate = records * Double(Self.estimatedBytesPerSegment)
        guard estimate > Double(ScenarioBounds.maximumRecordBytes) else { return nil }
        return InputError(
            .option("--traces"),
            .withAdvice(
                .overLimit(
                    "\(traces.count) traces × \(policies.count) policies × \(content.segmentCount) segments would hold "
                        + "an estimated \(Int(estimate / 1_048_576)) MiB of segment records for segments.csv",
                    limit: "\(ScenarioBounds.maximumRecordBytes >> 20) MiB"),
                advice: "use fewer traces, policies or --segments"))
    }
}

/// Runs a ``ComparisonPlan`` on its profile's engine.
public enum Comparison {
    /// The report of every (policy, trace) pair, policy-major, on up to `jobs` threads.
    public static func run(_ plan: ComparisonPlan, registry: PolicyRegistry = .builtIn, jobs: Int) throws -> [RunReport]
    {
        // Check every policy once up front, so a typo fails before any work.
        for spec in plan.policies {
            try registry.validate(spec, location: "--policies", content: plan.content)
        }
        return try plan.model.definition.run(plan, registry: registry, jobs: jobs)
    }
}

/// Loads content named on a command line: a folder of Pensieve `video_size_N` files (with Pensieve's ladder
/// unless one is given, 4 s segments), a local HLS master playlist (a file starting with `#EXTM3U`), or a sabre movie
/// JSON file.
public enum ContentSource {
    /// The content at `path`, optionally cut to its first `segments`.
    public static func load(
        _ path: String, segments: Int? = nil, ladderKbps: [Double]? = nil, segmentSeconds: Double = 4
    ) throws -> Content {
        if InputFile.isDirectory(path) {
            let ladder = ladderKbps ?? PensieveProfile.ladderKbps
            return try PensieveSizes.read(
                folder: path, ladderKbps: ladder, segmentSeconds: segmentSeconds, segments: segments)
        }
        if try HLSContent.isPlaylist(path) { return try HLSContent.read(masterPath: path, segments: segments) }
        let content = try SabreMovie.read(path: path)
        guard let segments else { return content }
        guard segments <= content.segmentCount else {
            throw InputError(
                .file(path),
                .mustBeRelative(
                    "--segments", found: "\(segments)", rule: "at most", other: "the content's segment count",
                    otherValue: "\(content.segmentCount)"))
        }
        return try content.prefix(segments: segments)
    }
}
