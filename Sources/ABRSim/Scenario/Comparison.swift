/// Every policy on every trace, one player each: what `abrsim compare` runs.
///
/// Runs are independent, so they go in parallel; the reports come back in a fixed order (policy by policy, each
/// over the traces in sorted order) whatever the number of threads, so the files written from them are
/// byte-identical for any `--jobs`.
public struct ComparisonPlan: Sendable {
    /// Which model the runs use.
    public enum Model: String, Sendable, CaseIterable {
        /// ABRSim's own player and network model (the default).
        case faithful
        /// Pensieve's chunk-level simulator, reproduced exactly (published baselines).
        case pensieve
    }

    /// Trace files, in run order.
    public var traces: [String]
    /// The content every run plays.
    public var content: Content
    /// The policies, in the order given.
    public var policies: [PolicySpec]
    /// The model.
    public var model: Model = .faithful
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
            location: "--traces",
            "\(traces.count) traces × \(policies.count) policies × \(content.segmentCount) segments would hold an "
                + "estimated \(Int(estimate / 1_048_576)) MiB of segment records for segments.csv, more than the "
                + "limit of \(ScenarioBounds.maximumRecordBytes >> 20) MiB; use fewer traces, policies or --segments")
    }
}

/// Runs a ``ComparisonPlan``.
public enum Comparison {
    /// The report of every (policy, trace) pair, policy-major, on up to `jobs` threads.
    public static func run(_ plan: ComparisonPlan, registry: PolicyRegistry = .builtIn, jobs: Int) throws -> [RunReport]
    {
        // Check every policy once up front, so a typo fails before any work.
        for spec in plan.policies {
            try registry.validate(spec, location: "--policies", content: plan.content)
        }
        if plan.model == .pensieve { return try runPensieve(plan, registry: registry, jobs: jobs) }
        let traces = try parallelMap(count: plan.traces.count, jobs: jobs) { index in
            try TraceReader.readForRuns(path: plan.traces[index])
        }
        let pairs = plan.policies.count * traces.count
        return try parallelMap(count: pairs, jobs: jobs) { index in
            let spec = plan.policies[index / traces.count]
            let trace = traces[index % traces.count]
            return try runFaithful(plan, trace: trace, spec: spec, registry: registry)
        }
    }

    /// Every (policy, trace) pair on Pensieve's chunk-level simulator, each policy with Pensieve's defaults for
    /// the parameters the user left out, a fresh instance per trace.
    static func runPensieve(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport] {
        guard plan.content.segmentCount >= PensieveProfile.chunkCount else {
            throw InputError(
                location: "--content",
                "the pensieve profile plays \(PensieveProfile.chunkCount) chunks; the content has \(plan.content.segmentCount)"
            )
        }
        let traces = try parallelMap(count: plan.traces.count, jobs: jobs) { index in
            try PensieveProfile.loadTrace(path: plan.traces[index])
        }
        let specs = plan.policies.map(PensieveProfile.policySpecDefaults)
        let pairs = specs.count * traces.count
        return try parallelMap(count: pairs, jobs: jobs) { index in
            let position = index / traces.count
            let trace = traces[index % traces.count]
            let content = plan.content.privateCopy()
            let policy: any ABRPolicy
            if specs[position].name == "optimal" {
                policy = try PensieveProfile.optimalPolicy(specs[position], trace: trace, content: content)
            } else {
                policy = try registry.makePolicy(
                    specs[position], environment: PolicyEnvironment(seed: plan.seed, playerIndex: 0))
            }
            let run = PensieveProfile.simulate(trace: trace, content: content, policy: policy)
            return report(run, label: plan.policies[position].label, scenario: plan.label, content: plan.content)
        }
    }

