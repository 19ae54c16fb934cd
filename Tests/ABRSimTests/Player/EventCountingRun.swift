import ABRSimTestSupport
import Foundation

@testable import ABRSim

/// Plays the scenario at `path` (in `folder`) with seed 1, hls.js's estimator and no timeline, for the tests that
/// count `Simulation.eventCount` per downloaded unit; returns the finished simulation and its result.
func eventCountingRun(path: String, folder: String) throws -> (simulation: Simulation, result: SimulationResult) {
    let scenario = try ScenarioLoader().load(path)
    var configurations: [PlayerConfiguration] = []
    for (index, player) in scenario.players.enumerated() {
        let policy = try PolicyRegistry.builtIn.makePolicy(
            player.policy,
            environment: PolicyEnvironment(
                seed: 1, playerIndex: index, curve: scenario.network.curve, content: player.content,
                settings: player.settings, directory: folder), file: path, location: player.policyLocation)
        configurations.append(
            PlayerConfiguration(
                id: player.id, content: player.content, policy: policy, policyLabel: player.policy.label,
                settings: player.settings, estimator: DualEWMAEstimator.hlsjs))
    }
    let simulation = Simulation(curve: scenario.network.curve, players: configurations, recordsTimeline: false)
    return (simulation, simulation.run())
}
