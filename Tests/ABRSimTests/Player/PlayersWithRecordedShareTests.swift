import Testing

@testable import ABRSim

/// The set of players whose latest timeline row shows a link share, which the run's share review visits
/// instead of every player.
@Suite("players whose last row shows a share")
struct PlayersWithRecordedShareTests {
    @Test("a player joins with a share other than 0 and leaves with a share of 0, whatever its position")
    func joinsAndLeaves() {
        let set = PlayersWithRecordedShare(playerCount: 5)
        set.note(player: 3, share: 0.5)
        set.note(player: 1, share: 0.25)
        set.note(player: 4, share: 0.25)
        set.note(player: 3, share: 0.4)  // already in: not added twice
        #expect(set.members.sorted() == [1, 3, 4])
        set.note(player: 3, share: 0)  // removed from the front: the last member takes its place
        #expect(set.members.sorted() == [1, 4])
        set.note(player: 2, share: 0)  // absent: nothing to remove
        set.note(player: 4, share: 0)
        set.note(player: 3, share: 1)
        #expect(set.members.sorted() == [1, 3])
        set.note(player: 1, share: 0)
        set.note(player: 3, share: 0)
        #expect(set.members.isEmpty)
    }

    @Test("with the timeline on, every player's latest row at each row time gives its share, and they sum to at most 1")
    func sharesSumToAtMostOne() throws {
        let curve = try CapacityCurve(starts: [0, 30], ratesBps: [2_000_000, 500_000], duration: 200)
        let content = try Content.constantBitrate(ladderKbps: [300, 1200], segmentSeconds: 4, segmentCount: 12)
        var configurations: [PlayerConfiguration] = []
        for index in 0..<6 {
            var settings = PlayerSettings()
            settings.preferredForwardBufferDuration = Double(8 + 4 * index)
            configurations.append(
                PlayerConfiguration(
                    id: "p\(index)", content: content, policy: ThroughputPolicy(estimator: DualEWMAEstimator.dashjs),
                    policyLabel: "throughput",
                    settings: settings))
        }
        let result = Simulation(curve: curve, players: configurations).run()
        let times = Set(result.timeline.flatMap { $0.map(\.time) }).sorted()
        #expect(times.count > 12)
        for time in times {
            var total = 0.0
            for rows in result.timeline {
                guard let latest = rows.last(where: { $0.time <= time }) else { continue }
                #expect(latest.linkShare >= 0)
                total += latest.linkShare
            }
            #expect(total <= 1 + 1e-9, "shares sum to \(total) at \(time) s")
        }
    }
}
