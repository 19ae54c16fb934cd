import Testing

@testable import ABRSim

/// Shaka's SimpleAbrManager: highest variant with rate·b ≤ 0.95 × estimate, at most one choice per 8 s, and the
/// first choice after a good estimate right away. Ladder 500/1000/2000 kbit/s.
@Suite("the Shaka policy")
struct ShakaPolicyTests {
    let content = try! Content.constantBitrate(ladderKbps: [500, 1000, 2000], segmentSeconds: 4, segmentCount: 20)

    /// One download of `bits` over `seconds` (latency included) ending at `time`.
    func finish(_ policy: ShakaPolicy, bits: Double, seconds: Double, at time: Double, variant: Int) {
        let sample = ThroughputSample(
            bits: bits, requestTime: time - seconds, firstByteTime: time - seconds, doneTime: time)
        policy.downloadFinished(
            sample, context: playerPolicyContext(content, time: time, buffer: 8, lastVariant: variant))
    }

    func choice(_ policy: ShakaPolicy, at time: Double, lastVariant: Int?, maxVariant: Int? = nil) -> ABRDecision {
        policy.decide(
            playerPolicyContext(content, time: time, buffer: 8, lastVariant: lastVariant, maxVariant: maxVariant))
    }

    @Test("the Shaka policy picks the top rung whose bitrate × rate fits 0.95 of the estimate, or the lowest in a gap")
    func bandRuleIsTheHighestVariantWithinNinetyFivePercent() {
        let defaults = ShakaPolicy.Configuration()
        func pick(_ estimate: Double, rate: Double = 1, _ configuration: ShakaPolicy.Configuration = defaults) -> Int {
            ShakaPolicy.variant(
                forEstimate: estimate, rate: rate, content: content, maxVariant: 2, configuration: configuration)
        }
        #expect(pick(2_110_000) == 2)  // 0.95 × 2.11 = 2.0045 Mbit/s ≥ 2
        #expect(pick(2_100_000) == 1)  // 1.995 < 2
        #expect(pick(1_000_000) == 0)  // 0.95 < 1: the lowest
        #expect(pick(2_110_000, rate: 2) == 1)  // 2 × 1000 / 0.95 = 2.105 ≤ 2.11 < 2 × 2000 / 0.95
        // An upgrade target above the downgrade target opens gaps: at 2.05 Mbit/s, 1 needs ≤ 2000 / 0.99 = 2.0202
        // and 2 needs ≥ 2000 / 0.95 = 2.105, so no band holds it and the lowest is chosen.
        var gapped = defaults
        gapped.upgradeTarget = 0.99
        #expect(pick(2_050_000, gapped) == 0)
        #expect(pick(2_000_000, gapped) == 1)
    }

    @Test("the Shaka policy switches at once on its first good estimate, then at most once every 8 s")
    func firstGoodEstimateSwitchesAtOnceThenEightSecondsApart() {
        let shaka = ShakaPolicy()
        // t = 0: default 1 Mbit/s → 0.95 < 1 → 0.
        #expect(choice(shaka, at: 0, lastVariant: nil) == .variant(0))
        // t = 3: 2.2 Mbit in 1 s (275 kB ≥ 128 kB): good at last, lastTimeChosen moves back 8 s → switch now to 2.
        finish(shaka, bits: 2_200_000, seconds: 1, at: 3, variant: 0)
        #expect(abs(shaka.bandwidthEstimate - 2_200_000) < 1e-6)
        #expect(choice(shaka, at: 3, lastVariant: 0) == .variant(2))
        // t = 10.9: 5 Mbit in 10 s drags the estimate under min(fast) ≈ 0.52 Mbit/s, but only 7.9 s have passed.
        finish(shaka, bits: 5_000_000, seconds: 10, at: 10.9, variant: 2)
        #expect(shaka.bandwidthEstimate < 1_000_000)
        #expect(choice(shaka, at: 10.9, lastVariant: 2) == .variant(2))
        // t = 11: 8 s after the last choice, the next download may switch: down to 0.
        finish(shaka, bits: 20_000, seconds: 0.2, at: 11, variant: 2)
        #expect(choice(shaka, at: 11, lastVariant: 2) == .variant(0))
    }

