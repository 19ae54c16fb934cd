import Testing

@testable import ABRSim

/// A decision context for the real-player policy tests: `segment` is the index about to be requested.
func playerPolicyContext(
    _ content: Content, time: Double = 0, segment: Int = 1, buffer: Double, lastVariant: Int?,
    maxVariant: Int? = nil, rate: Double = 1, state: PlaybackState = .playing,
    history: ThroughputHistory = ThroughputHistory()
) -> ABRContext {
    ABRContext(
        time: time, segmentIndex: segment, content: content, bufferSeconds: buffer, bufferTargetSeconds: 30,
        playbackState: state, playbackRate: rate, lastVariant: lastVariant,
        maxVariant: maxVariant ?? content.variantCount - 1, startVariant: content.startVariantIndex,
        history: history, isAfterSeek: false)
}

/// Runs one player with the built-in policy `spec` on a constant link with no latency and returns the result.
func runPlayerPolicyOnConstantLink(
    _ spec: String, rateBps: Double, ladderKbps: [Double], segments: Int, target: Double = 30
) throws -> SimulationResult {
    let curve = try CapacityCurve(starts: [0], ratesBps: [rateBps], duration: 10_000)
    let content = try Content.constantBitrate(ladderKbps: ladderKbps, segmentSeconds: 4, segmentCount: segments)
    var settings = PlayerSettings()
    settings.preferredForwardBufferDuration = target
    let policy = try PolicyRegistry.builtIn.makePolicy(
        PolicySpec.parse(spec), environment: PolicyEnvironment(seed: 1, playerIndex: 0))
    let player = PlayerConfiguration(
        id: "main", content: content, policy: policy, policyLabel: spec, settings: settings,
        estimator: DualEWMAEstimator.hlsjs)
    return Simulation(curve: curve, players: [player]).run()
}

/// ExoPlayer's AdaptiveTrackSelection: 0.7 of the weighted-median estimate, up only with ≥ 10 s of buffer, down
/// deferred with ≥ 25 s. Ladder 500/1000/1500/3000 kbit/s, 4 s segments.
@Suite("the ExoPlayer policy")
struct ExoPlayerPolicyTests {
    let content = try! Content.constantBitrate(
        ladderKbps: [500, 1000, 1500, 3000], segmentSeconds: 4, segmentCount: 20)

    /// 8 Mbit in 4 s of transfer: 2 Mbit/s. 1 MB ≥ 512 KiB, so the meter publishes its median at once.
    let twoMegabits = ThroughputSample(bits: 8_000_000, requestTime: 0, firstByteTime: 0, doneTime: 4)

