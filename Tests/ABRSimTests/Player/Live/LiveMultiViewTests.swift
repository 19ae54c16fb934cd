import Testing

@testable import ABRSim

/// Several live players on one link: priorities share it, a coordination group keeps one offset from the live
/// edge, and a player moved to an external route plays on. One 2 s-segment stream whose live edge is 40 s in at
/// t = 0; each player starts 6 s behind it and plays as soon as media is in.
@Suite("live players sharing one link")
struct LiveMultiViewTests {
    static let start = -40.0

    func player(
        _ id: String, priority: NetworkResourcePriority = .default, group: String? = nil,
        actions: [TimedAction] = []
    ) throws -> PlayerConfiguration {
        let stream = LiveStream(availabilityStartSeconds: Self.start, targetDurationSeconds: 2, refresh: .template)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.networkResourcePriority = priority
        settings.coordinationGroup = group
        settings.actions = actions
        var live = LivePlaybackSettings()
        live.configuredTimeOffsetFromLive = 6
        settings.live = live
        return PlayerConfiguration(
            id: id, content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
    }

    @Test("a coordination group through an 8 s outage keeps both views at the same latency")
    func aCoordinationGroupKeepsOneOffsetFromTheEdge() throws {
        // 3 Mbit/s shared by two 1 Mbit/s players, an 8 s outage at 10.5 s: whoever stalls first, the group waits
        // for both, so at every instant both are the same distance behind the edge.
        let curve = try CapacityCurve(starts: [0, 10.5, 18.5], ratesBps: [3e6, 0, 3e6], duration: 1000)
        let players = [try player("main", priority: .high, group: "g"), try player("tile", priority: .low, group: "g")]
        let result = Simulation(curve: curve, players: players).run()
        let a = try #require(result.totals[0].live?.latencyMeanSeconds)
        let b = try #require(result.totals[1].live?.latencyMeanSeconds)
        #expect(abs(a - b) < 1e-9)
        #expect(result.totals[0].stallSeconds > 0 || result.totals[1].stallSeconds > 0)
        let last = result.timeline.map { $0.last { $0.state == .playing }! }
        #expect(abs(last[0].latencySeconds! - last[1].latencySeconds!) < 1e-9)
    }

    @Test("two 1 Mbit/s views on 1.5 Mbit/s: the high-priority one has less latency and less stalling")
    func theHighPriorityViewStaysCloserToTheEdge() throws {
        // 1.5 Mbit/s for two 1 Mbit/s views: they cannot both keep up, and the high one gets 16/17 of the link.
        let curve = try CapacityCurve(starts: [0], ratesBps: [1.5e6], duration: 1000)
        let players = [try player("main", priority: .high), try player("tile", priority: .low)]
        let result = Simulation(curve: curve, players: players, priorityWeights: PriorityWeights()).run()
        let main = try #require(result.totals[0].live?.latencyMeanSeconds)
        let tile = try #require(result.totals[1].live?.latencyMeanSeconds)
        #expect(main < tile)
        #expect(result.totals[0].stallSeconds < result.totals[1].stallSeconds)
    }

    @Test("a live player moved at 20 s to its own 4 Mbit/s route never stalls and keeps 6.5 s of latency")
    func aLivePlayerMovedToAnExternalRoutePlaysOn() throws {
        // The local link fails at 20 s; the player moves to route 1 (its own 4 Mbit/s) at 20 s and never stalls.
        let local = try CapacityCurve(starts: [0, 20], ratesBps: [4e6, 0], duration: 1000)
        let route = try CapacityCurve(starts: [0], ratesBps: [4e6], duration: 1000)
        let moved = try player("tv", actions: [TimedAction(time: 20, action: .route(1))])
        let result = Simulation(curve: local, players: [moved], routes: [route]).run()
        #expect(result.totals[0].stallCount == 0)
        #expect(result.totals[0].finalState == .ended)
        let live = try #require(result.totals[0].live)
        #expect(abs(live.latencyMeanSeconds! - 6.5) < 1e-9)  // 6 s + the first 2 Mbit download over 4 Mbit/s
    }
}
