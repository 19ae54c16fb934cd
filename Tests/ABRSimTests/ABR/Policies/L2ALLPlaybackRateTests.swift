import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// L2A-LL's sign test scales each rung by the playback rate (`currentPlaybackRate * rep.bitrateInKbit >
/// lastThroughput`, dash.js v5.1.1 `L2ARule.js` line 363): under a catch-up rate below 1 a rung above the link looks
/// sustainable. Every value below is worked out by hand from `L2ARule.js` lines 358–405.
@Suite("L2A-LL under a playback rate below 1 keeps a rung above the link, as dash.js's formulas give by hand")
struct L2ALLPlaybackRateTests {
    let kbps: [Double] = [200, 600, 1000]
    var bps: [Double] { kbps.map { $0 * 1000 } }
    let vl = pow(4.0, 0.99)
    var alpha: Double { max(4, vl * 2) }

    func step(previous: [Double], q: Double, c: Double, rate: Double, current: Int) -> L2AStep {
        L2AStep(
            kbps: kbps, bps: bps, previous: previous, q: q, throughputKbps: c, segmentDuration: 2,
            playbackRate: rate, current: current, vl: vl, alpha: alpha, react: 2)
    }

    @Test("at 410 kbit/s and rate 0.6 two chained steps keep 600 kbit/s and Q doubles after each by REACT")
    func aRateBelowOneKeepsTheRungAboveTheLink() {
        // Step 1: w_prev = (0, 1, 0), Q = VL, V = 2 s, ρ = 0.6, c = 410: V/(2α)·(Q + VL) = 2/(4VL)·2VL = 1.
        // ρ·200 = 120 and ρ·600 = 360 are ≤ 410 (sign +1); ρ·1000 = 600 > 410 turns the sign.
        // w = (120/410, 1 + 360/410, −600/410); sorted, t = (1 + 360/410) − 1 = 360/410 ≥ 120/410: w = (0, 1, 0).
        // b·w = 600 000, Δ = 0: Q = VL − 2 + 2·0.6·600 000/410 (bit/s over kbit/s, line 383); the choice 600 ≥ 410,
        // so Q = 2·max(VL, Q) (line 404).
        let first = step(previous: [0, 1, 0], q: vl, c: 410, rate: 0.6, current: 1)
        #expect(abs(first.descent[0] - 120.0 / 410) < 1e-12)
        #expect(abs(first.descent[1] - (1 + 360.0 / 410)) < 1e-12)
        #expect(abs(first.descent[2] + 600.0 / 410) < 1e-12)
        #expect(first.weights == [0, 1, 0])
        #expect(first.choice == 1)
        let q1 = 2 * (vl - 2 + 720_000.0 / 410)
        #expect(abs(first.q - q1) < 1e-9)
        // Step 2 from (0, 1, 0) and Q1: the same signs, a factor f = (Q1 + VL)/(2VL) ≫ 1; t = f·360/410 still
        // exceeds f·120/410, so w = (0, 1, 0) again, and Q2 = 2·(Q1 − 2 + 720 000/410).
        let second = step(previous: first.weights, q: first.q, c: 410, rate: 0.6, current: first.choice)
        #expect(second.weights == [0, 1, 0])
        #expect(second.choice == 1)
        #expect(abs(second.q - 2 * (q1 - 2 + 720_000.0 / 410)) < 1e-9)
    }

    @Test("at 410 kbit/s and rate 1 the same step moves to 200 kbit/s with w = (400, 10, 0)/410 and Q = 0")
    func rateOneDropsToTheRungBelowTheLink() {
        // ρ = 1: 600 > 410 turns the sign at rung 1: w = (200/410, 1 − 600/410, −1000/410). Sorted, the first t
        // = (200/410 − 1) is below 1 − 600/410; the second, t = (200/410 + 1 − 600/410 − 1)/2 = −200/410, is above
        // −1000/410: w = (400/410, 10/410, 0). b·w = (8·10⁷ + 6·10⁶)/410 = 209 756 bit/s: nearest 200 kbit/s.
        // b·w + b·Δ = 2·86·10⁶/410 − 600 000 < 0, so Q = max(0, VL − 2 + …) = 0; 200 < 410, no reaction.
        let s = step(previous: [0, 1, 0], q: vl, c: 410, rate: 1, current: 1)
        #expect(abs(s.weights[0] - 400.0 / 410) < 1e-12)
        #expect(abs(s.weights[1] - 10.0 / 410) < 1e-12)
        #expect(s.weights[2] == 0)
        #expect(s.closest == 0)
        #expect(s.choice == 0)
        #expect(s.q == 0)
    }

    @Test("the policy reads the context's playback rate: 600 kbit/s at rate 0.6 and 200 kbit/s at rate 1 on 410 kbit/s")
    func thePolicyPassesThePlaybackRate() {
        let content = try! Content.constantBitrate(ladderKbps: kbps, segmentSeconds: 2, segmentCount: 20)
        func steadyPolicy() -> L2ALLPolicy {
            // A first sample of 800 kbit/s (safe 0.9 × 800 = 720 → 600 kbit/s) at 1.5 s buffered: STEADY, one-hot on
            // rung 1, Q = VL. Then a 2 s segment of 600 kbit/s over 410 kbit/s: the last sample c = 410.
            let policy = L2ALLPolicy()
            _ = policy.decide(PolicyBench.context(content, buffer: 0))
            let fast = ThroughputSample(bits: 1_600_000, requestTime: 0, firstByteTime: 0, doneTime: 2)
            policy.downloadFinished(fast, context: PolicyBench.context(content, buffer: 1.5))
            #expect(policy.decide(PolicyBench.context(content, buffer: 1.5, segment: 1)) == .variant(1))
            #expect(policy.state == .steady)
            #expect(policy.weights == [0, 1, 0])
            let slow = ThroughputSample(bits: 1_200_000, requestTime: 2, firstByteTime: 2, doneTime: 2 + 1.2 / 0.41)
            policy.downloadFinished(slow, context: PolicyBench.context(content, buffer: 1.5, segment: 1))
            return policy
        }
        var slowed = PolicyBench.context(content, buffer: 1, segment: 2)
        slowed.playbackRate = 0.6
        let a = steadyPolicy()
        #expect(a.decide(slowed) == .variant(1))
        #expect(abs(a.q - 2 * (vl - 2 + 720_000.0 / 410)) < 1e-9)
        let b = steadyPolicy()
        #expect(b.decide(PolicyBench.context(content, buffer: 1, segment: 2)) == .variant(0))
        #expect(b.q == 0)
    }
}