    @Test("the first ExoPlayer choice is the highest rung within 0.7 of its initial bitrate")
    func initialBitrateDecidesTheFirstChoice() {
        // Default 1 Mbit/s × 0.7 = 700 kbit/s: 500 fits, 1000 does not.
        #expect(
            ExoPlayerPolicy().decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil))
                == .variant(0))
        // 2.2 Mbit/s × 0.7 = 1540 kbit/s ≥ 1500; 2.1 Mbit/s × 0.7 = 1470 < 1500.
        var configuration = ExoPlayerPolicy.Configuration()
        configuration.initialBitrate = 2_200_000
        let first = playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil)
        #expect(ExoPlayerPolicy(configuration: configuration).decide(first) == .variant(2))
        configuration.initialBitrate = 2_100_000
        #expect(ExoPlayerPolicy(configuration: configuration).decide(first) == .variant(1))
    }

    @Test("the ExoPlayer policy switches up only once 10 s are buffered")
    func switchingUpWaitsForTenSecondsOfBuffer() {
        let policy = ExoPlayerPolicy()
        #expect(policy.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil)) == .variant(0))
        policy.downloadFinished(twoMegabits, context: playerPolicyContext(content, buffer: 4, lastVariant: 0))
        #expect(policy.bandwidthEstimate == 2_000_000)
        // Ideal: 0.7 × 2 Mbit/s = 1400 kbit/s → variant 1, above the previous 0.
        #expect(policy.decide(playerPolicyContext(content, buffer: 9.9, lastVariant: 0)) == .variant(0))
        #expect(policy.decide(playerPolicyContext(content, buffer: 10, lastVariant: 0)) == .variant(1))
    }

    @Test("the ExoPlayer policy keeps a higher rung while 25 s or more are buffered and switches down below")
    func switchingDownIsDeferredFromTwentyFiveSecondsOfBuffer() {
        var configuration = ExoPlayerPolicy.Configuration()
        configuration.initialBitrate = 5_000_000  // 3.5 Mbit/s allocatable: the first choice is the top, 3000.
        let policy = ExoPlayerPolicy(configuration: configuration)
        #expect(policy.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil)) == .variant(3))
        policy.downloadFinished(twoMegabits, context: playerPolicyContext(content, buffer: 4, lastVariant: 3))
        // Ideal now 1 (1400 kbit/s), below the previous 3.
        #expect(policy.decide(playerPolicyContext(content, buffer: 25, lastVariant: 3)) == .variant(3))
        #expect(policy.decide(playerPolicyContext(content, buffer: 24.9, lastVariant: 3)) == .variant(1))
    }

    @Test("the ExoPlayer policy divides its allocatable bandwidth by the playback speed, counting a pause as speed 1")
    func playbackSpeedDividesTheAllocatableBandwidth() {
        let policy = ExoPlayerPolicy()
        _ = policy.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil))
        policy.downloadFinished(twoMegabits, context: playerPolicyContext(content, buffer: 4, lastVariant: 0))
        // 1400 kbit/s at rate 1 → 1; at rate 2, 700 kbit/s → 0 (buffer 15 s allows both directions).
        #expect(policy.decide(playerPolicyContext(content, buffer: 15, lastVariant: 0)) == .variant(1))
        #expect(policy.decide(playerPolicyContext(content, buffer: 15, lastVariant: 1, rate: 2)) == .variant(0))
        // Paused (rate 0) counts as speed 1.
        #expect(policy.decide(playerPolicyContext(content, buffer: 15, lastVariant: 0, rate: 0)) == .variant(1))
    }

    @Test("with time to first byte on ExoPlayer's averaged first-byte delay lowers its choice, and off it has none")
    func timeToFirstByteShortensTheLoadTimeWhenEnabled() {
        var configuration = ExoPlayerPolicy.Configuration()
        configuration.useTimeToFirstByte = true
        let policy = ExoPlayerPolicy(configuration: configuration)
        _ = policy.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil))
        // 2 Mbit/s after a 1 s TTFB: 1400 × (4 − 1) / 4 = 1050 kbit/s ≥ 1000 → 1.
        let slowStart = ThroughputSample(bits: 8_000_000, requestTime: 0, firstByteTime: 1, doneTime: 5)
        policy.downloadFinished(slowStart, context: playerPolicyContext(content, buffer: 4, lastVariant: 0))
        #expect(policy.timeToFirstByte == 1)
        #expect(policy.decide(playerPolicyContext(content, buffer: 15, lastVariant: 0)) == .variant(1))
        // A 2 s TTFB: estimate 0.15 × 2 + 0.85 × 1 = 1.15 s; 1400 × 2.85 / 4 = 997.5 kbit/s < 1000 → 0.
        let slower = ThroughputSample(bits: 8_000_000, requestTime: 10, firstByteTime: 12, doneTime: 16)
        policy.downloadFinished(slower, context: playerPolicyContext(content, buffer: 4, lastVariant: 1))
        #expect(abs(policy.timeToFirstByte! - 1.15) < 1e-12)
        #expect(policy.decide(playerPolicyContext(content, buffer: 15, lastVariant: 1)) == .variant(0))
        // Off (ExoPlayer's DefaultBandwidthMeter has no TTFB estimate): the same samples keep 1400 kbit/s → 1.
        let plain = ExoPlayerPolicy()
        _ = plain.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil))
        plain.downloadFinished(slowStart, context: playerPolicyContext(content, buffer: 4, lastVariant: 0))
        plain.downloadFinished(slower, context: playerPolicyContext(content, buffer: 4, lastVariant: 0))
        #expect(plain.timeToFirstByte == nil)
        #expect(plain.decide(playerPolicyContext(content, buffer: 15, lastVariant: 0)) == .variant(1))
    }

    @Test("the ExoPlayer policy never chooses above the cap, even from a higher previous rung with 30 s buffered")
    func neverPicksAboveTheCap() {
        var configuration = ExoPlayerPolicy.Configuration()
        configuration.initialBitrate = 1e9
        let policy = ExoPlayerPolicy(configuration: configuration)
        #expect(
            policy.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil, maxVariant: 1))
                == .variant(1))
        // The previous chunk at 3 is above a new cap of 1: even with 30 s buffered the choice drops to the cap.
        #expect(policy.decide(playerPolicyContext(content, buffer: 30, lastVariant: 3, maxVariant: 1)) == .variant(1))
        #expect(policy.decide(playerPolicyContext(content, buffer: 30, lastVariant: 1, maxVariant: 0)) == .variant(0))
    }

    @Test(
        "the registry builds exoplayer with its bandwidth fraction, initial bitrate and first-byte switch set by name")
    func parametersAreSettableByName() throws {
        let policy = try PolicyRegistry.builtIn.makePolicy(
            PolicySpec.parse("exoplayer(bandwidthFraction=0.5,initialBitrate=3000000,ttfb=on)"),
            environment: PolicyEnvironment(seed: 0, playerIndex: 0))
        let exo = try #require(policy as? ExoPlayerPolicy)
        #expect(exo.configuration.bandwidthFraction == 0.5)
        #expect(exo.configuration.useTimeToFirstByte)
        // 3 Mbit/s × 0.5 = 1500 kbit/s → variant 2.
        #expect(exo.decide(playerPolicyContext(content, segment: 0, buffer: 0, lastVariant: nil)) == .variant(2))
    }

    @Test("on a 10 Mbit/s link ExoPlayer never stalls, never steps down and plays its last 10 segments at the top")
    func steadyLinkWellAboveTheTopRungPlaysWithoutStallsAndClimbsToTheTop() throws {
        // 10 Mbit/s against a 4000 kbit/s top: 0.7 × 10 = 7 Mbit/s fits the top once the meter publishes.
        let result = try runPlayerPolicyOnConstantLink(
            "exoplayer", rateBps: 10_000_000, ladderKbps: [500, 1000, 2000, 4000], segments: 20)
        let variants = result.segments[0].map(\.variant)
        #expect(result.totals[0].stallCount == 0)
        #expect(zip(variants, variants.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(variants.suffix(10).allSatisfy { $0 == 3 })
    }
}
