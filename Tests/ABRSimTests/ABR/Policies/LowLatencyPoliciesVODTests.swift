import ABRSimTestSupport
import Testing

@testable import ABRSim

/// `l2a-ll` and `lolp` on a shipped VOD scenario through the ordinary player: they must finish it as any policy
/// does (no live inputs, whole-segment samples).
struct LowLatencyPoliciesVODTests {
    @Test(arguments: ["l2a-ll", "lolp", "l2a-ll(throughputMode=downloaded)", "throughput(estimator=hlsjs-ll)"])
    func aShippedVODScenarioRunsToTheEnd(policy: String) throws {
        var scenario = try ScenarioLoader().load(TestPaths.packageRoot + "/scenarios/wifi-lte-3g.json")
        for index in scenario.players.indices { scenario.players[index].policy = try PolicySpec.parse(policy) }
        let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let content = scenario.players[0].content
        for player in report.players {
            #expect(player.policy == policy)
            #expect(player.summary.finalState == .ended)
            #expect(player.summary.segments == content.segmentCount)
            #expect(player.summary.averageBitrateKbps.isFinite)
            #expect(Set(player.segments.map(\.variant)).count > 1)  // it adapts across WiFi, LTE and the ferry
        }
    }

    @Test func theSameSeedGivesTheSameLoLpRun() throws {
        var scenario = try ScenarioLoader().load(TestPaths.packageRoot + "/scenarios/tunnel-stall.json")
        for index in scenario.players.indices { scenario.players[index].policy = try PolicySpec.parse("lolp") }
        let first = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let second = try ScenarioRunner().run(scenario, recordsTimeline: false)
        #expect(first.players.map { $0.segments.map(\.variant) } == second.players.map { $0.segments.map(\.variant) })
    }
}
