/// What `abrsim sweep` runs: a scenario crossed with traces and policies, one run per (trace, policy) pair.
///
/// Each run is the scenario with its network replaced by one trace (looping at its end, with the scenario's
/// `network.rttMs` as the RTT) and every player's policy replaced by one policy spec; content, player settings,
/// actions, QoE weights and seed stay the scenario's. With no traces the scenario's own network is used; with no
/// policies each player keeps its own.
///
/// Runs are numbered **trace-major**: run `r` plays trace `r / P` with policy `r % P` (P policies), so every
/// policy's row set for one trace is adjacent in the output (paired comparisons read straight down the file) and
/// a batch of consecutive runs needs only a few traces in memory. ``SweepRunner`` executes a plan,
/// ``SweepStore`` holds its results, ``SweepShard`` slices it.
public struct SweepPlan: Sendable {
    /// The scenario every run starts from.
    public var scenario: Scenario
    /// Trace files, in run order; empty means the scenario's own network.
    public var traces: [String]
    /// Policies, in run order; empty means each player keeps the scenario's policy.
    public var policies: [PolicySpec]
    /// RTT in seconds of trace networks whose trace carries no latency (the scenario's `network.rttMs`).
    public var rttSeconds: Double
    /// The seed of every run (default: the scenario's).
    public var seed: UInt64
    /// Whether `segments.csv` is written (it holds one row per segment request, by far the largest table).
    public var writesSegments = true
    /// A fingerprint of the scenario file's bytes (FNV-1a, hex), so a resumed sweep notices an edited scenario.
    public var scenarioFingerprint: String

    /// A plan over `scenario` (loaded from its file, whose `network.rttMs` it reads).
    public init(scenario: Scenario, traces: [String], policies: [PolicySpec], seed: UInt64? = nil) throws {
        try self.init(
            scenario: scenario, scenarioBytes: InputFile.readAll(scenario.file), traces: traces, policies: policies,
            seed: seed)
    }

    /// A plan over `scenario`, loaded from `bytes` (the scenario's JSON text, when it came from no file).
    public init(
        scenario: Scenario, scenarioBytes bytes: [UInt8], traces: [String], policies: [PolicySpec],
        seed: UInt64? = nil
    ) throws {
        self.scenario = scenario
        self.traces = traces
        self.policies = policies
        self.seed = seed ?? scenario.seed
        scenarioFingerprint = fnv1a(bytes)
        rttSeconds = try Self.defaultRttSeconds(bytes, file: scenario.file)
    }

    /// Number of trace choices (1 when the scenario's network is used).
    public var traceCount: Int { max(traces.count, 1) }
    /// Number of policy choices (1 when the scenario's policies are kept).
    public var policyCount: Int { max(policies.count, 1) }
    /// Number of runs: traces × policies.
    public var runCount: Int { traceCount * policyCount }

    /// The trace and policy positions of run `index` (trace-major).
    public func coordinates(ofRun index: Int) -> (trace: Int, policy: Int) {
        (index / policyCount, index % policyCount)
    }

    /// The scenario of run `index`; `trace` is the loaded trace at ``coordinates(ofRun:)``'s position (ignored,
    /// and may be `nil`, when the plan has no traces).
    public func scenario(forRun index: Int, trace: Trace?) throws -> Scenario {
        var run = scenario
        run.seed = seed
        let (_, policy) = coordinates(ofRun: index)
        if !traces.isEmpty, let trace {
            run.network = try NetworkTimeline.build(
                [.trace(trace, seconds: nil, rttSeconds: nil)], defaultRttSeconds: rttSeconds, atEnd: .loop)
            run.networkLabel = trace.name
        }
        // Each run gets its own copy of the content, so parallel runs share no reference-counted object in the
        // hot loop; players that shared content within the scenario still share it (a shared cache keys on it).
        var copies: [ObjectIdentifier: Content] = [:]
        for player in run.players.indices {
            let content = run.players[player].content
            let copy = copies[ObjectIdentifier(content), default: content.privateCopy()]
            copies[ObjectIdentifier(content)] = copy
            run.players[player].content = copy
        }
        if !policies.isEmpty {
            for player in run.players.indices {
                run.players[player].policy = policies[policy]
                run.players[player].policyLocation = "--policies"
            }
        }
        return run
    }

    /// The text that identifies this sweep on disk (``SweepStore`` compares it on resume, `merge` across shards):
    /// format version, scenario path and fingerprint, seed, RTT, whether segments are written, the run count,
    /// the shard, every trace and every policy label, one per line.
    public func manifest(shard: SweepShard) -> String {
        var lines = [
            "abrsim-sweep 1", "scenario \(scenario.file)", "scenario-fnv1a \(scenarioFingerprint)", "seed \(seed)",
            "rtt-s \(formatCSVNumber(rttSeconds))", "segments \(writesSegments ? "on" : "off")", "runs \(runCount)",
            "order trace-major", "shard \(shard.index)/\(shard.count)",
        ]
        lines += traces.isEmpty ? ["trace (scenario network: \(scenario.networkLabel))"] : traces.map { "trace \($0)" }
        lines += policies.isEmpty ? ["policy (scenario policies)"] : policies.map { "policy \($0.label)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The scenario's `network.rttMs` in seconds (0 when absent, as the scenario decoder reads it).
    static func defaultRttSeconds(_ bytes: [UInt8], file: String) throws -> Double {
        let root = try JSONReader(JSONParser.parse(bytes, file: file), file: file).object()
        guard let network = try root.optional("network")?.object(), let rtt = network.optional("rttMs") else {
            return 0
        }
        return try rtt.nonNegativeDouble() / 1000
    }
}

/// FNV-1a (64 bit) of `bytes`, as 16 hex digits: a cheap fingerprint, not a security hash.
func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
