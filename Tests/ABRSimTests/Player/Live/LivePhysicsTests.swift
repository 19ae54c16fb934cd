import Testing

@testable import ABRSim

/// Live physics by hand: one 1000 kbit/s rung of 2 s segments (2 Mbit each), a 4 Mbit/s link without RTT (0.5 s
/// per segment), a stream whose availability began 40 s before the run (the live edge at t is 40 + t), a player
/// starting at t = 0 six seconds behind the edge (media 34 s, segment 17) that plays as soon as media is in.
/// Segment k ends at media 2k + 2 and is available at 2k + 2 − 40 s.
@Suite("live latency physics by hand")
struct LivePhysicsTests {
    static let start = -40.0

    func run(
        outage: (from: Double, seconds: Double)? = nil, catchUp: String = "none", target: Double? = nil,
        refresh: PlaylistRefresh = .template, startSeconds: Double = 0, actions: [TimedAction] = [],
        preservesOffset: Bool = false, part: Double? = nil
    ) throws -> SimulationResult {
        let curve: CapacityCurve
        if let outage {
            curve = try CapacityCurve(
                starts: [0, outage.from, outage.from + outage.seconds], ratesBps: [4e6, 0, 4e6], duration: 1000)
        } else {
            curve = try CapacityCurve(starts: [0], ratesBps: [4e6], duration: 1000)
        }
        let stream = LiveStream(
            availabilityStartSeconds: Self.start, targetDurationSeconds: 2, partTargetSeconds: part, refresh: refresh)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.startSeconds = startSeconds
        settings.actions = actions
        var live = LivePlaybackSettings()
        live.configuredTimeOffsetFromLive = 6
        live.targetLatencySeconds = target
        live.catchUp = catchUp
        live.automaticallyPreservesTimeOffsetFromLive = preservesOffset
        settings.live = live
        let player = PlayerConfiguration(
            id: "live", content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
        return Simulation(curve: curve, players: [player]).run()
    }

    /// Rows after the first frame.
    func playingRows(_ result: SimulationResult) -> [TimelineRecord] {
        result.timeline[0].filter { $0.latencySeconds != nil }
    }

    @Test("on a constant 4 Mbit/s link latency stays at the 6 s offset plus the 0.5 s startup")
    func constantLinkAboveTheBitrateKeepsLatencyConstant() throws {
        let result = try run()
        // First frame at 0.5 s (one download), media 34 s: latency 40.5 − 34 = 6.5 s, and each later segment
        // arrives 0.5 s after its availability, long before the playhead needs it, so it never changes.
        #expect(result.totals[0].startupSeconds == 0.5)
        #expect(result.totals[0].stallCount == 0)
        let rows = playingRows(result)
        #expect(rows.count > 10)
        for row in rows where row.state == .playing { #expect(abs(row.latencySeconds! - 6.5) < 1e-9) }
        let live = try #require(result.totals[0].live)
        #expect(abs(live.latencyMeanSeconds! - 6.5) < 1e-9)
        #expect(abs(live.latencyP95Seconds! - 6.5) < 1e-9)
        #expect(live.catchUpSeeks == 0)
    }

    @Test("from 20 s dash.js's catch-up holds latency within 0.021 s of its 6 s target on a constant link")
    func dashjsHoldsLatencyAtItsTargetOnAConstantLink() throws {
        let result = try run(catchUp: "dashjs")
        // dash.js's rate is 1 + 0.5·tanh(2.5Δ) and changes only by ≥ 0.02, so it settles where
        // 0.5·tanh(2.5|Δ|) < 0.02: |Δ| < atanh(0.04) / 2.5 ≈ 0.016 s, plus 0.02 × 0.25 s of one update's drift.
        let band = 0.0160085 + 0.02 * 0.25 + 1e-9
        for row in playingRows(result) where row.time > 20 && row.state == .playing {
            #expect(abs(row.latencySeconds! - 6) <= band)
        }
        #expect(result.totals[0].stallCount == 0)
    }

    @Test("a 10 s outage with 6 s buffered adds its 4 s excess plus the 0.5 s transfer in flight: latency 11 s")
    func anOutageLongerThanTheBufferAddsItsExcessToLatency() throws {
        // At 10.5 s the segment ending at media 50 has just arrived; the playhead is at 44: B = 6 s. The outage
        // lasts T = 10 s; the request sent at 12 s finishes 0.5 s after it (d). The playhead runs dry at 16.5 s and
        // resumes at 21 s: latency grows by max(0, T − B) + d = 4.5 s, to 11 s.
        let result = try run(outage: (10.5, 10))
        let totals = result.totals[0]
        #expect(totals.stallCount == 1)
        #expect(abs(totals.stallSeconds - 4.5) < 1e-9)
        let after = playingRows(result).filter { $0.time >= 21 && $0.state == .playing }
        #expect(!after.isEmpty)
        for row in after { #expect(abs(row.latencySeconds! - 11) < 1e-9) }
    }

    @Test("a 4 s outage with 6 s buffered adds no latency: it stays 6.5 s")
    func anOutageShorterThanTheBufferAddsNoLatency() throws {
        // T = 4 s < B = 6 s: the request sent at 12 s finishes at 15 s, with the playhead at 48.5 < 50.
        let result = try run(outage: (10.5, 4))
        #expect(result.totals[0].stallCount == 0)
        for row in playingRows(result) where row.state == .playing { #expect(abs(row.latencySeconds! - 6.5) < 1e-9) }
    }

    @Test("Shaka at rate 1.1 brings latency from 11 s to 6.9 s at 62.25 s, then plays at rate 1")
    func shakaCatchesUpInTheTimeItsRuleGives() throws {
        // Target 6.41 s, tolerance 0.5 s: Shaka plays at 1.1 while latency > 6.91 s, else 1. After the 10 s outage
        // latency is 11 s at 21 s; the first update after it is at 21.25 s (updates every 0.25 s from 0). Latency
        // then falls by 0.1 s per second, 0.025 per update, and is first ≤ 6.91 after ⌈(11 − 6.91) / 0.025⌉ = 164
        // updates: at 21.25 + 41 = 62.25 s, latency 11 − 4.1 = 6.9 s, where the rate returns to 1 and stays.
        let result = try run(outage: (10.5, 10), catchUp: "shaka", target: 6.41)
        let rows = playingRows(result)
        let fast = try #require(rows.first { $0.rate == 1.1 })
        #expect(fast.time == 21.25)
        let back = try #require(rows.first { $0.time > 21.25 && $0.rate == 1 })
        #expect(abs(back.time - 62.25) < 1e-9)
        #expect(abs(back.latencySeconds! - 6.9) < 1e-9)
        for row in rows where row.time > 62.25 && row.state == .playing {
            #expect(abs(row.latencySeconds! - 6.9) < 1e-9)
            #expect(row.rate == 1)
        }
        // The meter integrates the same line: 41 s from 11 down to 6.9 s.
        let live = try #require(result.totals[0].live)
        #expect(live.catchUpSeeks == 0)
    }

    @Test("a 15 s drift above dash.js's 12 s maximum makes it seek once, back to 6 s of latency")
    func dashjsSeeksBackToLiveWhenDriftExceedsMaxDrift() throws {
        // A 20 s outage from 10.5 s: latency 6.5 + (20 − 6) + 0.5 = 21 s, drift 15 s from the 6 s target, above
        // dash.js's 12 s maximum drift: it seeks to the live edge − 6 s, counted as a catch-up seek.
        let result = try run(outage: (10.5, 20), catchUp: "dashjs")
        let live = try #require(result.totals[0].live)
        #expect(live.catchUpSeeks == 1)
        let end = try #require(playingRows(result).last { $0.state == .playing })
        #expect(abs(end.latencySeconds! - 6) < 0.03)
    }

    @Test("preserving the offset after a stall skips 5 s forward and keeps 6.5 s of latency")
    func preservingTheOffsetSkipsForwardAfterAStall() throws {
        // AVPlayer's automaticallyPreservesTimeOffsetFromLive: at 21 s it would resume 11 s behind; it seeks to the
        // edge − 6 s (media 55) instead, beyond the buffer (which ends at 52), skipping 55 − 50 = 5 s. The segment
        // [54, 56) arrives at 21.5 s: latency 61.5 − 55 = 6.5 s from then on.
        let result = try run(outage: (10.5, 10), preservesOffset: true)
        let rows = playingRows(result).filter { $0.time >= 21.5 && $0.state == .playing }
        #expect(!rows.isEmpty)
        for row in rows { #expect(abs(row.latencySeconds! - 6.5) < 1e-9) }
        #expect(abs(result.totals[0].skippedSeconds - 5) < 1e-9)
    }

    @Test("a seek to live after a 15 s pause lands at media 59 s, 6 s behind the edge")
    func aSeekToLiveLandsAtTheConfiguredOffset() throws {
        let actions = [
            TimedAction(time: 10, action: .pause), TimedAction(time: 25, action: .seekToLive),
            TimedAction(time: 25, action: .play(rate: 1)),
        ]
        let result = try run(actions: actions)
        // Paused from 10 s to 25 s, latency grew to 21.5 s; the seek lands at 25 + 40 − 6 = 59 s, latency 6 s.
        let seek = try #require(result.timeline[0].last { $0.time == 25 })
        #expect(seek.playheadSeconds == 59)
        #expect(abs(seek.latencySeconds! - 6) < 1e-9)
    }

    @Test("in five refresh modes no row buffers past the live edge and no first byte precedes availability")
    func aPlayerNeverBuffersPastTheLiveEdge() throws {
        let modes: [(PlaylistRefresh, Double?)] = [
            (.template, nil), (.reload(intervalSeconds: 2), nil), (.blockingReload, 0.5), (.preloadHint, 0.5),
            (.reload(intervalSeconds: 0.5), 0.5),
        ]
        for (refresh, part) in modes {
            let result = try run(outage: (10.5, 3), catchUp: "dashjs", refresh: refresh, part: part)
            for row in result.timeline[0] {
                #expect(row.playheadSeconds + row.bufferSeconds <= row.time - Self.start + 1e-9, "\(refresh)")
            }
            for segment in result.segments[0] {
                let end = 2.0 * 0 + (Double(segment.segment) + 1) * (part ?? 2)
                #expect(segment.firstByteTime >= end + Self.start - 1e-9, "\(refresh)")
            }
        }
    }

    @Test("2 s reloads from a 0.3 s start delay each request by 0.3 s; the template requests at availability")
    func aPlaylistReloadDelaysKnowledgeByTheReloadPhase() throws {
        // Reloads every 2 s from the player's start at 0.3 s: a segment available at 2k s is known, and requested,
        // at 2k + 0.3 s. With the template it is requested at its availability.
        let reloaded = try run(refresh: .reload(intervalSeconds: 2), startSeconds: 0.3)
        let template = try run(refresh: .template, startSeconds: 0.3)
        let edge = { (result: SimulationResult) in result.segments[0].filter { $0.segment >= 20 } }
        #expect(!edge(reloaded).isEmpty)
        for segment in edge(reloaded) {
            let available = Double(segment.segment + 1) * 2 + Self.start
            #expect(abs(segment.requestTime - (available + 0.3)) < 1e-9)
        }
        for segment in edge(template) {
            let available = Double(segment.segment + 1) * 2 + Self.start
            #expect(abs(segment.requestTime - available) < 1e-9)
        }
    }
}

/// `recommendedTimeOffsetFromLive` and `seekableTimeRanges` as a player reports them.
@Suite("a live player's recommended offset and seekable range")
struct LivePlayerObservablesTests {
    @Test("after a 4.5 s stall the recommended offset is 6 + 4.5 s and a 20 s window seeks from 50 to 70 s")
    func theRecommendedOffsetIsTheHoldBackPlusTheLongestStall() throws {
        // The outage case of LivePhysicsTests: one 4.5 s stall; the stream's hold-back is 3 × 2 s.
        let curve = try CapacityCurve(starts: [0, 10.5, 20.5], ratesBps: [4e6, 0, 4e6], duration: 1000)
        let stream = LiveStream(
            availabilityStartSeconds: -40, kind: .live, dvrWindowSeconds: 20, targetDurationSeconds: 2,
            refresh: .template)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        let player = PlayerConfiguration(
            id: "live", content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
        let simulation = Simulation(curve: curve, players: [player], timeLimit: 30)
        simulation.run()
        let live = simulation.players[0]
        #expect(abs(live.recommendedTimeOffsetFromLive(at: 30)! - 10.5) < 1e-9)
        // At 30 s media up to 70 s is encoded: segments to 70 s are available, the window keeps the last 20 s.
        #expect(live.seekableTimeRange(at: 30) == 50...70)
    }
}
