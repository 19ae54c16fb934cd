import Foundation
import Testing

@testable import ABRSim

/// MPC and RobustMPC: hand-computed plans, and the pruned search against exhaustive search.
@Suite("the MPC and RobustMPC policies")
struct MPCPolicyTests {
    /// Two variants, 1000 and 2000 kbit/s, 4 s segments: 0.5 MB and 1 MB per segment.
    static let twoVariants = try! Content.constantBitrate(
        ladderKbps: [1000, 2000], segmentSeconds: 4, segmentCount: 10)

    /// A sample of `megabytes` that took `seconds` from request to last byte (no latency).
    static func sample(megabytes: Double, seconds: Double) -> ThroughputSample {
        ThroughputSample(bits: megabytes * 8_000_000, requestTime: 0, firstByteTime: 0, doneTime: seconds)
    }

    static func context(
        _ content: Content, segment: Int = 1, buffer: Double, last: Int? = 0, maxVariant: Int? = nil
    ) -> ABRContext {
        ABRContext(
            time: 0, segmentIndex: segment, content: content, bufferSeconds: buffer, bufferTargetSeconds: 60,
            playbackState: .playing, playbackRate: 1, lastVariant: last,
            maxVariant: maxVariant ?? content.variantCount - 1, startVariant: 0, history: ThroughputHistory(),
            isAfterSeek: false)
    }

    static func choice(_ policy: MPCPolicy, _ context: ABRContext) -> Int {
        guard case .variant(let v) = policy.decide(context) else { return -1 }
        return v
    }

    static func feed(_ policy: MPCPolicy, _ samples: [ThroughputSample], content: Content = twoVariants) {
        for sample in samples { policy.downloadFinished(sample, context: context(content, buffer: 0)) }
    }

    // Horizon 2, prediction 1 MB/s: downloads 0.5 s (low) and 1 s (high); last variant low (1000 kbit/s).
    // Scores: (0,0) = 2 − 4.3·r, (0,1) = 3 − 4.3·r − 1 = 2 − 4.3·r, (1,0) = 3 − 2 − 4.3·r = 1 − 4.3·r,
    // (1,1) = 4 − 1 − 4.3·r = 3 − 4.3·r. From buffer b ∈ [0.5, 1]: (1,1) rebuffers 1 − b, the others nothing, so
    // (1,1) wins when 4.3·(1 − b) < 1, i.e. b > 1 − 1/4.3 ≈ 0.7674.
    @Test("plain MPC switches up at the buffer where the hand-computed scores cross, about 0.767 s")
    func plainMPCSwitchesUpWhereTheHandComputedScoresCross() {
        for (buffer, expected) in [(0.0, 0), (0.7, 0), (0.76, 0), (0.77, 1), (0.8, 1), (1.0, 1), (5.0, 1)] {
            let policy = MPCPolicy(robust: false, horizon: 2)
            Self.feed(policy, [Self.sample(megabytes: 1, seconds: 1)])
            #expect(policy.predictionMBps == 1)
            #expect(Self.choice(policy, Self.context(Self.twoVariants, buffer: buffer)) == expected, "buffer \(buffer)")
        }
    }

    // Samples 1 MB/s then 2 MB/s: harmonic mean 1/((1 + 0.5)/2) = 4/3; the second sample's error against the first
    // harmonic mean (1) is |1 − 2|/2 = 0.5, so RobustMPC predicts (4/3)/1.5 = 8/9 MB/s. From b = 0.8:
    // plain MPC: high takes 0.75 s, no rebuffer, (1,1) = 3 > 2 → 1. Robust: high takes 1.125 s, rebuffers 0.325 s,
    // (1,1) = 3 − 1.3975 = 1.6025 < (0,·) = 2 → 0.
    @Test(
        "the RobustMPC policy divides its harmonic-mean prediction by one plus the largest recent error and so stays low"
    )
    func robustMPCDiscountsByTheLargestRecentError() {
        let samples = [Self.sample(megabytes: 1, seconds: 1), Self.sample(megabytes: 1, seconds: 0.5)]
        let plain = MPCPolicy(robust: false, horizon: 2)
        let robust = MPCPolicy(robust: true, horizon: 2)
        Self.feed(plain, samples)
        Self.feed(robust, samples)
        #expect(abs(plain.predictionMBps! - 4.0 / 3) < 1e-15)
        #expect(abs(robust.predictionMBps! - 8.0 / 9) < 1e-15)
        #expect(Self.choice(plain, Self.context(Self.twoVariants, buffer: 0.8)) == 1)
        #expect(Self.choice(robust, Self.context(Self.twoVariants, buffer: 0.8)) == 0)
    }

