import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Player behaviour on constant links, each number worked out by hand in the comments.
@Suite("player behaviour on constant links")
struct PlayerBehaviourTests {
    struct Setup {
        var rateBps = 1_000_000.0
        var rttSeconds = 0.0
        var ladderKbps: [Double] = [500, 2000]
        var segments = 10
        var segmentSeconds = 4.0
        var variant = 1
        var target = 60.0
        var waits = false
        var predictor: any KeepUpPredictor = PlayThroughPredictor()
        var actions: [TimedAction] = []
        var atEnd = TraceEndBehavior.loop
        var traceSeconds = 1000.0
        var autoplay = true
    }

    func run(_ setup: Setup, players count: Int = 1) throws -> SimulationResult {
        let curve = try CapacityCurve(
            starts: [0], ratesBps: [setup.rateBps], duration: setup.traceSeconds,
            latencySeconds: [setup.rttSeconds], atEnd: setup.atEnd)
        let content = try Content.constantBitrate(
            ladderKbps: setup.ladderKbps, segmentSeconds: setup.segmentSeconds, segmentCount: setup.segments)
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = setup.target
        settings.automaticallyWaitsToMinimizeStalling = setup.waits
        settings.keepUpPredictor = setup.predictor
        settings.actions = setup.actions
        settings.autoplay = setup.autoplay
        let players = (0..<count).map { index in
            PlayerConfiguration(
                id: "p\(index)", content: content, policy: FixedPolicy(variant: setup.variant), policyLabel: "fixed",
                settings: settings, estimator: LastSampleEstimator())
        }
        return Simulation(curve: curve, players: players).run()
    }

    @Test("a 0.5 s round trip delays each first byte, and the throughput sample leaves it out")
    func roundTripTimeDelaysEachFirstByte() throws {
        var setup = Setup()
        setup.rttSeconds = 0.5
        setup.variant = 0
        setup.segments = 3
        // 500 kbit/s × 4 s = 2 Mbit = 2 s at 1 Mbit/s, after 0.5 s of RTT: arrivals at 2.5, 5, 7.5.
        let result = try run(setup)
        #expect(result.segments[0].map(\.doneTime) == [2.5, 5, 7.5])
        #expect(result.segments[0].map(\.firstByteTime) == [0.5, 3, 5.5])
        // The throughput sample leaves the RTT out: 2 Mbit over 2 s.
        #expect(result.segments[0].allSatisfy { $0.throughputBps == 1_000_000 })
        #expect(result.totals[0].startupSeconds == 2.5)
        #expect(result.totals[0].stallCount == 0)
    }

    @Test("loading pauses above the forward buffer target and resumes when the buffer drains back to it")
    func forwardBufferTargetPausesLoading() throws {
        var setup = Setup()
        setup.variant = 0
        setup.target = 8
        setup.segments = 6
        // Downloads take 2 s and add 4 s; playback starts at 2 s. Arrivals at 2, 4, 6 leave 4, 6, 8 s: at the
        // target, so loading goes on. At 8 s the buffer is 10 s: above the target, loading stops until it has
        // drained back to 8 s at 10 s. From then on each request leaves 10 s and waits 2 s.
        let result = try run(setup)
        let requests = result.segments[0].map(\.requestTime)
        #expect(requests == [0, 2, 4, 6, 10, 14])
        #expect(result.segments[0].map(\.bufferAfterSeconds) == [4, 6, 8, 10, 10, 10])
    }

    @Test("on a fast link the player idles above its target until the buffer drains back, without stalls")
    func offPeriodsWhenTheLinkIsFast() throws {
        var setup = Setup()
        setup.rateBps = 4_000_000
        setup.variant = 0
        setup.target = 10
        setup.segments = 8
        // 2 Mbit at 4 Mbit/s = 0.5 s per segment. Arrivals 0.5 (buffer 4), 1.0 (7.5), 1.5 (11: above target).
        // Then the buffer drains to 10 at 2.5 s; the next request goes out then.
        let result = try run(setup)
        let rows = result.segments[0]
        #expect(rows[0].doneTime == 0.5)
        #expect(rows[2].doneTime == 1.5)
        #expect(rows[2].bufferAfterSeconds == 11)
        #expect(rows[3].requestTime == 2.5)
        #expect(rows[3].bufferBeforeSeconds == 10)
        #expect(result.totals[0].stallCount == 0)
    }

