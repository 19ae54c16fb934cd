import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Several players on one link: priorities, caps, the cache, coordination and routes.
@Suite("several players on one link")
struct MultiPlayerTests {
    static func content(_ ladder: [Double] = [500, 2000], segments: Int = 10) throws -> Content {
        try Content.constantBitrate(ladderKbps: ladder, segmentSeconds: 4, segmentCount: segments)
    }

    static func player(
        _ id: String, variant: Int = 0, content: Content, configure: (inout PlayerSettings) -> Void = { _ in }
    ) -> PlayerConfiguration {
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        configure(&settings)
        return PlayerConfiguration(
            id: id, content: content, policy: FixedPolicy(variant: variant), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
    }

    static func constant(_ bps: Double, seconds: Double = 10_000) throws -> CapacityCurve {
        try CapacityCurve(starts: [0], ratesBps: [bps], duration: seconds, latencySeconds: [0])
    }

    @Test("with weights 1 and 3 the high-priority download finishes at 8/3 s and the low one at 4 s")
    func highPriorityDownloadsFinishFirstByTheWeightTable() throws {
        // 1 Mbit/s, weights low 1 / high 3, one 2 Mbit segment each: by hand, high at 8/3 s, low at 4 s.
        let shared = try Self.content([500], segments: 1)
        let players = [
            Self.player("low", content: shared) { $0.networkResourcePriority = .low },
            Self.player("high", content: shared) { $0.networkResourcePriority = .high },
        ]
        let result = Simulation(
            curve: try Self.constant(1_000_000), players: players,
            priorityWeights: PriorityWeights(low: 1, standard: 2, high: 3)
        ).run()
        #expect(abs(result.segments[1][0].doneTime - 8.0 / 3.0) < 1e-9)
        #expect(abs(result.segments[0][0].doneTime - 4) < 1e-9)
    }

    @Test("a priority action at 1 s retimes both downloads in flight to the hand-computed 3.25 s and 4 s")
    func aPriorityActionRetimesTheDownloadsInFlight() throws {
        // Equal until 1 s (0.5 Mbit each of 2), then "a" goes high (4 vs 2): a gets 2/3 Mbit/s, b 1/3.
        // a needs 1.5 Mbit more: 2.25 s, done at 3.25 s; b has 0.5 + 0.75 = 1.25 Mbit then, the last 0.75 alone
        // takes 0.75 s: done at 4 s.
        let shared = try Self.content([500], segments: 1)
        let players = [
            Self.player("a", content: shared) {
                $0.actions = [TimedAction(time: 1, action: .networkResourcePriority(.high))]
            },
            Self.player("b", content: shared),
        ]
        let result = Simulation(curve: try Self.constant(1_000_000), players: players).run()
        #expect(abs(result.segments[0][0].doneTime - 3.25) < 1e-9)
        #expect(abs(result.segments[1][0].doneTime - 4) < 1e-9)
    }

    @Test("under equal allocation two players differing only in priority get identical variants, times and stalls")
    func equalAllocationGivesIdenticalPlayersIdenticalResults() throws {
        let trace = try TraceReader.read(
            path: TestPaths.scenarios + "/traces/Verizon-LTE-short.down", mahimahiBinMs: 100)
        let shared = try Self.content([300, 750, 1200, 1850, 2850, 4300], segments: 30)
        func make(_ id: String, _ priority: NetworkResourcePriority) -> PlayerConfiguration {
            var settings = PlayerSettings()
            settings.networkResourcePriority = priority
            return PlayerConfiguration(
                id: id, content: shared, policy: ThroughputPolicy(estimator: DualEWMAEstimator.dashjs),
                policyLabel: "t",
                settings: settings, estimator: DualEWMAEstimator.hlsjs)
        }
        let result = Simulation(
            curve: try trace.curve(atEnd: .loop), players: [make("a", .high), make("b", .low)], allocation: .equal
        ).run()
        #expect(result.segments[0].map(\.variant) == result.segments[1].map(\.variant))
        #expect(result.segments[0].map(\.doneTime) == result.segments[1].map(\.doneTime))
        #expect(result.totals[0].stallSeconds == result.totals[1].stallSeconds)
    }

    @Test("a peak bitrate or maximum resolution caps the variants, the lowest when none fits, even for a fixed policy")
    func peakBitrateAndResolutionCapTheVariants() throws {
        let ladder = try Content.constantBitrate(
            ladderKbps: [500, 1000, 2000, 4000],
            resolutions: [
                Resolution(width: 480, height: 270), Resolution(width: 640, height: 360),
                Resolution(width: 1280, height: 720), Resolution(width: 1920, height: 1080),
            ],
            segmentSeconds: 4, segmentCount: 3)
        var settings = PlayerSettings()
        settings.preferredPeakBitRate = 1_500_000
        #expect(settings.maximumVariant(of: ladder) == 1)
        settings.preferredPeakBitRate = 0
        settings.preferredMaximumResolution = Resolution(width: 1280, height: 720)
        #expect(settings.maximumVariant(of: ladder) == 2)
        settings.preferredPeakBitRate = 100_000  // below every variant: the lowest, as AVPlayer does.
        #expect(settings.maximumVariant(of: ladder) == 0)
        // A fixed policy asking for the top gets the cap.
        let result = Simulation(
            curve: try Self.constant(10_000_000),
            players: [
                Self.player("p", variant: 3, content: ladder) {
                    $0.preferredMaximumResolution = Resolution(width: 640, height: 360)
                }
            ]
        ).run()
        #expect(result.segments[0].allSatisfy { $0.variant == 1 })
    }

    @Test(
        "seeking back cancels the download in flight and serves cached segments at disk speed, the rest from the network"
    )
    func seekingBackHitsTheCacheAtDiskSpeed() throws {
        // 1 Mbit/s, 2 Mbit segments (2 s each), loaded back to back: segment k arrives at 2(k + 1) s. At 15 s
        // segments 0–6 are in and segment 7 is half loaded; the user seeks back to 0. Segment 7's request is
        // cancelled (1 Mbit transferred), segments 0–6 come from disk at 100 Mbit/s (0.02 s each, no throughput
        // samples), and 7–9 from the network again.
        let shared = try Self.content([500], segments: 10)
        let player = Self.player("p", content: shared) {
            $0.cache = CacheSettings(capacityBytes: 10e6, diskBitsPerSecond: 100e6)
            $0.actions = [TimedAction(time: 15, action: .seek(to: 0))]
        }
        let result = Simulation(curve: try Self.constant(1_000_000), players: [player]).run()
        let hits = result.segments[0].filter(\.cacheHit)
        #expect(hits.map(\.segment) == [0, 1, 2, 3, 4, 5, 6])
        #expect(hits.allSatisfy { abs($0.doneTime - $0.requestTime - 0.02) < 1e-9 })
        #expect(abs(hits[0].requestTime - 15) < 1e-9)
        #expect(result.totals[0].cacheHits == 7)
        #expect(result.totals[0].bytes == 10 * 250_000 + 125_000)
        let afterSeek = result.segments[0].filter { !$0.cacheHit && $0.requestTime >= 15 }
        #expect(afterSeek.map(\.segment) == [7, 8, 9])
    }

    @Test("a full segment cache evicts the least recently used segment")
    func aSmallCacheEvictsTheLeastRecentlyUsed() {
        let content = try! Self.content([500], segments: 4)
        let cache = SegmentCache(capacityBytes: 500_000, diskBitsPerSecond: 1e8)
        cache.store(content: content, segment: 0, variant: 0, bytes: 250_000)
        cache.store(content: content, segment: 1, variant: 0, bytes: 250_000)
        #expect(cache.lookUp(content: content, segment: 0, variant: 0))  // 0 is now the most recent
        cache.store(content: content, segment: 2, variant: 0, bytes: 250_000)  // evicts 1
        #expect(!cache.lookUp(content: content, segment: 1, variant: 0))
        #expect(cache.lookUp(content: content, segment: 0, variant: 0))
        #expect(cache.storedBytes == 500_000)
    }

    @Test("coordinated players start together, keep one playhead, and wait for each other with the coordinated reason")
    func coordinatedPlayersKeepOnePlayheadAndWaitTogether() throws {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/multiview-coordinated.json")
        let report = try ScenarioRunner().run(scenario)
        let a = report.players[0].timeline
        let b = report.players[1].timeline
        // Both start at the same instant.
        #expect(report.players[0].summary.startupSeconds == report.players[1].summary.startupSeconds)
        // At every instant either records after startup, the other's playhead (interpolated from its own rows)
        // is the same.
        func playhead(_ rows: [TimelineRecord], at t: Double) -> Double {
            let row = rows.last { $0.time <= t }!
            return row.state == .playing ? row.playheadSeconds + (t - row.time) : row.playheadSeconds
        }
        let start = report.players[0].summary.startupSeconds!
        var compared = 0
        for row in a + b where row.time >= start && !row.state.isFinal {
            #expect(abs(playhead(a, at: row.time) - playhead(b, at: row.time)) < 1e-6, "at \(row.time)")
            compared += 1
        }
        #expect(compared > 10)
        // While one refills, the other shows the coordinated-wait reason.
        #expect((a + b).contains { $0.waitingReason == .waitingForCoordinatedPlayback })
    }

    @Test("routing a player to its own network gives the other the whole shared link")
    func routingAPlayerAwayGivesTheOthersTheLink() throws {
        // Two players share 2 Mbit/s; at 0 s player "tv" moves to an external route of its own, so "phone"
        // downloads at the full 2 Mbit/s: 2 Mbit segments in 1 s each.
        let shared = try Self.content([500], segments: 4)
        let players = [
            Self.player("phone", content: shared),
            Self.player("tv", content: shared) { $0.actions = [TimedAction(time: 0, action: .route(1))] },
        ]
        let result = Simulation(
            curve: try Self.constant(2_000_000), players: players, routes: [try Self.constant(5_000_000)]
        ).run()
        #expect(result.segments[0].map(\.doneTime) == [1, 2, 3, 4])
        #expect(abs(result.segments[1][0].doneTime - 0.4) < 1e-9)
    }

    @Test("raising a tile's priority from low to default to high never lowers its link share")
    func raisingATilesPriorityNeverLowersItsShare() throws {
        let base = try ScenarioLoader().load(TestPaths.scenarios + "/multiview-priority.json")
        var shares: [Double] = []
        for level in [NetworkResourcePriority.low, .default, .high] {
            var scenario = base
            scenario.players[1].settings.networkResourcePriority = level
            let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
            shares.append(report.players[1].summary.averageLinkShare!)
        }
        #expect(shares[0] <= shares[1] + 1e-12)
        #expect(shares[1] <= shares[2] + 1e-12)
        #expect(shares[0] < shares[2])
    }

    @Test("the Jain index and its weighted form match hand values, are empty for negatives and give the unfairness")
    func jainIndexByHand() {
        #expect(jainIndex([1, 1, 1, 1]) == 1)
        #expect(jainIndex([1, 0, 0, 0]) == 0.25)
        // (1 + 3)² / (2 · (1 + 9)) = 16/20.
        #expect(jainIndex([1, 3]) == 0.8)
        // Weighted by 1 and 3: both become 1, perfectly fair for their priorities.
        #expect(jainIndex([1, 3], weights: [1, 3]) == 1)
        #expect(jainIndex([-1, 2]) == nil)
        let fairness = FairnessSummary(throughputs: [1, 3], bitrates: [1, 3], qoes: [1, 3], weights: [1, 1])
        #expect(abs(fairness.unfairness! - 0.2.squareRoot()) < 1e-12)
    }
}
