import Testing

@testable import ABRSim

/// The curve's look-ups from a cursor (the piece an earlier look-up landed in) against its plain look-ups.
extension NetworkTests.CapacityCurveRandomTests {
    /// ``randomCurve(_:atEnd:)`` with a random latency per piece.
    func randomCurveWithLatencies(_ g: inout Support.SplitMix, atEnd: TraceEndBehavior) throws -> CapacityCurve {
        let plain = try randomCurve(&g, atEnd: atEnd)
        let latencies = plain.starts.map { _ in g.uniform() * 0.2 }
        return try CapacityCurve(
            starts: plain.starts, ratesBps: plain.ratesBps, duration: plain.duration, latencySeconds: latencies,
            atEnd: atEnd)
    }

    /// The next time of a walk: mostly a fraction of a piece on, sometimes a piece or two back, a jump of
    /// several periods, a random place, a time before 0 or exactly a piece start.
    func nextTime(after t: Double, _ c: CapacityCurve, _ g: inout Support.SplitMix) -> Double {
        let r = g.uniform()
        let averagePiece = c.duration / Double(c.pieceCount)
        switch r {
        case ..<0.5: return t + averagePiece * 0.5 * g.uniform()
        case ..<0.65: return t - averagePiece * 2 * g.uniform()
        case ..<0.75: return t + 3 * c.duration * g.uniform()
        case ..<0.85: return g.uniform() * 2 * c.duration
        case ..<0.9: return -g.uniform()
        default:
            let k = (t / c.duration).rounded(.down)
            return max(k, 0) * c.duration + c.starts[Int(g.next() % UInt64(c.pieceCount))]
        }
    }

    @Test(
        "look-ups of rate, latency, cumulative bits and their inverse from one shared cursor equal the plain look-ups exactly",
        arguments: TraceEndBehavior.allCases)
    func cursorLookUpsEqualPlainLookUps(atEnd: TraceEndBehavior) throws {
        var g = Support.SplitMix(state: 2027)
        var kept = 0
        var moved = 0
        for _ in 0..<30 {
            let c = try randomCurveWithLatencies(&g, atEnd: atEnd)
            var piece = -1
            var t = 0.0
            for _ in 0..<500 {
                t = nextTime(after: t, c, &g)
                let before = piece
                switch g.next() % 5 {
                case 0: #expect(c.rate(at: t, after: &piece) == c.rate(at: t))
                case 1: #expect(c.latency(at: t, after: &piece) == c.latency(at: t))
                case 2: #expect(c.cumulativeBits(at: t, after: &piece) == c.cumulativeBits(at: t))
                case 3:
                    // S at a time just looked up: the cursor's own piece, or the next one at a boundary.
                    let s = c.cumulativeBits(at: t)
                    #expect(c.time(atCumulativeBits: s, after: &piece) == c.time(atCumulativeBits: s))
                default:
                    let s = c.cumulativeBits(at: t) + g.uniform() * c.totalBitsPerPeriod * 0.05
                    #expect(c.time(atCumulativeBits: s, after: &piece) == c.time(atCumulativeBits: s))
                }
                if before >= 0 { if piece == before { kept += 1 } else { moved += 1 } }
            }
        }
        // The walk exercised both the cursor's shortcuts and its moves.
        #expect(kept > 1000)
        #expect(moved > 1000)
    }

    @Test("the inverse look-up leaves the cursor at the piece its answer falls in")
    func inverseLeavesTheCursorAtTheAnswersPiece() throws {
        var g = Support.SplitMix(state: 7)
        let c = try randomCurveWithLatencies(&g, atEnd: .loop)
        var piece = -1
        for _ in 0..<2000 {
            let s = g.uniform() * c.totalBitsPerPeriod * 3
            let t = c.time(atCumulativeBits: s, after: &piece)
            let k = (t / c.duration).rounded(.down)
            let u = t - k * c.duration
            let end = piece + 1 < c.pieceCount ? c.starts[piece + 1] : c.duration
            // The answer lies in the cursor's piece (its end included, where the bits are reached exactly there).
            #expect(c.starts[piece] <= u + 1e-9 * c.duration && u <= end + 1e-9 * c.duration)
            #expect(c.ratesBps[piece] > 0)
        }
    }

    @Test("bits reached exactly at a piece boundary before an outage give the outage's start, from any cursor")
    func boundaryBeforeAnOutage() throws {
        // 1 s at 1000 bit/s, 1 s of outage, 1 s at 500 bit/s.
        let c = try CapacityCurve(starts: [0, 1, 2], ratesBps: [1000, 0, 500], duration: 3, atEnd: .loop)
        for start in [-1, 0, 1, 2] {
            var piece = start
            #expect(c.time(atCumulativeBits: 1000, after: &piece) == 1)
            #expect(piece == 0)
            piece = start
            #expect(c.time(atCumulativeBits: 1250, after: &piece) == 2.5)
            #expect(piece == 2)
            piece = start
            #expect(c.time(atCumulativeBits: 2750, after: &piece) == 5.5)
            piece = start
            #expect(c.cumulativeBits(at: 1.5, after: &piece) == 1000)
            #expect(piece == 1)
        }
    }
}
