/// The default profile: every policy on every trace in ABRSim's own player and network model, one player each,
/// with the plan's player settings, RTT, QoE weights and seed. Called through ``Profile/registry``.
public struct FaithfulProfile: ComparisonProfile {
    /// The profile.
    public init() {}

    public var name: String { "faithful" }

    public func settingWarnings(_ plan: ComparisonPlan, place: String) -> [String] {
        plan.policies.flatMap {
            SettingWarnings.player($0, settings: plan.settings, content: plan.content, place: place)
        }
    }

    public func optimumNote(_ plan: ComparisonPlan, reports: [RunReport], jobs: Int) throws -> String {
        OptimumNote.line(
            "optimal",
            model: .faithful(
                waitsToMinimizeStalling: plan.settings.automaticallyWaitsToMinimizeStalling, otherPlayers: 0))
    }

    public func run(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport] {
        let traces = try parallelMap(count: plan.traces.count, jobs: jobs) { index in
            try TraceReader.readForRuns(path: plan.traces[index])
        }
        let pairs = plan.policies.count * traces.count
        return try parallelMap(count: pairs, jobs: jobs) { index in
            let spec = plan.policies[index / traces.count]
            let trace = traces[index % traces.count]
            return try Self.run(plan, trace: trace, spec: spec, registry: registry)
        }
    }

    static func run(_ plan: ComparisonPlan, trace: Trace, spec: PolicySpec, registry: PolicyRegistry) throws
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
