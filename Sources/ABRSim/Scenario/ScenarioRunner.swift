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

    /// Runs `scenario` with `seed` (default: the scenario's), recording timelines unless told not to.
    public func run(_ scenario: Scenario, seed: UInt64? = nil, recordsTimeline: Bool = true) throws -> RunReport {
        let seed = seed ?? scenario.seed
        var configurations: [PlayerConfiguration] = []
        for (index, player) in scenario.players.enumerated() {
            let policy = try registry.makePolicy(
                player.policy,
                environment: PolicyEnvironment(
                    seed: seed, playerIndex: index, curve: scenario.network.curve, content: player.content,
                    settings: player.settings, directory: scenarioDirectory(scenario.file)),
                file: scenario.file, location: player.policyLocation)
            configurations.append(
                PlayerConfiguration(
                    id: player.id, content: player.content, policy: policy, policyLabel: player.policy.label,
                    settings: player.settings, estimator: DualEWMAEstimator.hlsjs))
        }
        let simulation = Simulation(
            curve: scenario.network.curve, players: configurations, timeLimit: scenario.durationSeconds,
            allocation: scenario.allocation, priorityWeights: scenario.priorityWeights,
            routes: scenario.routes.map { $0.network.curve }, recordsTimeline: recordsTimeline)
        let result = simulation.run()
        return Self.report(result, scenario: scenario.name, trace: scenario.networkLabel, qoe: scenario.qoe)
    }

    /// Labels a simulation result for output.
    public static func report(_ result: SimulationResult, scenario: String, trace: String, qoe: QoEWeights) -> RunReport
    {
        var players: [RunReport.PlayerReport] = []
        for (index, configuration) in result.players.enumerated() {
            let summary = SessionSummary(
                segments: result.segments[index], totals: result.totals[index],
                topVariant: configuration.content.variantCount - 1, qoe: qoe)
            players.append(
                RunReport.PlayerReport(
                    id: configuration.id, policy: configuration.policyLabel, segments: result.segments[index],
                    timeline: result.timeline[index], summary: summary))
        }
        return RunReport(scenario: scenario, trace: trace, endTime: result.endTime, players: players)
    }
}

/// The folder holding `file` (`.` for a bare file name): where a scenario's external policies run.
func scenarioDirectory(_ file: String) -> String {
    guard let slash = file.lastIndex(of: "/") else { return "." }
    return slash == file.startIndex ? "/" : String(file[..<slash])
}
