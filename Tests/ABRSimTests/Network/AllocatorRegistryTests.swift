import Testing

@testable import ABRSim

/// An allocator of the test's own, registered for one test: strict priority upside down (`low` flows first). It
/// shows that a new allocator is one conforming type plus one registration.
private struct LowFirstAllocator: BandwidthAllocator {
    func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double]) {
        for index in demands.indices {
            tiers[index] = 2 - demands[index].priority.rank
            shares[index] = demands[index].weight
        }
    }
}

@Suite("the allocator registry")
struct AllocatorRegistryTests {
    /// The strict-priority CI scenario with the tiers reversed: on the 780 kbit/s 3G preset each 4 s segment at
    /// 400 kbit/s takes 0.2 + 1600/780 ≈ 2.25 s, so the low player (which starts on its first segment) starts after
    /// about 2.25 s, and the high one, which gets nothing until the low one has its 10 segments (22.5 s), starts
    /// after 20 s: the CI scenario's expectations, mirrored.
    @Test("a registered allocator is named by a scenario and splits the link as it says")
    func aRegisteredAllocatorIsReachedThroughTheScenarioDecoder() throws {
        let scenario = NetworkTestSupport.write(
            #"{"network": {"preset": "3g"}, "allocation": {"strategy": "low-first"}, "#
                + #""content": {"ladderKbps": [400], "segmentSeconds": 4, "segments": 10}, "players": ["#
                + #"{"id": "front", "policy": "fixed", "networkResourcePriority": "high"}, "#
                + #"{"id": "back", "policy": "fixed", "networkResourcePriority": "low", "#
                + #""automaticallyWaitsToMinimizeStalling": false}]}"#, name: "scenario.json")
        let unknown = try #require(throws: InputError.self) { try ScenarioLoader().load(scenario) }
        #expect(unknown.place == .jsonPath(scenario, "$.allocation.strategy"))
        #expect(unknown.problem == .unknownName("low-first", kind: "strategy", known: ["weighted", "equal", "strict"]))
        try AllocationStrategy.registry.withRegistered(LowFirstAllocator(), name: "low-first") {
            let loaded = try ScenarioLoader().load(scenario)
            #expect(loaded.allocation.rawValue == "low-first")
            let report = try ScenarioRunner().run(loaded, recordsTimeline: false)
            let startup = Dictionary(uniqueKeysWithValues: report.players.map { ($0.id, $0.summary.startupSeconds) })
            let back = try #require(startup["back"] ?? nil)
            let front = try #require(startup["front"] ?? nil)
            #expect(back > 2 && back < 4)
            #expect(front >= 20)
        }
    }
}
