import Testing

@testable import ABRSim

/// hls.js's abr-controller: factors 0.95 (same or lower) and 0.7 (up), starvation-aware fetch times, the
/// maxStarvationDelay second pass, the first-level rule and the emergency switch-down.
@Suite("the hls.js policy")
struct HlsJsPolicyTests {
    let content = try! Content.constantBitrate(ladderKbps: [500, 1000, 2000], segmentSeconds: 4, segmentCount: 20)

    /// Feeds one download of `variant` (segment 0) that moved `bitsPerSecond` × 4 s in 4 s with no TTFB: the
    /// bandwidth estimate becomes exactly `bitsPerSecond` and the TTFB estimate 5 ms (hls.js's floor).
    func policy(lastLoaded variant: Int, bitsPerSecond: Double, configuration: HlsJsPolicy.Configuration = .init())
        -> HlsJsPolicy
    {
        let policy = HlsJsPolicy(configuration: configuration)
        let history = ThroughputHistory()
        let sample = ThroughputSample(bits: bitsPerSecond * 4, requestTime: 0, firstByteTime: 0, doneTime: 4)
        history.append(sample, variant: variant)
        policy.downloadFinished(
            sample, context: playerPolicyContext(content, time: 4, buffer: 4, lastVariant: variant, history: history))
        return policy
    }

    @Test("one finished download sets the hls.js bandwidth estimate to its rate and the first-byte estimate to 5 ms")
    func feedbackSetsTheEstimates() {
        let hls = policy(lastLoaded: 1, bitsPerSecond: 2_900_000)
        #expect(abs(hls.bandwidthEstimate - 2_900_000) < 1e-6)
        #expect(abs(hls.timeToFirstByteEstimate - 0.005) < 1e-15)
    }

    @Test("hls.js switches up only when 0.7 of the estimate carries the higher rung")
    func switchingUpNeedsSeventyPercentOfTheEstimate() {
        // From level 1 to 2 (2000 kbit/s): 0.7 × 2.9 = 2.03 Mbit/s fits; 0.7 × 2.8 = 1.96 does not.
        // Fetch at 2.03 Mbit/s: 0.005 + 8 Mbit / 2.03 + 0.005 (playlist not loaded) = 3.95 s < 20 s of buffer.
        let context = playerPolicyContext(content, buffer: 20, lastVariant: 1)
        #expect(policy(lastLoaded: 1, bitsPerSecond: 2_900_000).decide(context) == .variant(2))
        #expect(policy(lastLoaded: 1, bitsPerSecond: 2_800_000).decide(context) == .variant(1))
    }

    @Test("hls.js keeps its rung only while 0.95 of the estimate carries it")
    func stayingNeedsNinetyFivePercentOfTheEstimate() {
        // At level 2 already: 0.95 × 2.11 = 2.0045 Mbit/s ≥ 2 keeps it; 0.95 × 2.1 = 1.995 drops to 1.
        let context = playerPolicyContext(content, buffer: 20, lastVariant: 2)
        #expect(policy(lastLoaded: 2, bitsPerSecond: 2_110_000).decide(context) == .variant(2))
        #expect(policy(lastLoaded: 2, bitsPerSecond: 2_100_000).decide(context) == .variant(1))
    }

