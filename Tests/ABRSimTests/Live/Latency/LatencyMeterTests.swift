import Testing

@testable import ABRSim

/// The latency meter on a hand-drawn session: 4 s flat at 6 s, a 2 s stall (slope 1) to 8 s, then 10 s of catch-up
/// at rate 1.2 (slope −0.2) back to 6 s, then 4 s flat. 20 s in all.
@Suite("the latency meter on a drawn 20 s session")
struct LatencyMeterTests {
    func session() -> LatencyMeter {
        var meter = LatencyMeter()
        meter.observe(time: 0, latency: 6, slope: 0)
        meter.observe(time: 1, latency: 6, slope: 0)  // collinear: merges
        meter.observe(time: 4, latency: 6, slope: 1)
        meter.observe(time: 6, latency: 8, slope: -0.2)
        meter.observe(time: 16, latency: 6, slope: 0)
        meter.close(at: 20)
        return meter
    }

    @Test("collinear observations merge: the drawn 20 s session keeps 4 pieces")
    func piecesMergeWhereTheSlopeIsTheSame() {
        #expect(session().pieces.count == 4)
        #expect(session().seconds == 20)
    }

    @Test("the mean latency is the integral over the time: 132 over 20 s is 6.6 s")
    func meanIsTheIntegralOverTheTime() throws {
        // ∫ = 24 + 14 + 70 + 24 = 132 over 20 s.
        #expect(abs(try #require(session().mean) - 6.6) < 1e-12)
    }

    @Test("time above 7 s counts 6 s of the linear rise and fall, and above 6 s 12 s")
    func timeAboveALevelCountsTheLinearStretches() {
        // Above 7 s: the last second of the stall (7 → 8) and the first 5 s of the catch-up (8 → 7).
        #expect(abs(session().timeAbove(7) - 6) < 1e-12)
        #expect(abs(session().timeAbove(6 + 1e-9) - 12) < 1e-6)
    }

    @Test("the p95 latency is 8 − 1/6 s, with 1 s of the 20 s above it, and an empty meter has none")
    func theQuantileIsWhereTheTimeAboveIsTheRest() throws {
        // 5 % of 20 s = 1 s above q: on the rise (slope 1) and the fall (slope −0.2) that is (8 − q)(1 + 5) = 1,
        // q = 8 − 1/6.
        #expect(abs(try #require(session().quantile(0.95)) - (8 - 1.0 / 6)) < 1e-12)
        #expect(LatencyMeter().quantile(0.95) == nil)
        let summary = session().summary(targetSeconds: 6, catchUpSeeks: 2)
        #expect(summary.catchUpSeeks == 2)
        #expect(abs(summary.timeAboveTargetLatencySeconds - 12) < 1e-6)
    }
}