    @Test("the Shaka policy keeps its default estimate and first rung until 128 kB of samples of at least 16 kB arrive")
    func noSwitchBeforeTheEstimateIsGood() {
        let shaka = ShakaPolicy()
        #expect(choice(shaka, at: 0, lastVariant: nil) == .variant(0))
        // 100 kB at 8 Mbit/s: sampled (≥ 16 kB) but under 128 kB in total, so still the default and no switch.
        finish(shaka, bits: 800_000, seconds: 0.1, at: 50, variant: 0)
        #expect(shaka.bandwidthEstimate == 1_000_000)
        #expect(choice(shaka, at: 50, lastVariant: 0) == .variant(0))
        // A 10 kB download is below the 16 kB minimum and is not sampled: still not good.
        finish(shaka, bits: 80_000, seconds: 0.01, at: 51, variant: 0)
        #expect(choice(shaka, at: 51, lastVariant: 0) == .variant(0))
        // Another 100 kB: 200 kB sampled → good → switch at once (8 Mbit/s → 2).
        finish(shaka, bits: 800_000, seconds: 0.1, at: 52, variant: 0)
        #expect(choice(shaka, at: 52, lastVariant: 0) == .variant(2))
    }

    @Test("a minTimeToSwitch of 5 s delays Shaka's first switch until 8 s after its shifted last choice")
    func minTimeToSwitchDelaysTheFirstSwitch() {
        var configuration = ShakaPolicy.Configuration()
        configuration.minTimeToSwitch = 5
        let shaka = ShakaPolicy(configuration: configuration)
        _ = choice(shaka, at: 0, lastVariant: nil)
        // Good at t = 3: lastTimeChosen = 0 − (8 − 5) = −3; 3 − (−3) = 6 < 8 → no switch.
        finish(shaka, bits: 2_200_000, seconds: 1, at: 3, variant: 0)
        #expect(choice(shaka, at: 3, lastVariant: 0) == .variant(0))
        // t = 5: 5 − (−3) = 8 → switch.
        finish(shaka, bits: 2_200_000, seconds: 1, at: 5, variant: 0)
        #expect(choice(shaka, at: 5, lastVariant: 0) == .variant(2))
    }

    @Test(
        "the Shaka policy never chooses above the cap, redoing its choice when a cap arrives within the switch interval"
    )
    func neverPicksAboveTheCap() {
        let shaka = ShakaPolicy()
        _ = choice(shaka, at: 0, lastVariant: nil)
        finish(shaka, bits: 100_000_000, seconds: 1, at: 1, variant: 0)
        #expect(choice(shaka, at: 1, lastVariant: 0) == .variant(2))
        // A cap of 1 arrives within the switch interval: the choice is redone among the allowed variants.
        #expect(choice(shaka, at: 2, lastVariant: 2, maxVariant: 1) == .variant(1))
        var configuration = ShakaPolicy.Configuration()
        configuration.defaultBandwidthEstimate = 1e9
        #expect(
            choice(ShakaPolicy(configuration: configuration), at: 0, lastVariant: nil, maxVariant: 0) == .variant(0))
    }

    @Test("the registry builds shaka with its switch interval and default estimate set by name")
    func parametersAreSettableByName() throws {
        let policy = try PolicyRegistry.builtIn.makePolicy(
            PolicySpec.parse("shaka(switchInterval=4,defaultBandwidthEstimate=2200000)"),
            environment: PolicyEnvironment(seed: 0, playerIndex: 0))
        let shaka = try #require(policy as? ShakaPolicy)
        #expect(shaka.configuration.switchInterval == 4)
        #expect(choice(shaka, at: 0, lastVariant: nil) == .variant(2))  // 0.95 × 2.2 ≥ 2
    }

    @Test("the Shaka policy on a 10 Mbit/s link starts low, then plays every segment at the top without stalls")
    func steadyLinkWellAboveTheTopRungPlaysWithoutStallsAndClimbsToTheTop() throws {
        // 10 Mbit/s: 0.95 × 10 ≥ 4000 kbit/s. The first segment (2 Mbit = 250 kB) makes the estimate good.
        let result = try runPlayerPolicyOnConstantLink(
            "shaka", rateBps: 10_000_000, ladderKbps: [500, 1000, 2000, 4000], segments: 20)
        let variants = result.segments[0].map(\.variant)
        #expect(result.totals[0].stallCount == 0)
        #expect(variants.first == 0)
        #expect(variants.dropFirst().allSatisfy { $0 == 3 })
    }
}