    @Test("the RobustMPC policy forgets prediction errors older than its window")
    func errorsOlderThanTheWindowAreForgotten() {
        // window 2: samples 1, 2, 2, 2 MB/s. Errors: 0, |1 − 2|/2 = 0.5, |4/3 − 2|/2 = 1/3, |2 − 2|/2 = 0.
        // The last two errors (1/3, 0) remain: prediction = 2 / (1 + 1/3) = 1.5.
        let policy = MPCPolicy(robust: true, horizon: 2, window: 2)
        Self.feed(policy, [1, 0.5, 0.5, 0.5].map { Self.sample(megabytes: 1, seconds: $0) })
        #expect(abs(policy.predictionMBps! - 1.5) < 1e-15)
    }

    @Test("the MPC policy's total timing counts the latency in a sample's rate and download timing leaves it out")
    func timingTotalAddsTheLatencyAndDownloadLeavesItOut() {
        // 1 MB: 0.5 s of latency, then 0.5 s of transfer → 1 MB/s total, 2 MB/s download.
        let sample = ThroughputSample(bits: 8_000_000, requestTime: 10, firstByteTime: 10.5, doneTime: 11)
        #expect(MPCPolicy(robust: false, timing: .includingLatency).megabytesPerSecond(sample) == 1)
        #expect(MPCPolicy(robust: false, timing: .excludingLatency).megabytesPerSecond(sample) == 2)
    }

    @Test("an exact tie between MPC plans goes to the last in lexicographic order, the highest allowed rung")
    func exactTiesGoToTheSequenceLastInLexicographicOrder() {
        // Horizon 1, ample buffer, last variant 0 (1000 kbit/s). Score of v: R_v/1000 − (R_v − 1000)/1000 = 1 for
        // every v (exactly, with these binary-exact values): the last sequence, the highest allowed variant, wins.
        let content = try! Content.constantBitrate(ladderKbps: [1000, 2000, 3000], segmentSeconds: 4, segmentCount: 4)
        for cap in 0...2 {
            let policy = MPCPolicy(robust: false, horizon: 1)
            Self.feed(policy, [Self.sample(megabytes: 1, seconds: 0.25)], content: content)
            #expect(Self.choice(policy, Self.context(content, buffer: 30, maxVariant: cap)) == cap)
        }
    }

    @Test("with a planning offset of 1 MPC plans with the sizes of the segment after the one requested")
    func planningSizeOffsetReadsTheSegmentAhead() throws {
        // Segment 1 is small at both variants; segment 2's high variant is 40 MB. Horizon 1, 1 MB/s, buffer 4 s.
        // Offset 0 plans segment 1: high (0.5 MB, no rebuffer) scores 2 − 1 = 1 = low's 1 → tie → high.
        // Offset 1 plans segment 2: high takes 40 s, rebuffers 36 s → low.
        let sizes: [[Double]] = [[4e6, 4e6], [4e6, 4e6], [4e6, 320e6], [4e6, 4e6]]
        let content = try Content(
            variants: [Variant(bitrateBps: 1e6), Variant(bitrateBps: 2e6)], segmentDurations: [4, 4, 4, 4],
            sizesBits: sizes)
        for (offset, expected) in [(0, 1), (1, 0)] {
            let policy = MPCPolicy(robust: false, horizon: 1, planningSizeOffset: offset)
            Self.feed(policy, [Self.sample(megabytes: 1, seconds: 1)], content: content)
            #expect(Self.choice(policy, Self.context(content, segment: 1, buffer: 4)) == expected, "offset \(offset)")
        }
    }

    @Test("before any sample MPC fetches the start variant, within the cap")
    func fetchesTheStartVariantBeforeAnySample() {
        let policy = MPCPolicy(robust: true)
        var context = Self.context(Self.twoVariants, segment: 0, buffer: 0, last: nil)
        context.startVariant = 1
        #expect(Self.choice(policy, context) == 1)
        context.maxVariant = 0
        #expect(Self.choice(policy, context) == 0)
    }

