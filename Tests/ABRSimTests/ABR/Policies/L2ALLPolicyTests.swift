import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// L2A-LL on the challenge's 3-rung ladder (200/600/1000 kbit/s), following `L2ARule.js`'s arithmetic by hand.
@Suite("L2A-LL's steps on a 200/600/1000 kbit/s ladder")
struct L2ALLPolicyTests {
    let kbps: [Double] = [200, 600, 1000]
    var bps: [Double] { kbps.map { $0 * 1000 } }
    // H = 4: VL = 4^0.99, α = max(4, 2·VL) = 2·VL.
    let vl = pow(4.0, 0.99)
    var alpha: Double { max(4, vl * 2) }

    func step(previous: [Double], q: Double, c: Double, current: Int, v: Double = 1) -> L2AStep {
        L2AStep(
            kbps: kbps, bps: bps, previous: previous, q: q, throughputKbps: c, segmentDuration: v, playbackRate: 1,
            current: current, vl: vl, alpha: alpha, react: 2)
    }

    @Test("from (0, 1, 0) at 800 kbit/s the descent is (0.125, 1.375, −0.625), the variant stays and Q = VL − 1 + 750")
    func theFirstSteadyStepKeepsTheVariantAndLoadsQ() {
        // w_prev = (0, 1, 0), Q = VL, c = 800 kbit/s, V = 1 s: V/(2α)·(Q + VL) = 2VL/(4VL) = 1/2.
        // w = (0 + ½·200/800, 1 + ½·600/800, 0 − ½·1000/800) = (0.125, 1.375, −0.625): the sign turns at 1000 > 800.
        // Projection: sorted (1.375, 0.125, −0.625), t = (1.375 − 1)/1 = 0.375 ≥ 0.125, so w = (0, 1, 0).
        // Q = max(0, VL − 1 + 1·(b·w + b·Δ)/c) = VL − 1 + 600 000/800 (bit/s over kbit/s, as dash.js).
        let s = step(previous: [0, 1, 0], q: vl, c: 800, current: 1)
        #expect(abs(s.descent[0] - 0.125) < 1e-12)
        #expect(abs(s.descent[1] - 1.375) < 1e-12)
        #expect(abs(s.descent[2] + 0.625) < 1e-12)
        #expect(s.weights == [0, 1, 0])
        #expect(abs(s.q - (vl - 1 + 750)) < 1e-9)
        #expect(s.closest == 1)
        #expect(s.choice == 1)
    }

    @Test("at 1500 kbit/s the weights project to (0, 0, 1), the top rung is chosen and Q gains 1 400 000/1500 − 1")
    func moreThroughputMovesTheWeightToTheTop() {
        // From Q = VL + 749, c = 1500: f = (Q + VL)/(2α) = (2VL + 749)/(4VL); w = (f·200/1500, 1 + f·600/1500,
        // f·1000/1500); the largest minus 1 exceeds the others, so w = (0, 0, 1). The choice (2) is above the current
        // variant (1), but b_2 = 10⁶ bit/s is not ≤ 1500 (dash.js compares bit/s with kbit/s), so no stepwise ascent.
        // Q = Q − 1 + (10⁶ + (10⁶ − 600 000))/1500.
        let q0 = vl + 749
        let f = (q0 + vl) / (2 * alpha)
        let s = step(previous: [0, 1, 0], q: q0, c: 1500, current: 1)
        #expect(abs(s.descent[0] - f * 200 / 1500) < 1e-9)
        #expect(abs(s.descent[1] - (1 + f * 600 / 1500)) < 1e-9)
        #expect(abs(s.descent[2] - f * 1000 / 1500) < 1e-9)
        #expect(s.weights == [0, 0, 1])
        #expect(s.choice == 2)
        #expect(abs(s.q - (q0 - 1 + 1_400_000.0 / 1500)) < 1e-9)
    }

