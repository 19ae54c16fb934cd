import ABRSimTestSupport
import Testing

@testable import ABRSim

/// `l2a-ll` and `lolp` on a shipped VOD scenario through the ordinary player: they must finish it as any policy
/// does (no live inputs, whole-segment samples).
@Suite("the low-latency policies on a VOD scenario")
struct LowLatencyPoliciesVODTests {
    @Test(
        "a low-latency policy or estimator plays the shipped wifi-lte-3g scenario to the end, adapting across variants",
        arguments: ["l2a-ll", "lolp", "l2a-ll(throughputMode=downloaded)", "throughput(estimator=hlsjs-ll)"])
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

    @Test("two LoL+ runs of the tunnel-stall scenario with the same seed choose the same variants")
    func theSameSeedGivesTheSameLoLpRun() throws {
        var scenario = try ScenarioLoader().load(TestPaths.packageRoot + "/scenarios/tunnel-stall.json")
        for index in scenario.players.indices { scenario.players[index].policy = try PolicySpec.parse("lolp") }
        let first = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let second = try ScenarioRunner().run(scenario, recordsTimeline: false)
        #expect(first.players.map { $0.segments.map(\.variant) } == second.players.map { $0.segments.map(\.variant) })
    }
}

/// The declarations of `l2a-ll` and `lolp`: dash.js's defaults, written out and refused out of range.
@Suite("the low-latency policies' parameters")
struct LowLatencyPolicyParameterTests {
    @Test(
        "l2a-ll and lolp default to dash.js's constants and refuse a zero horizon, negative bufferMin or unknown mode")
    func theDefaultsAreDashJsConstants() throws {
        let registry = PolicyRegistry.builtIn
        let l2a = try #require(registry.descriptor(named: "l2a-ll"))
        #expect(l2a.defaultSpec.label == "l2a-ll(horizon=4,react=2,targetBuffer=1.5,safety=0.9,throughputMode=moof)")
        let lolp = try #require(registry.descriptor(named: "lolp"))
        #expect(lolp.defaultSpec.label == "lolp(targetLatency=1.5,bufferMin=0.3,safety=0.9,throughputMode=moof)")
        for spec in ["l2a-ll(horizon=0)", "lolp(bufferMin=-1)", "l2a-ll(throughputMode=aast)"] {
            #expect(throws: InputError.self) { try registry.validate(try PolicySpec.parse(spec)) }
        }
    }
}