    @Test("the registry builds robust-mpc and mpc with their parameters, and refuses a horizon of 0")
    func registryBuildsBothWithParameters() throws {
        let environment = PolicyEnvironment(seed: 0, playerIndex: 0)
        let spec = try PolicySpec.parse("robust-mpc(horizon=3,timing=download,planningSizeOffset=1)")
        let robust = try #require(try PolicyRegistry.builtIn.makePolicy(spec, environment: environment) as? MPCPolicy)
        #expect(
            robust.isRobust && robust.horizon == 3 && robust.timing == .excludingLatency
                && robust.planningSizeOffset == 1)
        let plain = try PolicyRegistry.builtIn.makePolicy(try PolicySpec.parse("mpc"), environment: environment)
        #expect((plain as? MPCPolicy)?.isRobust == false)
        #expect(throws: InputError.self) {
            try PolicyRegistry.builtIn.makePolicy(try PolicySpec.parse("mpc(horizon=0)"), environment: environment)
        }
    }
}

/// The pruned search against exhaustive search, and the whole policy against an independent transcription of
/// mpc.py, on random problems (many built from binary-exact numbers so that exact ties are common).
@Suite("the pruned MPC search")
struct MPCSearchTests {
    /// A random planning problem; `exact` draws quarter-second downloads and round bitrates so ties abound.
    static func randomProblem(_ random: RandomSource, _ planner: MPCPlanner, choices: Int, horizon: Int) {
        let exact = random.uniform() < 0.5
        planner.reset(horizon: horizon, choices: choices)
        var bitrate = 0.0
        planner.bitratesKbps = (0..<choices).map { _ in
            bitrate += exact ? Double(1 + random.integer(below: 4)) * 500 : 100 + random.uniform() * 2000
            return bitrate
        }
        for position in 0..<horizon {
            planner.segmentSeconds[position] = exact ? 4 : 1 + random.uniform() * 5
            for variant in 0..<choices {
                // Roughly increasing with the variant, but not always (real variable sizes are not monotone).
                let base = Double(variant + 1) * (exact ? 0.5 : 0.3 + random.uniform())
                planner.downloadSeconds[position * choices + variant] =
                    exact ? Double(random.integer(below: 12)) * 0.25 * base : base * random.uniform() * 4
            }
        }
        planner.startBuffer = exact ? Double(random.integer(below: 24)) * 0.5 : random.uniform() * 15
        planner.lastVariant = random.uniform() < 0.1 ? nil : random.integer(below: choices)
        planner.rebufferPenalty = random.uniform() < 0.7 ? 4.3 : Double(random.integer(below: 10))
        planner.smoothnessPenalty = random.uniform() < 0.7 ? 1 : Double(random.integer(below: 3))
    }

    @Test("the pruned MPC search chooses what exhaustive search chooses on 2000 random problems")
    func prunedSearchEqualsExhaustiveSearchOnRandomProblems() {
        let random = RandomSource(seed: 20_150_817)
        let planner = MPCPlanner()
        for trial in 0..<2_000 {
            Self.randomProblem(
                random, planner, choices: 1 + random.integer(below: 6), horizon: 1 + random.integer(below: 5))
            #expect(planner.firstChoice() == planner.bruteForceFirstChoice(), "trial \(trial)")
        }
    }

    @Test("the pruned MPC search chooses what exhaustive search chooses on 150 problems of 6 rungs and horizon 5")
    func prunedSearchEqualsExhaustiveSearchAtPensievesSize() {
        let random = RandomSource(seed: 2017)
        let planner = MPCPlanner()
        for trial in 0..<150 {
            Self.randomProblem(random, planner, choices: 6, horizon: 5)
            #expect(planner.firstChoice() == planner.bruteForceFirstChoice(), "trial \(trial)")
        }
    }

    /// The long check (issue 8: at least 10,000 decisions in all): 20,000 problems at Pensieve's size. About 2 minutes
    /// in a debug build, so only with ABRSIM_FULL_REFERENCE=1.
    @Test(
        "the pruned MPC search chooses what exhaustive search chooses on 20,000 problems of Pensieve's size",
        .enabled(if: ProcessInfo.processInfo.environment["ABRSIM_FULL_REFERENCE"] == "1"))
    func prunedSearchEqualsExhaustiveSearchOnTwentyThousandProblems() {
        let random = RandomSource(seed: 1_000_000_007)
        let planner = MPCPlanner()
        for trial in 0..<20_000 {
            Self.randomProblem(random, planner, choices: 6, horizon: 5)
            #expect(planner.firstChoice() == planner.bruteForceFirstChoice(), "trial \(trial)")
        }
    }