    /// A Pensieve run as a ``RunReport``: one segment row per chunk, times from the session clock (each chunk's
    /// delay, then the sleep that brings the buffer under the cap); chunk 0's download counts as rebuffer and
    /// there is no separate startup, as in Pensieve; `qoe_lin` equals Pensieve's total reward.
    static func report(_ run: PensieveRun, label: String, scenario: String, content: Content) -> RunReport {
        var segments: [SegmentRecord] = []
        var totals = PlayerTotals()
        var clock = 0.0
        var buffer = 0.0
        let rtt = PensieveProfile.rttMilliseconds / 1000
        for chunk in run.chunks {
            let delay = chunk.delayMs / 1000
            let bits = chunk.chunkSizeBytes * 8
            let afterDownload = max(buffer - delay, 0) + PensieveProfile.chunkMilliseconds / 1000
            let sleep = max(afterDownload - chunk.bufferSecondsAfter, 0)
            segments.append(
                SegmentRecord(
                    player: 0, segment: chunk.chunk, variant: chunk.variant, bitrateBps: chunk.bitrateKbps * 1000,
                    durationSeconds: PensieveProfile.chunkMilliseconds / 1000, bytes: chunk.chunkSizeBytes,
                    requestTime: clock, firstByteTime: clock, doneTime: clock + delay,
                    throughputBps: delay > rtt ? bits / (delay - rtt) : .infinity, bufferBeforeSeconds: buffer,
                    bufferAfterSeconds: chunk.bufferSecondsAfter, stallSeconds: chunk.rebufferSeconds))
            if chunk.rebufferSeconds > 0 { totals.stallCount += 1 }
            totals.stallSeconds += chunk.rebufferSeconds
            totals.bytes += chunk.chunkSizeBytes
            clock += delay + sleep
            buffer = chunk.bufferSecondsAfter
        }
        totals.playedSeconds = Double(run.chunks.count) * PensieveProfile.chunkMilliseconds / 1000
        totals.finalState = .ended
        totals.endTime = clock + buffer
        let summary = SessionSummary(
            segments: segments, totals: totals, ladderBps: content.variants.map(\.bitrateBps), qoe: QoESettings())
        return RunReport(
            scenario: scenario, trace: run.trace, endTime: clock + buffer,
            players: [
                RunReport.PlayerReport(id: "player", policy: label, segments: segments, timeline: [], summary: summary)
            ])
    }

    static func runFaithful(_ plan: ComparisonPlan, trace: Trace, spec: PolicySpec, registry: PolicyRegistry) throws
        -> RunReport
    {
        let network = try NetworkTimeline.build(
            [.trace(trace, seconds: nil, rttSeconds: nil)], defaultRttSeconds: plan.rttSeconds, atEnd: .loop)
        let label = spec.label
        let content = plan.content.privateCopy()  // no reference count shared with other threads' runs
        let policy = try registry.makePolicy(
            spec,
            environment: PolicyEnvironment(
                seed: plan.seed, playerIndex: 0, curve: network.curve, content: content, settings: plan.settings),
            location: "--policies")
        let player = PlayerConfiguration(
            id: "player", content: content, policy: policy, policyLabel: label, settings: plan.settings,
            estimator: DualEWMAEstimator.hlsjs)
        let result = Simulation(curve: network.curve, players: [player], recordsTimeline: false).run()
        return ScenarioRunner.report(
            result, scenario: plan.label, trace: trace.name, qoe: plan.qoe, curve: network.curve)
    }
}

/// Loads content named on a command line: a folder of Pensieve `video_size_N` files (with Pensieve's ladder
/// unless one is given, 4 s segments), a local HLS master playlist (a file starting with `#EXTM3U`), or a sabre movie
/// JSON file.
public enum ContentSource {
    /// Pensieve's ladder (kbit/s), for `video_size_N` folders.
    public static let pensieveLadderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]

    /// The content at `path`, optionally cut to its first `segments`.
    public static func load(
        _ path: String, segments: Int? = nil, ladderKbps: [Double]? = nil, segmentSeconds: Double = 4
    ) throws -> Content {
        if InputFile.isDirectory(path) {
            let ladder = ladderKbps ?? pensieveLadderKbps
            return try PensieveSizes.read(
                folder: path, ladderKbps: ladder, segmentSeconds: segmentSeconds, segments: segments)
        }
        if try HLSContent.isPlaylist(path) { return try HLSContent.read(masterPath: path, segments: segments) }
        let content = try SabreMovie.read(path: path)
        guard let segments else { return content }
        guard segments <= content.segmentCount else {
            throw InputError(file: path, "has \(content.segmentCount) segments, \(segments) asked for")
        }
        return try content.prefix(segments: segments)
    }
}
