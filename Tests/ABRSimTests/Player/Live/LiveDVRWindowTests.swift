import Testing

@testable import ABRSim

/// A live player behind a 20 s DVR window, as dash.js v5.1.1 treats it (`PlaybackController.js` lines 533–587):
/// left alone while paused, then moved to the window's start once it has no media to play. The physics of
/// LivePhysicsTests: one 1000 kbit/s rung of 2 s segments, a 4 Mbit/s link without RTT (0.5 s per segment), the
/// live edge at 40 + t, the player starting 6 s behind it (media 34 s), first frame at 0.5 s, a 4 s forward buffer.
@Suite("a paused live player behind the DVR window")
struct LiveDVRWindowTests {
    func run(actions: [TimedAction]) throws -> SimulationResult {
        let curve = try CapacityCurve(starts: [0], ratesBps: [4e6], duration: 1000)
        let stream = LiveStream(
            availabilityStartSeconds: -40, kind: .live, dvrWindowSeconds: 20, targetDurationSeconds: 2,
            refresh: .template)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.preferredForwardBufferDuration = 4
        settings.actions = actions
        var live = LivePlaybackSettings()
        live.configuredTimeOffsetFromLive = 6
        settings.live = live
        let player = PlayerConfiguration(
            id: "live", content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
        return Simulation(curve: curve, players: [player], timeLimit: 60).run()
    }

    @Test("paused at media 43.5 s from 10 to 50 s, it plays its 4.5 s of buffer, then jumps to the window start, 74 s")
    func aPausedPlayerPlaysItsBufferThenJumpsToTheWindowStart() throws {
        let result = try run(actions: [
            TimedAction(time: 10, action: .pause), TimedAction(time: 50, action: .play(rate: 1)),
        ])
        // At 10 s the playhead is at 34 + 9.5 = 43.5 s with media to 48 s (segment 23, available at 8 s, in at
        // 8.5 s; the buffer never fell below 4 s after it). The window's start passes 43.5 s at 24 s (64 − 20 >
        // 43.5), but dash.js checks nothing while paused: every row from 10 to 50 s keeps the playhead at 43.5 s.
        let paused = result.timeline[0].filter { $0.time >= 10 && $0.time <= 50 }
        #expect(!paused.isEmpty)
        for row in paused { #expect(row.playheadSeconds == 43.5) }
        // Resumed at 50 s, it plays its 4.5 s of media and runs out at 54.5 s at media 48 s; segment 24 (48–50 s)
        // had left the window (its start is 90 − 20 = 70 s at 50 s), so nothing was requested between 10 s and
        // 54.5 s. At 54.5 s the available end is 94 s (segment 46 in at 54 s): the window starts at 74 s, 26 s past
        // the playhead, and the player seeks there, 94.5 − 74 = 20.5 s behind the edge.
        let jump = try #require(result.timeline[0].first { $0.time == 54.5 })
        #expect(jump.playheadSeconds == 74)
        #expect(abs(jump.latencySeconds! - 20.5) < 1e-9)
        let requests = result.segments[0].map { ($0.segment, $0.requestTime) }
        #expect(!requests.contains { $0.1 > 10 && $0.1 < 54.5 })
        let next = try #require(requests.first { $0.1 >= 54.5 })
        #expect(next.0 == 37)
        #expect(next.1 == 54.5)
    }

    @Test("without a pause the player stays 6.5 s behind the edge, inside the window, and never jumps")
    func aPlayerInsideTheWindowNeverJumps() throws {
        let result = try run(actions: [])
        for row in result.timeline[0] where row.latencySeconds != nil {
            #expect(abs(row.latencySeconds! - 6.5) < 1e-9)
        }
        #expect(result.totals[0].stallCount == 0)
    }
}