    /// mpc.py's decision, transcribed independently of ``MPCPolicy``: prediction from the samples' MB/s, every
    /// sequence in lexicographic order, `>=` keeps the last best.
    static func referenceChoice(
        _ context: ABRContext, ratesMBps: [Double], robust: Bool, horizon: Int, window: Int, offset: Int
    ) -> Int {
        var errors: [Double] = []
        var held: [Double] = []
        var harmonic = 0.0
        for (index, rate) in ratesMBps.enumerated() {
            errors.append(index == 0 ? 0 : abs(harmonic - rate) / rate)
            held.append(rate)
            var sum = 0.0
            for value in held.suffix(window) { sum += 1 / value }
            harmonic = 1 / (sum / Double(held.suffix(window).count))
        }
        let prediction = robust ? harmonic / (1 + errors.suffix(window).max()!) : harmonic
        let content = context.content
        let length = min(horizon, content.segmentCount - context.segmentIndex - offset)
        let choices = context.maxVariant + 1
        let kbps = content.variants.map { $0.bitrateBps / 1000 }
        var best = -Double.infinity
        var chosen = -1
        var total = 1
        for _ in 0..<length { total *= choices }
        for code in 0..<total {
            var digits: [Int] = []
            var rest = code
            for _ in 0..<length {
                digits.insert(rest % choices, at: 0)
                rest /= choices
            }
            var buffer = context.bufferSeconds
            var rebuffer = 0.0
            var bitrateSum = 0.0
            var changes = 0.0
            var last = context.lastVariant!
            for (position, variant) in digits.enumerated() {
                let row = context.segmentIndex + offset + position
                let download = content.sizeBytes(segment: row, variant: variant) / 1_000_000 / prediction
                if buffer < download {
                    rebuffer += download - buffer
                    buffer = 0
                } else {
                    buffer -= download
                }
                buffer += content.segmentDurations[row]
                bitrateSum += kbps[variant]
                changes += abs(kbps[variant] - kbps[last])
                last = variant
            }
            let score = bitrateSum / 1000 - 4.3 * rebuffer - changes / 1000
            if score >= best {
                best = score
                chosen = digits[0]
            }
        }
        return chosen
    }

    @Test("both MPC policies choose as an independent transcription of mpc.py on 300 random problems, within the cap")
    func policyEqualsAnIndependentTranscriptionOfMpcPy() throws {
        let random = RandomSource(seed: 31_337)
        let ladder = [300.0, 750, 1200, 1850, 2850, 4300].map { Variant(bitrateBps: $0 * 1000) }
        for trial in 0..<300 {
            let segmentCount = 3 + random.integer(below: 10)
            let sizes = (0..<segmentCount).map { _ in
                ladder.map { ($0.bitrateBps * 4 * (0.6 + 0.8 * random.uniform())).rounded() }
            }
            let durations = (0..<segmentCount).map { _ in random.uniform() < 0.8 ? 4.0 : 1 + random.uniform() * 5 }
            let content = try Content(variants: ladder, segmentDurations: durations, sizesBits: sizes)
            let robust = random.uniform() < 0.6
            let offset = random.integer(below: 2)
            let horizon = 1 + random.integer(below: 5)
            let window = 1 + random.integer(below: 6)
            let policy = MPCPolicy(robust: robust, horizon: horizon, window: window, planningSizeOffset: offset)
            var rates: [Double] = []
            for _ in 0..<(1 + random.integer(below: 8)) {
                let bytes = (1e5 + random.uniform() * 2e6).rounded()
                let seconds = 0.05 + random.uniform() * 4
                let sample = ThroughputSample(bits: bytes * 8, requestTime: 0, firstByteTime: 0, doneTime: seconds)
                rates.append(bytes / (seconds * 1000) / 1000)
                policy.downloadFinished(sample, context: MPCPolicyTests.context(content, buffer: 0))
            }
            var context = MPCPolicyTests.context(
                content, segment: random.integer(below: segmentCount - offset), buffer: random.uniform() * 20,
                last: random.integer(below: 6), maxVariant: random.integer(below: 6))
            context.segmentIndex = min(context.segmentIndex, segmentCount - 1 - offset)
            let expected = Self.referenceChoice(
                context, ratesMBps: rates, robust: robust, horizon: horizon, window: window, offset: offset)
            let chosen = MPCPolicyTests.choice(policy, context)
            #expect(chosen == expected, "trial \(trial)")
            #expect(chosen <= context.maxVariant)
        }
    }
}
