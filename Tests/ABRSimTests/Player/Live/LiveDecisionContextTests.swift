import Testing

@testable import ABRSim

/// What a live player's policy sees at each decision (`ABRContext.liveLatencySeconds`, `targetLatencySeconds`,
/// `playbackRate`), against the timeline and by hand. The run of `LivePhysicsTests`: one 1000 kbit/s rung of 2 s
/// segments, a 4 Mbit/s link without RTT, the live edge at 40 + t, the player starting 6 s behind it; a 10 s
/// outage from 10.5 s leaves latency at 11 s from 21 s, and Shaka (target 6.41 s) plays at 1.1 from 21.25 s until
/// latency is 6.9 s at 62.25 s.
@Suite("the live latency, target latency and rate a live player's policy decides on")
struct LiveDecisionContextTests {
    /// Plays the lowest rung and keeps every context it was asked with.
    final class RecordingPolicy: ABRPolicy {
        var contexts: [ABRContext] = []

        func decide(_ context: ABRContext) -> ABRDecision {
            contexts.append(context)
            return .variant(0)
        }
    }

    func run(live: Bool) throws -> (SimulationResult, [ABRContext]) {
        let curve = try CapacityCurve(starts: [0, 10.5, 20.5], ratesBps: [4e6, 0, 4e6], duration: 1000)
        var content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        if live {
            content = try content.playedLive(
                as: LiveStream(availabilityStartSeconds: -40, targetDurationSeconds: 2, refresh: .template))
            var liveSettings = LivePlaybackSettings()
            liveSettings.configuredTimeOffsetFromLive = 6
            liveSettings.targetLatencySeconds = 6.41
            liveSettings.catchUp = "shaka"
            settings.live = liveSettings
        }
        let policy = RecordingPolicy()
        let player = PlayerConfiguration(
            id: "p", content: content, policy: policy, policyLabel: "recording", settings: settings,
            estimator: LastSampleEstimator())
        let result = Simulation(curve: curve, players: [player]).run()
        return (result, policy.contexts)
    }

    @Test("each live decision sees the timeline's latency, 6 s at the start, and the 6.41 s target")
    func liveDecisionsSeeTheTimelinesLatency() throws {
        let (result, contexts) = try run(live: true)
        #expect(contexts.count > 20)
        let first = try #require(contexts.first)
        #expect(first.time == 0)
        #expect(first.liveLatencySeconds == 6)
        let rows = result.timeline[0].filter { $0.latencySeconds != nil }
        var checked = 0
        for context in contexts {
            #expect(context.targetLatencySeconds == 6.41)
            let latency = try #require(context.liveLatencySeconds)
            // Latency is continuous between seeks (there are none here) and grows at 1 − the row's rate from a row
            // until the next, so the last row before the decision gives it.
            // Up to the first frame (0.5 s: one download) the playhead stands at media 34 s, so latency is 6 + t.
            guard let row = rows.last(where: { $0.time < context.time }) else {
                #expect(context.time <= 0.5)
                #expect(abs(latency - (6 + context.time)) < 1e-9, "at \(context.time)")
                continue
            }
            let expected = row.latencySeconds! + (context.time - row.time) * (1 - row.rate!)
            #expect(abs(latency - expected) < 1e-9, "at \(context.time)")
            checked += 1
        }
        #expect(checked >= contexts.count - 2)
    }

    @Test("decisions while Shaka catches up see rate 1.1 and latency falling from 11 s by 0.1 s per second")
    func catchUpDecisionsSeeTheCatchUpRate() throws {
        let (_, contexts) = try run(live: true)
        let during = contexts.filter { $0.time > 21.25 && $0.time < 62.25 }
        // Units become known every 2 s; about 20 decisions fall in the 41 s of catching up.
        #expect(during.count >= 15)
        for context in during {
            #expect(context.playbackRate == 1.1, "at \(context.time)")
            let expected = 11 - 0.1 * (context.time - 21.25)
            #expect(abs(context.liveLatencySeconds! - expected) < 1e-9, "at \(context.time)")
        }
        for context in contexts where context.time > 62.25 && context.playbackState == .playing {
            #expect(context.playbackRate == 1, "at \(context.time)")
        }
    }

    @Test("a video-on-demand player's decisions see no live latency and no target latency")
    func videoOnDemandDecisionsSeeNoLatency() throws {
        let (_, contexts) = try run(live: false)
        #expect(contexts.count == 60)
        for context in contexts {
            #expect(context.liveLatencySeconds == nil)
            #expect(context.targetLatencySeconds == nil)
        }
    }
}