    @Test("when no rung loads in time hls.js accepts up to maxStarvationDelay of rebuffering")
    func maxStarvationDelayAllowsSomeRebufferingWhenNothingElseFits() {
        // Level 0 loaded, 1.5 Mbit/s. With 1 s of buffer nothing loads in time: level 1 (up, 1.05 Mbit/s) takes
        // 0.005 + 4 / 1.05 + 0.005 = 3.82 s, level 0 (0.95 × 1.5) 0.005 + 2 / 1.425 = 1.41 s, both ≥ 1 s.
        // The second pass accepts min(4 s segment, 4 s) of starvation: 3.82 < 1 + 4 → level 1.
        let starving = playerPolicyContext(content, buffer: 1, lastVariant: 0)
        #expect(policy(lastLoaded: 0, bitsPerSecond: 1_500_000).decide(starving) == .variant(1))
        // With maxStarvationDelay 2: 3.82 ≥ 3, but level 0's 1.41 < 3 → level 0.
        var configuration = HlsJsPolicy.Configuration()
        configuration.maxStarvationDelay = 2
        #expect(
            policy(lastLoaded: 0, bitsPerSecond: 1_500_000, configuration: configuration).decide(starving)
                == .variant(0))
        // With 10 s of buffer the first pass already finds level 1 (3.82 < 10).
        let comfortable = playerPolicyContext(content, buffer: 10, lastVariant: 0)
        #expect(policy(lastLoaded: 0, bitsPerSecond: 1_500_000).decide(comfortable) == .variant(1))
    }

    @Test("the first hls.js level is the highest within the default estimate, raised to the lowest bitrate")
    func firstLevelIsTheHighestWithinTheDefaultEstimate() throws {
        // No playlist loaded yet, so every fetch time is 2 × 100 ms TTFB < 4 s: only the bitrate decides, with
        // factor 1 and the estimate raised to the lowest bitrate.
        let ladder = try Content.constantBitrate(ladderKbps: [300, 600, 1200], segmentSeconds: 4, segmentCount: 5)
        let first = playerPolicyContext(ladder, segment: 0, buffer: 0, lastVariant: nil, state: .loading)
        #expect(HlsJsPolicy().decide(first) == .variant(0))  // 500 kbit/s: 300 fits, 600 does not.
        var configuration = HlsJsPolicy.Configuration()
        configuration.defaultEstimate = 600_000
        #expect(HlsJsPolicy(configuration: configuration).decide(first) == .variant(1))  // 600 ≥ 600.
        let high = try Content.constantBitrate(ladderKbps: [800, 1600], segmentSeconds: 4, segmentCount: 5)
        let highFirst = playerPolicyContext(high, segment: 0, buffer: 0, lastVariant: nil, state: .loading)
        #expect(HlsJsPolicy().decide(highFirst) == .variant(0))  // max(500, 800) = 800 fits 800.
    }

    @Test("when every first fetch would be too slow hls.js starts at the playlist's start variant")
    func firstLevelFallsBackToTheStartVariant() throws {
        // maxStarvationDelay 0.1 s: even 0.2 s of TTFBs is too slow, so the playlist's first variant is used.
        let sizes = Array(repeating: [2e6, 4e6, 8e6], count: 3)
        let variants = [500_000.0, 1_000_000, 2_000_000].map { Variant(bitrateBps: $0) }
        let ladder = try Content(
            variants: variants, segmentDurations: [4, 4, 4], sizesBits: sizes, startVariantIndex: 2)
        var configuration = HlsJsPolicy.Configuration()
        configuration.maxStarvationDelay = 0.1
        let first = playerPolicyContext(ladder, segment: 0, buffer: 0, lastVariant: nil, state: .loading)
        #expect(HlsJsPolicy(configuration: configuration).decide(first) == .variant(2))
    }

    @Test("hls.js never chooses above the cap, at the start or with a 100 Mbit/s estimate")
    func neverPicksAboveTheCap() {
        let hls = policy(lastLoaded: 2, bitsPerSecond: 100_000_000)
        #expect(hls.decide(playerPolicyContext(content, buffer: 20, lastVariant: 2, maxVariant: 1)) == .variant(1))
        #expect(hls.decide(playerPolicyContext(content, buffer: 20, lastVariant: 2, maxVariant: 0)) == .variant(0))
        let fresh = HlsJsPolicy()
        let first = playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil, maxVariant: 0)
        #expect(fresh.decide(first) == .variant(0))
    }

    @Test("the hls.js emergency check keeps a hopeless level-1 download, having no lower level to search")
    func emergencyCheckWaitsForHalfASegmentAndNeverLeavesLevelOne() {
        // Level 1 loading at 100 kbit/s with 2 s of buffer: finishing takes 38 s, far beyond the buffer, but the
        // search for a lower level starts below level 1 and stops above level 0, so hls.js keeps going.
        let hls = policy(lastLoaded: 1, bitsPerSecond: 2_000_000)
        let progress = DownloadProgress(
            segment: 1, variant: 1, totalBits: 4_000_000, receivedBits: 210_000, requestTime: 4, firstByteTime: 4,
            time: 6.1)
        let context = playerPolicyContext(content, time: 6.1, segment: 2, buffer: 2, lastVariant: 1)
        #expect(hls.downloadProgress(progress, context: context) == .keepGoing)
    }

    @Test("the hls.js emergency switch-down forces the lower level at once and aborts only after its fetch time")
    func emergencySwitchDownWaitsForTheNewLevelsDelayWhenThatIsWorthIt() {
        // Level 2 loading a 10 Mbit segment (segment 1) at 1.2 Mbit/s, 5 s buffered, estimate 4 Mbit/s, TTFB 5 ms.
        // At 6.1 s (2.1 s old > 2 s): 2.52 Mbit in, 7.48 / 1.2 = 6.23 s to finish > 5 s. Level 1 (playlist not
        // loaded) would take 0.005 + 4 / 1.2 + 0.005 = 3.343 s < min(5, 4.005): target 1. 6.23 ≤ 2 × 3.343, so the
        // abort waits 3.343 s, until 9.443 s; meanwhile level 1 is forced for the next request.
        let hls = policy(lastLoaded: 2, bitsPerSecond: 4_000_000)
        func check(at time: Double, buffer: Double) -> ProgressDecision {
            let progress = DownloadProgress(
                segment: 1, variant: 2, totalBits: 10_000_000, receivedBits: 1_200_000 * (time - 4), requestTime: 4,
                firstByteTime: 4, time: time)
            let context = playerPolicyContext(content, time: time, segment: 2, buffer: buffer, lastVariant: 2)
            return hls.downloadProgress(progress, context: context)
        }
        #expect(check(at: 6.0, buffer: 5.1) == .keepGoing)  // 2.0 s old: not yet half a segment.
        #expect(check(at: 6.1, buffer: 5) == .keepGoing)
        #expect(
            hls.decide(playerPolicyContext(content, time: 6.1, segment: 2, buffer: 5, lastVariant: 2)) == .variant(1))
        #expect(check(at: 9.4, buffer: 1.7) == .keepGoing)
        // At the deadline hls.js aborts and re-requests at findBestLevel(500 kbit/s, …) = the lowest level, with the
        // estimator reset to 500 kbit/s.
        #expect(check(at: 9.5, buffer: 1.6) == .abandon(switchTo: 0))
        #expect(hls.bandwidthEstimate == 500_000)
        #expect(
            hls.decide(playerPolicyContext(content, time: 9.5, segment: 2, buffer: 1.6, lastVariant: 0)) == .variant(0))
    }

    @Test(
        "on a collapsing link hls.js aborts one download at the hand-computed time and refetches at level 0, no stall")
    func emergencySwitchDownAbortsOnACollapsingLink() throws {
        // 20 Mbit/s until 10 s, then 1 Mbit/s; 50 ms latency; ladder 250/500/1000/4000 kbit/s, 4 s segments;
        // buffer target 8 s; playback starts with the first segment (no waiting).
        // Segment 0: first level = highest ≤ 500 kbit/s → 1 (2 Mbit, done 0.15 s). Then level 3 (16 Mbit, 0.85 s
        // each): requests at 0.15, 1.0, then whenever the buffer drains to 8 s: 4.15, 8.15, 12.15 (link already
        // at 1 Mbit/s). Checks run every 0.1 s from the first byte (12.2 s); the rule waits until the request is
        // older than 4 / 2 = 2 s: at 14.2 (2.05 s old). Then 2 Mbit are in: 14 s to finish > 8 − 2.05 = 5.95 s of
        // buffer. Level 2 would take 0.05 + 4 + 0.05 = 4.1 s ≥ min(5.95, 4.05); level 1 takes 0.05 + 2 = 2.05 s
        // → target 1; 14 > 2 × 2.05 → abort now, re-requesting at findBestLevel(250 kbit/s) = level 0 (1 Mbit).
        let curve = try CapacityCurve(
            starts: [0, 10], ratesBps: [20_000_000, 1_000_000], duration: 1000, latencySeconds: [0.05, 0.05])
        let ladder = try Content.constantBitrate(
            ladderKbps: [250, 500, 1000, 4000], segmentSeconds: 4, segmentCount: 8)
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = 8
        settings.automaticallyWaitsToMinimizeStalling = false
        let player = PlayerConfiguration(
            id: "main", content: ladder, policy: HlsJsPolicy(), policyLabel: "hlsjs", settings: settings,
            estimator: DualEWMAEstimator.hlsjs)
        let result = Simulation(curve: curve, players: [player]).run()
        let records = result.segments[0]
        #expect(Array(records.prefix(5).map(\.variant)) == [1, 3, 3, 3, 3])
        let requestTimes = records.prefix(5).map(\.requestTime)
        let expectedTimes = [0, 0.15, 1.0, 4.15, 8.15]
        #expect(zip(requestTimes, expectedTimes).allSatisfy { abs($0 - $1) < 1e-9 })
        let abandoned = records.filter(\.abandoned)
        #expect(abandoned.count == 1)
        let aborted = try #require(abandoned.first)
        #expect(aborted.segment == 5 && aborted.variant == 3)
        #expect(abs(aborted.requestTime - 12.15) < 1e-9)
        #expect(abs(aborted.doneTime - 14.2) < 1e-9)
        let index = try #require(records.firstIndex { $0.abandoned })
        let retry = records[index + 1]
        #expect(retry.segment == 5 && retry.variant == 0 && !retry.abandoned)
        // 1 Mbit at 1 Mbit/s after 50 ms: done at 15.25 with 8 − 3.1 + 4 = 8.9 s buffered; no stall at all.
        #expect(abs(retry.doneTime - 15.25) < 1e-9)
        #expect(result.totals[0].stallCount == 0)
    }

    @Test("emergencySwitchDown=off removes the hls.js progress checks, which are 0.1 s apart by default")
    func emergencySwitchDownCanBeTurnedOff() throws {
        let policy = try PolicyRegistry.builtIn.makePolicy(
            PolicySpec.parse("hlsjs(emergencySwitchDown=off,bandwidthUpFactor=0.8)"),
            environment: PolicyEnvironment(seed: 0, playerIndex: 0))
        #expect(policy.progressCheckInterval == nil)
        #expect((policy as? HlsJsPolicy)?.configuration.bandwidthUpFactor == 0.8)
        #expect(HlsJsPolicy().progressCheckInterval == 0.1)
    }

    @Test("hls.js on a 10 Mbit/s link starts low, then plays every segment at the top without stalls or abandons")
    func steadyLinkWellAboveTheTopRungPlaysWithoutStallsAndClimbsToTheTop() throws {
        // 10 Mbit/s: 0.7 × 10 = 7 Mbit/s ≥ 4000 kbit/s once the first segment has been measured.
        let result = try runPlayerPolicyOnConstantLink(
            "hlsjs", rateBps: 10_000_000, ladderKbps: [500, 1000, 2000, 4000], segments: 20)
        let variants = result.segments[0].map(\.variant)
        #expect(result.totals[0].stallCount == 0)
        #expect(variants.first == 0)
        #expect(variants.dropFirst().allSatisfy { $0 == 3 })
        #expect(result.segments[0].allSatisfy { !$0.abandoned })
    }
}