    @Test("at 700 kbit/s on the 1000 kbit/s rung the rung stays and Q doubles to 2·max(VL, 937.8)")
    func overEstimationReactsOnQ() {
        // c = 700 kbit/s from w_prev = (0, 0, 1), Q = 0: f = VL/(2α) = 1/4; w = (0.25·200/700, 0.25·600/700,
        // 1 − 0.25·1000/700) = (0.0714, 0.2143, 0.6429), sum 0.9286: t = (0.9286 − 1)/3 < 0 for all, so each gains
        // 0.0238: (0.0952, 0.2381, 0.6667). b·w = 0.0952·2e5 + 0.2381·6e5 + 0.6667·1e6 = 828 571 bit/s: nearest
        // rung 1000 kbit/s (|1e6 − 828 571| < |6e5 − 828 571|). Q = max(0, 0 − 1 + (b·w + b·(w − w_prev))/700)
        // = −1 + (828 571 − 171 429)/700 ≈ 937.8 (bit/s over kbit/s); 1000 ≥ 700, so Q = 2·max(VL, 937.8).
        let s = step(previous: [0, 0, 1], q: 0, c: 700, current: 2)
        let w = [0.25 * 200 / 700, 0.25 * 600 / 700, 1 - 0.25 * 1000 / 700]
        let t = (w.reduce(0, +) - 1) / 3
        for i in 0..<3 { #expect(abs(s.weights[i] - (w[i] - t)) < 1e-12) }
        #expect(s.choice == 2)
        let projected = w.map { $0 - t }
        let bw = zip(bps, projected).map { $0 * $1 }.reduce(0, +)
        let q = -1 + (bw + (bw - 1_000_000)) / 700
        #expect(abs(q - 937.8) < 0.1)
        #expect(abs(s.q - 2 * max(vl, q)) < 1e-9)
    }

    @Test("the projection of 200 random vectors lands on the simplex and leaves a point already on it unchanged")
    func theProjectionLandsOnTheSimplex() {
        let random = RandomSource(seed: 16)
        for _ in 0..<200 {
            let y = (0..<5).map { _ in 4 * random.uniform() - 2 }
            let x = L2AStep.euclideanProjection(y)
            #expect(abs(x.reduce(0, +) - 1) < 1e-12)
            #expect(x.allSatisfy { $0 >= 0 })
        }
        #expect(L2AStep.euclideanProjection([0.2, 0.3, 0.5]) == [0.2, 0.3, 0.5])
    }

    @Test(
        "L2A-LL starts at 1000 kbit/s, takes 600 from 0.9 × 800 kbit/s, goes steady at 1.5 s buffered, restarts on seek"
    )
    func startupUsesTheSafeEstimateThenGoesSteady() {
        let content = try! Content.constantBitrate(ladderKbps: kbps, segmentSeconds: 1, segmentCount: 20)
        let policy = L2ALLPolicy()
        // No sample yet: dash.js's initial bitrate, the highest ≤ 1000 kbit/s.
        #expect(policy.decide(PolicyBench.context(content, buffer: 0)) == .variant(2))
        // One sample of 800 kbit/s (1 s of download): safe = 0.9 × 800 = 720 → 600 kbit/s; buffer 1 < 1.5: STARTUP.
        let sample = ThroughputSample(bits: 800_000, requestTime: 0, firstByteTime: 0, doneTime: 1)
        policy.downloadFinished(sample, context: PolicyBench.context(content, buffer: 1))
        #expect(policy.decide(PolicyBench.context(content, buffer: 1, segment: 1)) == .variant(1))
        #expect(policy.state == .startup)
        // Buffer 1.5 s: STEADY with Q = VL and w one-hot on the choice.
        #expect(policy.decide(PolicyBench.context(content, buffer: 1.5, segment: 2)) == .variant(1))
        #expect(policy.state == .steady)
        #expect(policy.weights == [0, 1, 0])
        #expect(abs(policy.q - vl) < 1e-12)
        // The next decision is the first hand-computed step above (c = 800 kbit/s, V = 1 s).
        policy.downloadFinished(sample, context: PolicyBench.context(content, buffer: 1.5, segment: 2))
        #expect(policy.decide(PolicyBench.context(content, buffer: 1.5, segment: 3)) == .variant(1))
        #expect(abs(policy.q - (vl - 1 + 750)) < 1e-9)
        // A seek returns to STARTUP.
        _ = policy.decide(PolicyBench.context(content, buffer: 0, segment: 10, afterSeek: true))
        #expect(policy.state == .startup)
    }
}
