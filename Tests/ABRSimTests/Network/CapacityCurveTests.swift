import Testing

@testable import ABRSim

extension NetworkTests {
    /// Hand-computed look-ups on pieces [0,2)→1000, [2,5)→0, [5,6)→3000 bit/s: 2000 bits by 2 s, 5000 per period.
    @Suite("capacity curves by hand")
    struct CapacityCurveTests {
        func curve(_ atEnd: TraceEndBehavior) throws -> CapacityCurve {
            try CapacityCurve(
                starts: [0, 2, 5], ratesBps: [1000, 0, 3000], duration: 6, latencySeconds: [0.1, 0.2, 0.3],
                lossRates: [0, 0.5, 0.01], atEnd: atEnd)
        }

        @Test("a three-piece curve has three pieces, a 6 s period and 5000 bits per period")
        func shapeAndTotals() throws {
            let c = try curve(.loop)
            #expect(c.pieceCount == 3)
            #expect(c.duration == 6)
            #expect(c.totalBitsPerPeriod == 5000)
        }

        @Test("rate, latency and loss inside the period are those of the piece holding the time, and 0 before it")
        func ratesLatencyAndLossInsideThePeriod() throws {
            let c = try curve(.loop)
            #expect(c.rate(at: 0) == 1000)
            #expect(c.rate(at: 1.999) == 1000)
            #expect(c.rate(at: 2) == 0)
            #expect(c.rate(at: 5.5) == 3000)
            #expect(c.rate(at: -1) == 0)
            #expect(c.latency(at: 3) == 0.2)
            #expect(c.loss(at: 5) == 0.01)
        }

        @Test("cumulative bits within the period and a thousand loops later follow the pieces by hand")
        func cumulativeBitsWithinAndAcrossLoops() throws {
            let c = try curve(.loop)
            #expect(c.cumulativeBits(at: 0) == 0)
            #expect(c.cumulativeBits(at: 1) == 1000)
            #expect(c.cumulativeBits(at: 3) == 2000)
            #expect(c.cumulativeBits(at: 5.5) == 3500)
            #expect(c.cumulativeBits(at: 6) == 5000)
            #expect(c.cumulativeBits(at: 7) == 6000)
            // t ≫ period: 1000 periods then 5.5 s into the next.
            #expect(c.cumulativeBits(at: 6005.5) == 1000 * 5000 + 3500)
            #expect(c.rate(at: 6003) == 0)
            #expect(c.bits(from: 1, to: 6005.5) == 5_003_500 - 1000)
        }

        @Test("the time of a cumulative amount is reached before an outage, never inside it")
        func inverseSkipsTheZeroPiece() throws {
            let c = try curve(.loop)
            #expect(c.time(atCumulativeBits: 0) == 0)
            #expect(c.time(atCumulativeBits: 1000) == 1)
            // 2000 bits are reached at 2 s, not at 5 s when the outage ends.
            #expect(c.time(atCumulativeBits: 2000) == 2)
            #expect(c.time(atCumulativeBits: 2000.0001) > 5)
            #expect(abs(c.time(atCumulativeBits: 3500) - 5.5) < 1e-12)
            #expect(c.time(atCumulativeBits: 5000) == 6)
            #expect(c.time(atCumulativeBits: 7000) == 8)
            #expect(abs(c.time(atCumulativeBits: 1000 * 5000 + 3500) - 6005.5) < 1e-9)
        }

        @Test("a delivery started in an outage waits for it to end and is never earlier than its start")
        func timeToDeliverWaitsOutTheOutage() throws {
            let c = try curve(.loop)
            #expect(c.timeToDeliver(0, after: 3) == 3)
            #expect(c.timeToDeliver(1500, after: 3) == 5.5)
            #expect(c.timeToDeliver(1000, after: 1.5) == 5 + 500.0 / 3000)
            #expect(abs(c.timeToDeliver(5000, after: 6001) - 6007) < 1e-9)
            // A tiny amount inside an outage is never delivered before t0.
            #expect(c.timeToDeliver(1e-300, after: 3) >= 3)
        }

        @Test("a held curve keeps its last rate and latency after its end and never changes again")
        func holdKeepsTheLastRateAfterTheEnd() throws {
            let c = try curve(.hold)
            #expect(c.rate(at: 100) == 3000)
            #expect(c.latency(at: 100) == 0.3)
            #expect(c.cumulativeBits(at: 8) == 5000 + 6000)
            #expect(c.time(atCumulativeBits: 11_000) == 8)
            #expect(c.nextChange(after: 5.5) == .infinity)
        }

        @Test("an ended curve delivers nothing after its end, so later amounts take forever")
        func endGivesZeroCapacityAndInfiniteTimes() throws {
            let c = try curve(.end)
            #expect(c.rate(at: 6) == 0)
            #expect(c.cumulativeBits(at: 100) == 5000)
            #expect(c.time(atCumulativeBits: 5000) == 6)
            #expect(c.time(atCumulativeBits: 5001) == .infinity)
            #expect(c.timeToDeliver(1, after: 5.9999999) == .infinity)
            #expect(c.nextChange(after: 5.5) == 6)
            #expect(c.nextChange(after: 6) == .infinity)
        }

        @Test("a looping curve of outages never delivers a bit")
        func allZeroLoopNeverDelivers() throws {
            let c = try CapacityCurve(starts: [0, 1], ratesBps: [0, 0], duration: 2)
            #expect(c.time(atCumulativeBits: 1) == .infinity)
            #expect(c.timeToDeliver(1, after: 10) == .infinity)
            #expect(c.cumulativeBits(at: 100) == 0)
        }

        @Test("the next change is the next piece boundary, across loops")
        func nextChangeFindsBoundariesAcrossLoops() throws {
            let c = try curve(.loop)
            #expect(c.nextChange(after: -1) == 0)
            #expect(c.nextChange(after: 0) == 2)
            #expect(c.nextChange(after: 2) == 5)
            #expect(c.nextChange(after: 5.5) == 6)
            #expect(c.nextChange(after: 6) == 8)
            #expect(c.nextChange(after: 6000 + 3) == 6005)
        }

        @Test(
            "no pieces, a late, repeated or final start, a negative or NaN rate, loss 2 or extra latencies make a bad curve"
        )
        func badShapesAreInputErrors() {
            #expect(throws: InputError.self) { try CapacityCurve(starts: [], ratesBps: [], duration: 1) }
            #expect(throws: InputError.self) { try CapacityCurve(starts: [1], ratesBps: [1], duration: 2) }
            #expect(throws: InputError.self) { try CapacityCurve(starts: [0, 0], ratesBps: [1, 1], duration: 2) }
            #expect(throws: InputError.self) { try CapacityCurve(starts: [0], ratesBps: [-1], duration: 2) }
            #expect(throws: InputError.self) { try CapacityCurve(starts: [0], ratesBps: [.nan], duration: 2) }
            #expect(throws: InputError.self) { try CapacityCurve(starts: [0, 1], ratesBps: [1, 1], duration: 1) }
            #expect(throws: InputError.self) {
                try CapacityCurve(starts: [0], ratesBps: [1], duration: 1, lossRates: [2])
            }
            #expect(throws: InputError.self) {
                try CapacityCurve(starts: [0], ratesBps: [1], duration: 1, latencySeconds: [0.1, 0.2])
            }
        }
    }
}
