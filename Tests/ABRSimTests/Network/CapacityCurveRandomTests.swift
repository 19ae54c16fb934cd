import Testing

@testable import ABRSim

extension NetworkTests {
    /// Random curves (seeded) against an exact piece-by-piece walk.
    @Suite("capacity curves against a piece walk")
    struct CapacityCurveRandomTests {
        typealias Support = NetworkTestSupport

        /// A random curve: 1–200 pieces, a fifth of them outages.
        func randomCurve(_ g: inout Support.SplitMix, atEnd: TraceEndBehavior) throws -> CapacityCurve {
            let n = 1 + Int(g.next() % 200)
            var starts: [Double] = []
            var rates: [Double] = []
            var t = 0.0
            for _ in 0..<n {
                starts.append(t)
                t += 0.01 + g.uniform() * 3
                rates.append(g.uniform() < 0.2 ? 0 : g.uniform() * 1e7)
            }
            if rates.allSatisfy({ $0 == 0 }) { rates[0] = 1e6 }
            return try CapacityCurve(starts: starts, ratesBps: rates, duration: t, atEnd: atEnd)
        }

        /// S(t) by walking pieces one by one, period by period.
        func naiveBits(_ c: CapacityCurve, _ t: Double) -> Double {
            var bits = 0.0
            var offset = 0.0
            while true {
                for i in 0..<c.pieceCount {
                    let a = offset + c.starts[i]
                    let b = offset + (i + 1 < c.pieceCount ? c.starts[i + 1] : c.duration)
                    if t <= a { return bits }
                    bits += c.ratesBps[i] * (min(t, b) - a)
                }
                offset += c.duration
                if t <= offset { return bits }
                switch c.atEnd {
                case .loop: continue
                case .hold: return bits + c.holdRateBps * (t - offset)
                case .end: return bits
                }
            }
        }

        /// The smallest t with S(t) ≥ target, by walking pieces.
        func naiveTime(_ c: CapacityCurve, _ target: Double) -> Double {
            var bits = 0.0
            var offset = 0.0
            while true {
                for i in 0..<c.pieceCount {
                    let width = (i + 1 < c.pieceCount ? c.starts[i + 1] : c.duration) - c.starts[i]
                    let piece = c.ratesBps[i] * width
                    if c.ratesBps[i] > 0, bits + piece >= target {
                        return offset + c.starts[i] + (target - bits) / c.ratesBps[i]
                    }
                    bits += piece
                }
                offset += c.duration
                switch c.atEnd {
                case .loop: continue
                case .hold: return offset + (target - bits) / c.holdRateBps
                case .end: return .infinity
                }
            }
        }

        @Test(
            "on random curves the bits between two times and the delivery time of an amount match a piece-by-piece walk",
            arguments: TraceEndBehavior.allCases)
        func bitsAndDeliveryTimesMatchAPieceWalk(atEnd: TraceEndBehavior) throws {
            var g = Support.SplitMix(state: 20_240_917)
            for _ in 0..<40 {
                let c = try randomCurve(&g, atEnd: atEnd)
                for _ in 0..<50 {
                    let t0 = g.uniform() * c.duration * 4
                    let t1 = t0 + g.uniform() * c.duration * 2
                    let expected = naiveBits(c, t1) - naiveBits(c, t0)
                    #expect(Support.close(c.bits(from: t0, to: t1), expected, relative: 1e-9))
                    #expect(Support.close(c.cumulativeBits(at: t1), naiveBits(c, t1), relative: 1e-9))
                    let amount = g.uniform() * c.totalBitsPerPeriod * 1.5
                    let when = c.timeToDeliver(amount, after: t0)
                    let naive = naiveTime(c, naiveBits(c, t0) + amount)
                    if naive.isInfinite {
                        #expect(when.isInfinite)
                    } else {
                        #expect(Support.close(when, max(t0, naive), relative: 1e-9))
                        #expect(Support.close(c.bits(from: t0, to: when), amount, relative: 1e-9))
                    }
                }
            }
        }

        @Test("on random looping curves the time of a cumulative amount is the earliest time it is reached")
        func inverseOfCumulativeBitsIsTheSmallestTime() throws {
            var g = Support.SplitMix(state: 7)
            for _ in 0..<40 {
                let c = try randomCurve(&g, atEnd: .loop)
                for _ in 0..<50 {
                    let s = g.uniform() * c.totalBitsPerPeriod * 5
                    let t = c.time(atCumulativeBits: s)
                    #expect(Support.close(t, naiveTime(c, s), relative: 1e-9))
                    #expect(Support.close(c.cumulativeBits(at: t), s, relative: 1e-9))
                }
            }
        }

        /// The link's look-up from its last piece must give exactly the grid's answer: on small steps (found by
        /// stepping), large ones (the grid), steps past the end of a period and back to its start (a stale piece).
        @Test(
            "looking up cumulative bits from the last piece gives exactly the grid's answer, steps forward and back",
            arguments: TraceEndBehavior.allCases)
        func cumulativeBitsFromTheLastPieceEqualsTheGridLookUp(atEnd: TraceEndBehavior) throws {
            var g = Support.SplitMix(state: 41)
            for _ in 0..<20 {
                let c = try randomCurve(&g, atEnd: atEnd)
                var piece = -1
                var t = 0.0
                var stepped = 0
                for _ in 0..<400 {
                    // Mostly steps of a fraction of a piece, some of several periods; sometimes back in time.
                    let r = g.uniform()
                    t =
                        r < 0.05
                        ? g.uniform() * c.duration : t + (r < 0.9 ? 0.3 * g.uniform() : 2 * c.duration * g.uniform())
                    let before = piece
                    let hinted = c.cumulativeBits(at: t, after: &piece)
                    #expect(hinted == c.cumulativeBits(at: t))
                    if before >= 0 && piece != before { stepped += 1 }
                }
                #expect(stepped > 0)
            }
        }

        @Test("the next change after a time is a piece boundary, and the rate holds until it")
        func nextChangeIsTheNextPieceStart() throws {
            var g = Support.SplitMix(state: 99)
            let c = try randomCurve(&g, atEnd: .loop)
            for _ in 0..<500 {
                let t = g.uniform() * c.duration * 3
                let next = c.nextChange(after: t)
                #expect(next > t)
                let k = (next / c.duration).rounded(.down)
                let u = next - k * c.duration
                let isBoundary = c.starts.contains { abs($0 - u) < 1e-9 } || abs(u - c.duration) < 1e-9
                #expect(isBoundary)
                #expect(c.rate(at: (t + next) / 2) == c.rate(at: t))
            }
        }
    }
}
