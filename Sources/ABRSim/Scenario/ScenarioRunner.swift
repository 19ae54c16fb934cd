/// Turns a ``Scenario`` into a run: fresh policy instances, players, the simulation, and a ``RunReport``.
///
/// Called by `abrsim run` (and later by comparisons and sweeps, which vary the seed, the network or the
/// policies). Pure: the same scenario and seed give the same report.
public struct ScenarioRunner {
    /// Policies the scenario may name.
    public var registry: PolicyRegistry

    /// A runner over `registry`.
    public init(registry: PolicyRegistry = .builtIn) {
        self.registry = registry
    }

    /// Runs `scenario` with `seed` (default: the scenario's), recording timelines and keeping segment records
    /// unless told not to (without records, the report's `segments` are empty and only the summaries are made).
    /// With `recordSink` (not for a feed, whose summary reads its records) every record goes there as it is made
    /// and the report's `segments` and `timeline` are empty.
    public func run(
        _ scenario: Scenario, seed: UInt64? = nil, recordsTimeline: Bool = true, keepsSegmentRecords: Bool = true,
        recordSink: (any RunRecordSink)? = nil
    ) throws -> RunReport {
        // Records given to a sink as they are made are not kept (but a chunked stream's chunk timings are).
        let keepsRecords = (keepsSegmentRecords || recordsTimeline) && (recordSink == nil || scenario.keepsChunkRecords)
        if keepsRecords, let error = scenario.recordMemoryError { throw error }
        let seed = seed ?? scenario.seed
        if let feed = scenario.feed {
            precondition(recordSink == nil, "a feed run keeps its records")
            return try FeedRun.run(
                feed, of: scenario, seed: seed, registry: registry, recordsTimeline: recordsTimeline)
        }
        var configurations: [PlayerConfiguration] = []
        for (index, player) in scenario.players.enumerated() {
            let policy = try registry.makePolicy(
                player.policy,
                environment: PolicyEnvironment(
                    seed: seed, playerIndex: index, curve: scenario.network.curve, content: player.content,
                    settings: player.settings, directory: InputFile.directory(of: scenario.file)),
                file: scenario.file, location: player.policyLocation)
            configurations.append(
                PlayerConfiguration(
                    id: player.id, content: player.content, policy: policy, policyLabel: player.policy.label,
                    settings: player.settings))
        }
        let simulation = Simulation(
            curve: scenario.network.curve, players: configurations, timeLimit: scenario.durationSeconds,
            allocation: scenario.allocation, priorityWeights: scenario.priorityWeights,
            routes: scenario.routes.map { $0.network.curve }, recordsTimeline: recordsTimeline,
            keepsSegmentRecords: keepsSegmentRecords, recordSink: recordSink)
        let result = simulation.run()
        return Self.report(
            result, scenario: scenario.name, trace: scenario.networkLabel, qoe: scenario.qoe,
            curve: scenario.network.curve)
    }

    /// Labels a simulation result for output, with each player's share of the link and the run's fairness.
    public static func report(
        _ result: SimulationResult, scenario: String, trace: String, qoe: QoESettings, curve: CapacityCurve? = nil
    ) -> RunReport {
        var players: [RunReport.PlayerReport] = []
        var throughputs: [Double] = []
        var weights: [Double] = []
        for (index, configuration) in result.players.enumerated() {
            let tally =
                result.tallies[index]
                ?? SegmentTally(
                    ladderBps: configuration.content.variants.map(\.bitrateBps), records: result.segments[index])
            var summary = SessionSummary(tally: tally, totals: result.totals[index], qoe: qoe)
            let start = configuration.settings.startSeconds
            let end = result.totals[index].endTime ?? result.endTime
            let bits = result.totals[index].bytes * 8
            if end > start {
                summary.averageThroughputBps = bits / (end - start)
                if let curve {
                    let offered = curve.bits(from: start, to: end)
                    summary.averageLinkShare = offered > 0 ? bits / offered : nil
                }
            }
            throughputs.append(summary.averageThroughputBps ?? 0)
            weights.append(result.priorityWeights[index])
            players.append(
                RunReport.PlayerReport(
                    id: configuration.id, policy: configuration.policyLabel, segments: result.segments[index],
                    timeline: result.timeline[index], summary: summary, stalls: result.totals[index].stalls,
                    isChunked: configuration.content.live?.chunkDurationSeconds != nil,
                    chunks: result.totals[index].chunks))
        }
        let fairness = FairnessSummary(
            throughputs: throughputs, bitrates: players.map(\.summary.averageBitrateKbps),
            qoes: players.map(\.summary.qoeLinear), weights: weights)
        return RunReport(
            scenario: scenario, trace: trace, endTime: result.endTime, players: players, fairness: fairness)
    }
}
