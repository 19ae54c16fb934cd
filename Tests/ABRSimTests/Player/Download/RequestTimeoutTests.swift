import Testing

@testable import ABRSim

/// Request timeouts worked by hand: no RTT, one 1000 kbit/s variant, 4 s segments (4 Mbit each), a player that
/// does not wait to minimise stalling, the fixed policy.
@Suite("request timeouts and retries")
struct RequestTimeoutTests {
    /// A curve of `pieces` (start, Mbit/s) lasting 10 000 s, no RTT.
    static func curve(_ pieces: [(Double, Double)]) throws -> CapacityCurve {
        try CapacityCurve(
            starts: pieces.map(\.0), ratesBps: pieces.map { $0.1 * 1e6 }, duration: 10_000,
            latencySeconds: pieces.map { _ in 0 })
    }

    static func player(
        _ id: String = "main", segments: Int = 2, timeout: Double = 5, retries: Int = 4,
        configure: (inout PlayerSettings) -> Void = { _ in }
    ) throws -> PlayerConfiguration {
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.requests.timeoutSeconds = timeout
        settings.requests.maximumRetries = retries
        configure(&settings)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 4, segmentCount: segments)
        return PlayerConfiguration(
            id: id, content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
    }

    static func near(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

    /// Uncapped (zero-capacity index) and capped by a rate limit above the link (piece walk): the same timings.
    @Test(
        "a 20 s outage times out three attempts, retried after 1, 2 and 4 s, and playback then runs without a stall",
        arguments: [Double.infinity, 10e6])
    func anOutageTimesRequestsOutAndRetriesAfterOneTwoAndFourSeconds(rateLimitBps: Double) throws {
        // Outage [0, 20), then 2 Mbit/s. Attempt 1 at 0 times out at 5; retry at 6 → 11; retry at 13 → 18;
        // retry at 22 (after 4 s) gets the network back: 4 Mbit in 2 s, done at 24; segment 1 done at 26.
        let player = try Self.player { $0.rateLimitBps = rateLimitBps }
        let result = Simulation(curve: try Self.curve([(0, 0), (20, 2)]), players: [player]).run()
        let records = result.segments[0]
        #expect(records.map(\.timedOut) == [true, true, true, false, false])
        #expect(records.map(\.attempt) == [1, 2, 3, 4, 1])
        #expect(records.map(\.requestTime).enumerated().allSatisfy { Self.near($1, [0, 6, 13, 22, 24][$0]) })
        #expect(records.map(\.doneTime).enumerated().allSatisfy { Self.near($1, [5, 11, 18, 24, 26][$0]) })
        #expect(records.prefix(3).allSatisfy { $0.bytes == 0 && $0.abandoned })
        let totals = result.totals[0]
        #expect(totals.timedOutRequests == 3)
        #expect(totals.retries == 3)
        #expect(totals.finalState == .ended)
        // Playback starts when segment 0 lands at 24 and runs 8 s without a stall.
        #expect(Self.near(totals.endTime, 32))
        #expect(totals.stallCount == 0)
        #expect(totals.bytes == 1_000_000)
    }

    @Test("past its retry limit the player fails at 27 s, its reason naming the segment and the attempts")
    func afterTheRetryLimitThePlayerFailsNamingTheSegmentAndTheAttempts() throws {
        // Outage for the first 60 s, retry limit 3: timeouts at 5, 11, 18 and, after the retry at 22, at 27.
        let result = Simulation(
            curve: try Self.curve([(0, 0), (60, 2)]), players: [try Self.player(retries: 3)]
        ).run()
        let totals = result.totals[0]
        let reason = "segment 0 timed out 4 times (no data for 5 s; retry limit 3)"
        #expect(totals.finalState == .failed(reason: reason))
        #expect(Self.near(totals.endTime, 27))
        #expect(totals.timedOutRequests == 4)
        #expect(totals.retries == 3)
        let last = try #require(result.timeline[0].last)
        #expect(last.state == .failed(reason: reason))
        #expect(Self.near(last.time, 27))
    }

    @Test("the request timeout counts from the last byte, and the partial segment's bytes are counted but discarded")
    func theIdleTimerCountsFromTheLastByteAndDiscardsThePartialSegment() throws {
        // 1 Mbit/s for 1 s, nothing until 7 s, then 1 Mbit/s: 1 Mbit arrives, the request is idle from 1 s and
        // times out at 6 s (125 000 bytes wasted); the retry at 7 s takes 4 s.
        let result = Simulation(
            curve: try Self.curve([(0, 1), (1, 0), (7, 1)]), players: [try Self.player(segments: 1)]
        ).run()
        let records = result.segments[0]
        #expect(records.count == 2)
        #expect(records[0].timedOut && Self.near(records[0].doneTime, 6) && Self.near(records[0].bytes, 125_000))
        #expect(Self.near(records[1].requestTime, 7) && Self.near(records[1].doneTime, 11))
        #expect(Self.near(result.totals[0].bytes, 625_000))
    }

    @Test("a 4 s gap under the 5 s timeout only delays the segment")
    func aGapShorterThanTheTimeoutOnlyDelaysTheSegment() throws {
        // Nothing in [1, 5): the 4 s gap is under the 5 s timeout; the last 3 Mbit arrive in [5, 8).
        let result = Simulation(
            curve: try Self.curve([(0, 1), (1, 0), (5, 1)]), players: [try Self.player(segments: 1)]
        ).run()
        #expect(result.segments[0].count == 1)
        #expect(Self.near(result.segments[0][0].doneTime, 8))
        #expect(result.totals[0].timedOutRequests == 0)
    }

    /// Uncapped, and capped (a rate limit equal to the link: the piece walk) with the same timings.
    @Test(
        "a player starved by strict priority times out and fails at 11 s while the other finishes on time",
        arguments: [Double.infinity, 1e6])
    func aPlayerStarvedByStrictPriorityFailsWhileTheOtherFinishes(highRateLimitBps: Double) throws {
        // 1 Mbit/s split by strict priority: `high` downloads back to back (done at 4, 8, 12, 16, 20) and `low`
        // gets nothing: timeouts at 5 and, after the retry at 6, at 11, where it fails (one retry allowed).
        let high = try Self.player("high", segments: 5) {
            $0.networkResourcePriority = .high
            $0.preferredForwardBufferDuration = 1000
            $0.rateLimitBps = highRateLimitBps
        }
        let low = try Self.player("low", retries: 1) { $0.networkResourcePriority = .low }
        let result = Simulation(
            curve: try Self.curve([(0, 1)]), players: [high, low], allocation: .strict
        ).run()
        #expect(result.segments[0].map(\.doneTime).enumerated().allSatisfy { Self.near($1, [4, 8, 12, 16, 20][$0]) })
        #expect(result.totals[0].finalState == .ended)
        #expect(Self.near(result.totals[0].endTime, 24))
        let reason = "segment 0 timed out 2 times (no data for 5 s; retry limit 1)"
        #expect(result.totals[1].finalState == .failed(reason: reason))
        #expect(Self.near(result.totals[1].endTime, 11))
    }

    @Test("two runs of four players with timeouts on a gapped looping link give the same records")
    func timeoutsAreDeterministic() throws {
        // Four players, a looping curve with gaps shorter and longer than the 5 s timeout: two runs, same records.
        func run() throws -> SimulationResult {
            let players = try (0..<4).map { i in
                try Self.player("p\(i)", segments: 6, retries: 1) { $0.startSeconds = Double(i) * 0.5 }
            }
            let curve = try CapacityCurve(
                starts: [0, 3, 6, 9, 17], ratesBps: [4e6, 0, 2e6, 0, 3e6], duration: 20,
                latencySeconds: Array(repeating: 0.04, count: 5))
            return Simulation(curve: curve, players: players).run()
        }
        let (first, second) = (try run(), try run())
        #expect(first.segments == second.segments)
        #expect(first.timeline == second.timeline)
        #expect(first.totals == second.totals)
        #expect(first.totals.contains { $0.timedOutRequests > 0 })
    }

    @Test(
        "reviews skipped where no timeout-long zero stretch fits before the link's next change leave every record as it was"
    )
    func skippedReviewsWithoutALongStretchAheadGiveTheRecordsOfFullReviews() throws {
        // Eight players sharing 4 Mbit/s: each 4 Mbit segment takes about 8 s, so the link's next change is often a
        // timeout (5 s) or more away. Gaps of 1 and 3 s never time a request out; one of 12 s in each 60 s loop
        // does, so timeouts are armed and fire too.
        func run(skipping: Bool) throws -> (SimulationResult, far: Int, zero: Int) {
            let players = try (0..<8).map { i in
                try Self.player("p\(i)", segments: 12, retries: 2) { $0.startSeconds = Double(i) * 0.3 }
            }
            let curve = try CapacityCurve(
                starts: [0, 10, 11, 25, 28, 40, 52], ratesBps: [4e6, 0, 4e6, 0, 3e6, 0, 5e6], duration: 60,
                latencySeconds: Array(repeating: 0.04, count: 7))
            let simulation = Simulation(curve: curve, players: players)
            simulation.timeoutReviews.skipsWhereNoLongStretchFits = skipping
            let result = simulation.run()
            let reviews = simulation.timeoutReviews
            return (result, reviews.skippedFarPasses, reviews.skippedZeroCapacityPasses)
        }
        let (skipped, far, _) = try run(skipping: true)
        let (reviewed, noneFar, noneZero) = try run(skipping: false)
        #expect(far > 0)
        #expect(noneFar == 0 && noneZero == 0)
        #expect(skipped.segments == reviewed.segments)
        #expect(skipped.timeline == reviewed.timeline)
        #expect(skipped.totals == reviewed.totals)
        #expect(skipped.totals.contains { $0.timedOutRequests > 0 })
    }

    @Test("reviews skipped at zero capacity in a trace of short gaps leave every record as it was")
    func skippedReviewsAtZeroCapacityGiveTheRecordsOfFullReviews() throws {
        // As a 1 ms packet trace: 13 ms at 6 Mbit/s then 7 ms without data, for 20 s, then a 2.5 s gap that times out
        // the 1.5 s requests; players start off the pieces' grid, so flows change inside the short gaps too.
        var starts: [Double] = []
        var rates: [Double] = []
        for k in 0..<1000 {
            starts += [Double(k) * 0.02, Double(k) * 0.02 + 0.013]
            rates += [6e6, 0]
        }
        starts.append(20)
        rates.append(0)
        func run(skipping: Bool) throws -> (SimulationResult, zero: Int) {
            let players = try (0..<6).map { i in
                try Self.player("p\(i)", segments: 10, timeout: 1.5, retries: 3) {
                    $0.startSeconds = Double(i) * 0.4031
                }
            }
            let curve = try CapacityCurve(
                starts: starts, ratesBps: rates, duration: 22.5, latencySeconds: starts.map { _ in 0.004 })
            let simulation = Simulation(curve: curve, players: players)
            simulation.timeoutReviews.skipsWhereNoLongStretchFits = skipping
            let result = simulation.run()
            return (result, simulation.timeoutReviews.skippedZeroCapacityPasses)
        }
        let (skipped, zero) = try run(skipping: true)
        let (reviewed, none) = try run(skipping: false)
        #expect(zero > 0)
        #expect(none == 0)
        #expect(skipped.segments == reviewed.segments)
        #expect(skipped.timeline == reviewed.timeline)
        #expect(skipped.totals == reviewed.totals)
        #expect(skipped.totals.contains { $0.timedOutRequests > 0 })
    }

    @Test(
        "on random links with gaps, priorities, rate limits and timeouts, skipped reviews leave every record as it was",
        arguments: 0..<24)
    func skippedReviewsOnRandomLinksGiveTheRecordsOfFullReviews(seed: Int) throws {
        var random = NetworkTestSupport.SplitMix(state: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        // Pieces of 1 ms to 4 s, a third of them without data; 1 to 12 players with 0.3-4 s timeouts.
        var starts: [Double] = []
        var rates: [Double] = []
        var t = 0.0
        while t < 60 {
            starts.append(t)
            rates.append(random.uniform() < 0.35 ? 0 : 0.5e6 + 8e6 * random.uniform())
            t += random.uniform() < 0.6 ? 0.001 + 0.02 * random.uniform() : 4 * random.uniform() + 0.001
        }
        rates[0] = max(rates[0], 1e6)
        let playerCount = 1 + Int(random.uniform() * 12)
        let strategies: [AllocationStrategy] = [.weighted, .equal, .strict]
        let allocation = strategies[Int(random.uniform() * 3)]
        let timeouts = (0..<playerCount).map { _ in 0.3 + 3.7 * random.uniform() }
        let priorities = (0..<playerCount).map { _ in
            [NetworkResourcePriority.low, .default, .high][Int(random.uniform() * 3)]
        }
        let limits = (0..<playerCount).map { _ in random.uniform() < 0.2 ? 2e5 + 2e6 * random.uniform() : .infinity }
        let offsets = (0..<playerCount).map { _ in 3 * random.uniform() }
        func run(skipping: Bool) throws -> SimulationResult {
            let players = try (0..<playerCount).map { i in
                try Self.player("p\(i)", segments: 8, timeout: timeouts[i], retries: 3) {
                    $0.startSeconds = offsets[i]
                    $0.networkResourcePriority = priorities[i]
                    $0.rateLimitBps = limits[i]
                }
            }
            let curve = try CapacityCurve(
                starts: starts, ratesBps: rates, duration: t, latencySeconds: starts.map { _ in 0.01 }, atEnd: .loop)
            let simulation = Simulation(curve: curve, players: players, allocation: allocation)
            simulation.timeoutReviews.skipsWhereNoLongStretchFits = skipping
            return simulation.run()
        }
        let (skipped, reviewed) = (try run(skipping: true), try run(skipping: false))
        #expect(skipped.segments == reviewed.segments)
        #expect(skipped.timeline == reviewed.timeline)
        #expect(skipped.totals == reviewed.totals)
    }

    @Test("when a player on a dead route fails the other player has the whole shared link")
    func whenTheStarvedPlayerFailsTheOtherGetsTheWholeLink() throws {
        // Weighted sharing, 2 Mbit/s; `dead` is routed to a network that never delivers and fails at 5 s with no
        // retry. `live` alone on the shared link gets 2 Mbit/s: 4 Mbit in 2 s.
        let live = try Self.player("live", segments: 1)
        let dead = try Self.player("dead", retries: 0) {
            $0.actions = [TimedAction(time: 0, action: .route(1))]
        }
        let result = Simulation(
            curve: try Self.curve([(0, 2)]), players: [live, dead],
            routes: [try Self.curve([(0, 0), (9_000, 1)])]
        ).run()
        #expect(Self.near(result.segments[0][0].doneTime, 2))
        #expect(
            result.totals[1].finalState
                == .failed(reason: "segment 0 timed out 1 times (no data for 5 s; retry limit 0)"))
        #expect(Self.near(result.totals[1].endTime, 5))
    }

    @Test("request defaults are Foundation's 60 s timeout and hls.js's four retries after 1, 2, 4 and 8 s")
    func defaultsFollowFoundationAndHlsJs() {
        let settings = RequestRetrySettings()
        #expect(settings.timeoutSeconds == 60)
        #expect(settings.maximumRetries == 4)
        #expect((1...6).map { settings.delay(beforeRetry: $0) } == [1, 2, 4, 8, 8, 8])
        #expect(PlayerSettings().requests == settings)
    }

    @Test("a curve keeps each zero-capacity index it built for its copies and for other threads")
    func theCurveKeepsEachIndexItBuiltForItsCopiesAndRunsOnOtherThreads() throws {
        let curve = try CapacityCurve(starts: [0, 2, 4, 5, 8], ratesBps: [0, 1e6, 0, 1e6, 0], duration: 10)
        let copy = curve
        #expect(curve.zeroCapacityIndex(minimumLength: 4).starts == [8])
        #expect(copy.zeroCapacityIndex(minimumLength: 1).starts == [4, 8])
        let starts = try parallelMap(count: 64, jobs: 4) { run in
            copy.zeroCapacityIndex(minimumLength: run.isMultiple(of: 2) ? 4 : 1).starts
        }
        #expect(starts == (0..<64).map { $0.isMultiple(of: 2) ? [8] : [4, 8] })
    }

    @Test("zero-capacity stretches merge across the curve's loop and are found after any time")
    func zeroStretchesMergeAcrossTheLoopOfTheCurve() throws {
        // Zero on [0, 2), [4, 5) and [8, 10) of a 10 s loop: a 4 s stretch from 8 to 12, 18 to 22, … and a 1 s one.
        let curve = try CapacityCurve(starts: [0, 2, 4, 5, 8], ratesBps: [0, 1e6, 0, 1e6, 0], duration: 10)
        let long = ZeroCapacityIndex(curve, minimumLength: 4)
        #expect(long.starts == [8])
        #expect(long.firstStretch(after: 3) == 8)
        #expect(long.firstStretch(after: 9) == 18)
        #expect(long.firstStretch(after: 25) == 28)
        #expect(ZeroCapacityIndex(curve, minimumLength: 1).starts == [4, 8])
        #expect(ZeroCapacityIndex(curve, minimumLength: 4.5).firstStretch(after: 0) == nil)
        // A first stretch long on its own is still part of the one that wraps: [8, 15), not [0, 5) and [8, 10).
        let wrapping = try CapacityCurve(starts: [0, 5, 8], ratesBps: [0, 1e6, 0], duration: 10)
        #expect(ZeroCapacityIndex(wrapping, minimumLength: 4).starts == [8])
        #expect(
            ZeroCapacityIndex(try CapacityCurve(starts: [0], ratesBps: [0], duration: 10), minimumLength: 1).starts
                == [])
    }
}