    @Test("a pause stops the playhead while loading goes on, so a 10 s pause ends the session 10 s later")
    func pauseStopsThePlayheadButNotLoading() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 5
        setup.actions = [TimedAction(time: 3, action: .pause), TimedAction(time: 13, action: .play(rate: 1))]
        // Segment 0 arrives at 2 s; play 2→3 (1 s), pause 3→13, then the 19 s left play to 32 s. Loading
        // finishes at 10 s meanwhile.
        let result = try run(setup)
        let totals = result.totals[0]
        #expect(totals.startupSeconds == 2)
        #expect(totals.endTime == 32)
        #expect(totals.playedSeconds == 20)
        #expect(totals.stallCount == 0)
        #expect(result.timeline[0].contains { $0.state == .paused && $0.time == 3 })
    }

    @Test("at rate 2 the buffer drains twice as fast, 16 s of media playing by 10 s without a stall")
    func doubleRateDrainsTwiceAsFast() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 4
        setup.actions = [TimedAction(time: 0, action: .rate(2))]
        // Arrivals 2, 4, 6, 8; each 4 s segment plays in 2 s at rate 2, so no stall and the end is at 10 s.
        let result = try run(setup)
        #expect(result.totals[0].stallCount == 0)
        #expect(result.totals[0].endTime == 10)
        #expect(result.totals[0].playedSeconds == 16)
    }

    @Test("a seek cancels the download in flight, drops the buffer and refills from the new position")
    func seekDropsTheBufferAndRefills() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 10
        setup.actions = [TimedAction(time: 5, action: .seek(to: 30))]
        // At 5 s: playhead 3 (started at 2), segment 2 half loaded (1 Mbit of 2). The seek cancels it (a row:
        // cancelled, 125 000 bytes) and asks for segment 7 (28–32 s), which arrives at 7 s; the 2 s of media from
        // 30 s play at once (no wait).
        let result = try run(setup)
        let cancelled = result.segments[0].filter(\.cancelled)
        #expect(cancelled.map(\.segment) == [2])
        #expect(cancelled.first?.bytes == 125_000 && cancelled.first?.doneTime == 5)
        #expect(cancelled.first?.abandoned == true && cancelled.first?.timedOut == false)
        #expect(result.totals[0].bytes == result.segments[0].reduce(0) { $0 + $1.bytes })
        let rows = result.segments[0].filter { !$0.cancelled }
        #expect(rows.map(\.segment) == [0, 1, 7, 8, 9])
        #expect(rows[2].requestTime == 5)
        #expect(rows[2].doneTime == 7)
        #expect(result.totals[0].bytes == (2 + 2 + 1 + 2 + 2 + 2) * 1_000_000 / 8)
        #expect(result.totals[0].seekWaitSeconds == 2)
        #expect(result.totals[0].stallCount == 0)
        #expect(result.totals[0].finalState == .ended)
    }

    @Test("the fixed-threshold predictor starts playback once 8 s are buffered")
    func fixedThresholdPredictorWaitsForItsBuffer() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 4
        setup.waits = true
        setup.predictor = FixedThresholdPredictor(startSeconds: 8, afterStallSeconds: 2)
        // 8 s of media (two segments) arrive at 4 s.
        let result = try run(setup)
        #expect(result.totals[0].startupSeconds == 4)
    }

    @Test("a link that never delivers fails the player with its reason, before any segment")
    func aLinkThatNeverDeliversFailsThePlayer() throws {
        var setup = Setup()
        setup.rateBps = 0
        let result = try run(setup)
        #expect(result.totals[0].finalState == .failed(reason: "the network delivers no more data"))
        #expect(result.segments[0].isEmpty)
        #expect(result.timeline[0].last?.state == .failed(reason: "the network delivers no more data"))
    }

    @Test("a trace that ends at 20 s ends the run by then")
    func aTraceThatEndsStopsTheRun() throws {
        var setup = Setup()
        setup.atEnd = .end
        setup.traceSeconds = 20
        setup.variant = 0
        // 2 s per segment: ten arrivals by 20 s would need all of it; the run stops at 20 s.
        let result = try run(setup)
        #expect(result.endTime <= 20)
    }

    @Test("two equal players share the link evenly, each segment arriving at half the rate")
    func twoEqualPlayersShareTheLinkEvenly() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 2
        // Both download 2 Mbit at the same time at 0.5 Mbit/s each: both arrive at 4 s, then 8 s.
        let result = try run(setup, players: 2)
        #expect(result.segments[0].map(\.doneTime) == [4, 8])
        #expect(result.segments[1].map(\.doneTime) == [4, 8])
        #expect(result.segments[0][0].throughputBps == 500_000)
    }

    @Test("without autoplay the player loads, waits ready to play and starts on play")
    func withoutAutoplayThePlayerLoadsAndWaitsForPlay() throws {
        var setup = Setup()
        setup.variant = 0
        setup.segments = 2
        setup.autoplay = false
        setup.actions = [TimedAction(time: 10, action: .play(rate: 1))]
        let result = try run(setup)
        #expect(result.totals[0].startupSeconds == 0)
        #expect(result.totals[0].endTime == 18)
        #expect(result.timeline[0].contains { $0.state == .readyToPlay })
    }
}

/// A policy that waits (BOLA's "no positive utility") suspends loading, which counts as a full buffer: a player
/// waiting to minimise stalling resumes instead of waiting forever for downloads the policy will not make.
@Suite("a waiting policy and a waiting player")
struct PolicyWaitTests {
    @Test("a BOLA-E wait after a tunnel stall counts as a full buffer, so the player resumes and ends")
    func bolaEAfterATunnelStallResumesAndEnds() throws {
        var scenario = try ScenarioLoader().load(TestPaths.scenarios + "/tunnel-stall.json")
        scenario.players[0].policy = PolicySpec(name: "bola-e")
        scenario.durationSeconds = 3600
        let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
        #expect(report.players[0].summary.finalState == .ended)
        #expect(abs(report.players[0].summary.playedSeconds - 360) < 1e-6)
    }
}
