import Testing

@testable import ABRSim

/// A finished simulation must be freed with everything in it: sweeps run thousands of them in one process, and
/// a reference cycle (members ↔ their playback coordinator, found by LeakSanitizer) would keep every run alive.
@Suite("a finished simulation's lifetime")
struct SimulationLifetimeTests {
    static func configuration(_ id: String, content: Content, group: String?) -> PlayerConfiguration {
        var settings = PlayerSettings()
        settings.coordinationGroup = group
        return PlayerConfiguration(
            id: id, content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
    }

    @Test("a finished simulation is freed with its players, coordinated or not", arguments: [nil, "together"])
    func aFinishedRunIsFreedWithItsPlayers(group: String?) throws {
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 4, segmentCount: 3)
        let curve = try CapacityCurve(starts: [0], ratesBps: [4_000_000], duration: 100, atEnd: .loop)
        weak var simulation: Simulation?
        weak var player: Player?
        do {
            let run = Simulation(
                curve: curve,
                players: [
                    Self.configuration("a", content: content, group: group),
                    Self.configuration("b", content: content, group: group),
                ])
            let result = run.run()
            #expect(result.totals.allSatisfy { $0.finalState == .ended })
            simulation = run
            player = run.players[1]
        }
        // Compared outside `#expect`, which would describe a leaked player by reading its (then dangling)
        // unowned engine.
        let simulationFreed = simulation == nil
        let playerFreed = player == nil
        #expect(simulationFreed)
        #expect(playerFreed)
    }
}
