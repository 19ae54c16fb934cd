import Synchronization

/// A link's capacity c(t) in bit/s: piecewise constant over [0, `duration`), then looping, holding or ending.
///
/// This is the hot path of the simulator: the shared link and every download ask it "how many bits between t0
/// and t1" (``bits(from:to:)``) and "when will B more bits have arrived after t0" (``timeToDeliver(_:after:)``).
/// Both are O(log n) binary searches over one contiguous table of 32-byte piece records (start, rate, bits before
/// the piece, latency), with no allocation per call, so a download never steps through a trace. A uniform grid over
/// time and one over bits (one cell per piece on average, 4 bytes each) narrow each search to the pieces of one
/// cell, so a look-up is O(1) for evenly spread pieces. Measured in release on a 1 M-piece curve: 25–55 ns per
/// look-up when successive queries are near in time (as a simulation's are), 100–450 ns for uniformly random
/// queries, where main-memory misses dominate.
///
/// Piece i covers [`starts[i]`, `starts[i+1]`) (the last one ends at `duration`) at `ratesBps[i]`, optionally
/// with a latency (seconds from request to first byte, one RTT) and a loss rate (0…1). Times are seconds from
/// the start of the simulation; before time 0 the capacity is 0 and nothing has been delivered.
///
/// Precision: the cumulative bit count S(t) is a `Double`. Within one period its relative error is a few ulps
/// (about 1e-15); over many loops S is computed as k·(bits per period) + partial, and ``bits(from:to:)`` and
/// ``timeToDeliver(_:after:)`` work relative to the period t0 falls in, so their error does not grow with t
/// beyond the ~1e-16·t resolution of a `Double` time.
public struct CapacityCurve: Sendable {
    /// Start of each piece in seconds: strictly increasing, `starts[0] == 0`.
    public let starts: [Double]
    /// Rate of each piece in bit/s (finite, ≥ 0).
    public let ratesBps: [Double]
    /// Per-piece latency (RTT before the first byte) in seconds, if the source gave one.
    public let latencySeconds: [Double]?
    /// Per-piece loss rate in [0, 1], if the source gave one.
    public let lossRates: [Double]?
    /// Length of one period in seconds (the end of the last piece).
    public let duration: Double
    /// What happens after `duration`.
    public let atEnd: TraceEndBehavior
    /// Rate kept by ``TraceEndBehavior/hold`` after `duration` (bit/s); the last piece's rate unless a source
    /// (a CSV trace's final row) gave another one.
    public let holdRateBps: Double
    /// Latency kept by ``TraceEndBehavior/hold`` (and reported after the end for `end`), seconds.
    public let holdLatencySeconds: Double?
    /// Loss rate kept by ``TraceEndBehavior/hold`` (and reported after the end for `end`).
    public let holdLossRate: Double?
    /// Whether any piece (or the held end) has a loss rate above zero; found once here, so that a link made for
    /// every run does not scan the pieces again.
    public let hasLoss: Bool
    /// Zero-capacity indexes already built for this curve, by minimum stretch length (shared by its copies).
    private let zeroCapacityIndexes = ZeroCapacityIndexMemo()
    /// The pieces again, each as one 32-byte record (start, rate, bits before it, latency) plus a closing record
    /// at `duration` holding the total bits per period: a look-up reads one or two cache lines of this table
    /// instead of one line in each of four arrays, which on a long curve (megabytes, beyond the cache) is most of
    /// its cost. The public arrays above stay for everything else that walks a curve.
    @usableFromInline let table: [CapacityPiece]
    /// Time grid: `timeIndex[b]` is the piece containing time b·`duration`/m (m = `timeIndex.count` − 1, the last
    /// entry is the last piece), so a look-up searches only the few pieces of one grid cell.
    @usableFromInline let timeIndex: [Int32]
    /// m / `duration`: grid cells per second.
    @usableFromInline let timeCellsPerSecond: Double
    /// Bits grid: `bitsIndex[b]` is the first j ≥ 1 with `table[j].bitsBefore` ≥ b·total/m (empty for a zero total).
    @usableFromInline let bitsIndex: [Int32]
    /// m / total: grid cells per bit.
    @usableFromInline let bitsCellsPerBit: Double

    /// Builds a curve, checking its shape; an ``InputError`` (without a file; callers add it) says what is wrong,
    /// located at `piece N` when one piece is (``TracePlaces`` turns that into the trace file's line or JSON path).
    ///
    /// `holdRateBps`, `holdLatencySeconds` and `holdLossRate` default to the last piece's values.
    public init(
        starts: [Double], ratesBps: [Double], duration: Double, latencySeconds: [Double]? = nil,
        lossRates: [Double]? = nil, atEnd: TraceEndBehavior = .loop, holdRateBps: Double? = nil,
        holdLatencySeconds: Double? = nil, holdLossRate: Double? = nil
    ) throws {
        guard !starts.isEmpty else { throw InputError(.none, .noneGiven("piece", in: "a capacity curve")) }
        guard starts.count == ratesBps.count else {
            throw InputError(
                .none, .countMismatch(found: ratesBps.count, of: "rates", expected: starts.count, per: "piece starts"))
        }
        guard starts[0] == 0 else {
            throw InputError(.none, .mustBe("the first piece's start", rule: "0", found: "\(starts[0])", unit: "s"))
        }
        for i in 1..<starts.count where !(starts[i] > starts[i - 1]) || !starts[i].isFinite {
            throw InputError(
                .named("piece \(i - 1)"),
                .outOfOrder("piece starts", order: "increase", found: "\(starts[i]) s", after: "\(starts[i - 1]) s"))
        }
        for (i, rate) in ratesBps.enumerated() where !(rate >= 0) || !rate.isFinite {
            throw InputError(
                .named("piece \(i)"), .mustBe("rate", rule: "finite and ≥ 0", found: "\(rate)", unit: "bit/s"))
        }
        guard duration.isFinite, duration > starts[starts.count - 1] else {
            throw InputError(
                .named("piece \(starts.count - 1)"),
                .mustBe(
                    "duration", rule: "finite and after the last piece start \(starts.last!) s", found: "\(duration)",
                    unit: "s"))
        }
        // Shorter periods make the time grid's cells per second overflow (and loop a trace billions of times).
        guard duration >= 1e-6 else {
            throw InputError(
                .none, .mustBe("duration", rule: "at least a microsecond", found: "\(duration)", unit: "s"))
        }
        if let latencySeconds {
            guard latencySeconds.count == starts.count else {
                throw InputError(
                    .none,
                    .countMismatch(found: latencySeconds.count, of: "latencies", expected: starts.count, per: "pieces"))
            }
            for (i, value) in latencySeconds.enumerated() where !(value >= 0) || !value.isFinite {
                throw InputError(
                    .named("piece \(i)"),
                    .mustBe("latency", rule: "finite and ≥ 0", found: "\(value)", unit: "s"))
            }
        }
        if let lossRates {
            guard lossRates.count == starts.count else {
                throw InputError(
                    .none,
                    .countMismatch(found: lossRates.count, of: "loss rates", expected: starts.count, per: "pieces"))
            }
            for (i, value) in lossRates.enumerated() where !(value >= 0 && value <= 1) {
                throw InputError(
                    .named("piece \(i)"), .mustBe("loss rate", rule: "in [0, 1]", found: "\(value)"))
            }
        }
        if let holdRateBps, !(holdRateBps >= 0) || !holdRateBps.isFinite {
            throw InputError(
                .none, .mustBe("hold rate", rule: "finite and ≥ 0", found: "\(holdRateBps)", unit: "bit/s"))
        }
        if let holdLatencySeconds, !(holdLatencySeconds >= 0) || !holdLatencySeconds.isFinite {
            throw InputError(
                .none, .mustBe("hold latency", rule: "finite and ≥ 0", found: "\(holdLatencySeconds)", unit: "s"))
        }
        if let holdLossRate, !(holdLossRate >= 0 && holdLossRate <= 1) {
            throw InputError(.none, .mustBe("hold loss rate", rule: "in [0, 1]", found: "\(holdLossRate)"))
        }
        var prefix = [Double](repeating: 0, count: starts.count + 1)
        for i in 0..<starts.count {
            let end = i + 1 < starts.count ? starts[i + 1] : duration
            prefix[i + 1] = prefix[i] + ratesBps[i] * (end - starts[i])
        }
        // The look-up grids scale by pieces per second and per bit: both must be finite numbers. Pieces per
        // second are (duration is at least a microsecond); pieces per bit need a total of bits that is not tiny.
        let total = prefix[starts.count]
        guard total == 0 || (Double(starts.count) / total).isFinite else {
            throw InputError(
                .none,
                .mustBe("the bits one period carries", rule: "0 or enough to be told from none", found: "\(total)"))
        }
        self.starts = starts
        self.ratesBps = ratesBps
        self.latencySeconds = latencySeconds
        self.lossRates = lossRates
        self.duration = duration
        self.atEnd = atEnd
        self.holdRateBps = holdRateBps ?? ratesBps[ratesBps.count - 1]
        self.holdLatencySeconds = holdLatencySeconds ?? latencySeconds?.last
        self.holdLossRate = holdLossRate ?? lossRates?.last
        hasLoss = (lossRates?.contains { $0 > 0 } ?? false) || (self.holdLossRate ?? 0) > 0
        var table = [CapacityPiece]()
        table.reserveCapacity(starts.count + 1)
        for i in 0..<starts.count {
            table.append(
                CapacityPiece(
                    start: starts[i], rateBps: ratesBps[i], bitsBefore: prefix[i], latency: latencySeconds?[i] ?? 0))
        }
        table.append(CapacityPiece(start: duration, rateBps: 0, bitsBefore: total, latency: 0))
        self.table = table
        (timeIndex, timeCellsPerSecond, bitsIndex, bitsCellsPerBit) = Self.grids(starts, prefix, duration)
    }

    /// Builds the time and bits grids (one cell per piece on average) in O(n).
    static func grids(_ starts: [Double], _ prefix: [Double], _ duration: Double) -> ([Int32], Double, [Int32], Double)
    {
        let n = starts.count
        let cells = n
        var timeIndex = [Int32](repeating: 0, count: cells + 1)
        let cellSeconds = duration / Double(cells)
        var i = 0
        for b in 0..<cells {
            let u = Double(b) * cellSeconds
            while i + 1 < n, starts[i + 1] <= u { i += 1 }
            timeIndex[b] = Int32(i)
        }
        timeIndex[cells] = Int32(n - 1)
        let total = prefix[n]
        guard total > 0 else { return (timeIndex, Double(cells) / duration, [], 0) }
        var bitsIndex = [Int32](repeating: 0, count: cells + 1)
        let cellBits = total / Double(cells)
        var j = 1
        for b in 0..<cells {
            let s = Double(b) * cellBits
            while j < n, prefix[j] < s { j += 1 }
            bitsIndex[b] = Int32(j)
        }
        bitsIndex[cells] = Int32(n)
        return (timeIndex, Double(cells) / duration, bitsIndex, Double(cells) / total)
    }

    /// The number of pieces in one period.
    @inlinable public var pieceCount: Int { starts.count }

    /// Bits delivered over one period [0, `duration`).
    @inlinable public var totalBitsPerPeriod: Double { table[table.count - 1].bitsBefore }

    // MARK: - Point look-ups

    /// c(t) in bit/s, respecting ``atEnd``; 0 before time 0.
    @inlinable public func rate(at t: Double) -> Double {
        guard t >= 0 else { return 0 }
        guard let u = local(t).u else { return atEnd == .hold ? holdRateBps : 0 }
        return withUnsafeLookup { $0.piece($0.pieceIndex(u)).rateBps }
    }

    /// ``rate(at:)`` for a caller that keeps a cursor between look-ups (see ``cumulativeBits(at:after:)``):
    /// `piece` is the piece an earlier look-up landed in (−1 for none) and is left at this one's.
    @inlinable public func rate(at t: Double, after piece: inout Int) -> Double {
        guard t >= 0 else { return 0 }
        guard let u = local(t).u else { return atEnd == .hold ? holdRateBps : 0 }
        return withUnsafeLookup { lookup in
            piece = lookup.pieceIndex(u, from: piece, duration: duration)
            return lookup.piece(piece).rateBps
        }
    }

    /// The latency (seconds before the first byte) of the piece in force at `t`, if the curve has latencies.
    /// Before 0 it is the first piece's; after the end it is the hold latency for `hold` and `end`.
    @inlinable public func latency(at t: Double) -> Double? {
        guard latencySeconds != nil else { return nil }
        guard let u = local(max(t, 0)).u else { return holdLatencySeconds }
        return withUnsafeLookup { $0.piece($0.pieceIndex(u)).latency }
    }

    /// ``latency(at:)`` from a cursor (see ``rate(at:after:)``).
    @inlinable public func latency(at t: Double, after piece: inout Int) -> Double? {
        guard latencySeconds != nil else { return nil }
        guard let u = local(max(t, 0)).u else { return holdLatencySeconds }
        return withUnsafeLookup { lookup in
            piece = lookup.pieceIndex(u, from: piece, duration: duration)
            return lookup.piece(piece).latency
        }
    }

    /// The loss rate of the piece in force at `t`, if the curve has loss rates (same conventions as latency).
    @inlinable public func loss(at t: Double) -> Double? {
        guard let lossRates else { return nil }
        guard let u = local(max(t, 0)).u else { return holdLossRate }
        return lossRates[pieceIndex(u)]
    }

    /// The next piece boundary strictly after `t` (a time where rate, latency or loss may change), or `.infinity`
    /// if there is none. With `loop` the period boundary counts; with `end`, `duration` counts; with `hold`
    /// nothing after `duration` does. Callers that hold a rate re-evaluate at this time.
    @inlinable public func nextChange(after t: Double) -> Double {
        if t < 0 { return 0 }
        let (k, u) = local(t)
        guard let u else { return .infinity }  // past the end of `hold` or `end`
        let i = pieceIndex(u)
        let offset = k * duration
        let n = pieceCount
        if i + 1 < n {
            let next = offset + table[i + 1].start
            // Rounding in `offset + u` can land exactly on a boundary; step past it.
            if next > t { return next }
            if i + 2 < n { return offset + table[i + 2].start }
        }
        switch atEnd {
        case .loop:
            let end = offset + duration
            return end > t ? end : end + (n > 1 ? table[1].start : duration)
        case .end: return duration > t ? duration : .infinity
        case .hold: return .infinity
        }
    }

    // MARK: - Cumulative bits and their inverse

    /// S(t) = ∫₀ᵗ c, in bits: k whole periods plus the partial one for `loop`; the total plus the hold rate times
    /// the overrun for `hold`; the total for `end`. 0 for t ≤ 0.
    @inlinable public func cumulativeBits(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let (k, u) = local(t)
        guard let u else {
            return atEnd == .hold ? totalBitsPerPeriod + holdRateBps * (t - duration) : totalBitsPerPeriod
        }
        return k * totalBitsPerPeriod + periodBits(u)
    }

    /// ``cumulativeBits(at:)`` for a caller that keeps a cursor between look-ups (the shared link: its
    /// successive look-ups of every kind are at nearby or equal instants): `piece` is the piece an earlier look-up
    /// landed in (−1 for none) and is left at this one's. The piece is the cursor's own when `t` falls in it, else
    /// found by stepping at most one piece back or ``nearbyPieces`` forward, in memory the previous look-up just
    /// read, before falling back to the grid; the answer is the same either way, bit for bit.
    @inlinable public func cumulativeBits(at t: Double, after piece: inout Int) -> Double {
        guard t > 0 else { return 0 }
        let (k, u) = local(t)
        guard let u else {
            return atEnd == .hold ? totalBitsPerPeriod + holdRateBps * (t - duration) : totalBitsPerPeriod
        }
        let found = withUnsafeLookup { lookup -> CapacityPiece in
            piece = lookup.pieceIndex(u, from: piece, duration: duration)
            return lookup.piece(piece)
        }
        return k * totalBitsPerPeriod + (found.bitsBefore + found.rateBps * (u - found.start))
    }

    /// How many pieces ``cumulativeBits(at:after:)`` steps forward before using the grid.
    @inlinable static var nearbyPieces: Int { 16 }

    /// The smallest t with S(t) ≥ `s`, in seconds; 0 for s ≤ 0; `.infinity` if S never reaches `s` (an all-zero
    /// looping curve, `end` past the total, `hold` at rate 0 past the total). Zero-rate pieces are skipped: the
    /// answer is where the bits are actually reached, not the end of a following outage.
    @inlinable public func time(atCumulativeBits s: Double) -> Double {
        guard s > 0 else { return 0 }
        let total = totalBitsPerPeriod
        if s <= total { return periodTime(s) }
        switch atEnd {
        case .loop:
            guard total > 0 else { return .infinity }
            let (k, remainder) = splitLoops(s)
            return k * duration + periodTime(remainder)
        case .hold:
            return holdRateBps > 0 ? duration + (s - total) / holdRateBps : .infinity
        case .end:
            return .infinity
        }
    }

    /// ``time(atCumulativeBits:)`` from a cursor (see ``cumulativeBits(at:after:)``): `piece` is left at the piece
    /// the answer falls in, where the look-up of S at that time finds it at once.
    @inlinable public func time(atCumulativeBits s: Double, after piece: inout Int) -> Double {
        guard s > 0 else { return 0 }
        let total = totalBitsPerPeriod
        if s <= total { return withUnsafeLookup { $0.periodTime(s, from: &piece) } }
        switch atEnd {
        case .loop:
            guard total > 0 else { return .infinity }
            let (k, remainder) = splitLoops(s)
            return k * duration + withUnsafeLookup { $0.periodTime(remainder, from: &piece) }
        case .hold:
            return holdRateBps > 0 ? duration + (s - total) / holdRateBps : .infinity
        case .end:
            return .infinity
        }
    }

    /// Bits delivered in [t0, t1] (S(t1) − S(t0)); negative if t1 < t0. With `loop` it is computed relative to
    /// t0's period, so it stays accurate for large t.
    @inlinable public func bits(from t0: Double, to t1: Double) -> Double {
        guard atEnd == .loop, t0 > 0, t1 > 0 else { return cumulativeBits(at: t1) - cumulativeBits(at: t0) }
        let (k0, u0) = local(t0)
        let (k1, u1) = local(t1)
        return (k1 - k0) * totalBitsPerPeriod + (periodBits(u1!) - periodBits(u0!))
    }

    /// The time at which `bits` more bits have been delivered after `t0`: the smallest t ≥ t0 with
    /// S(t) ≥ S(t0) + bits; `t0` itself for bits ≤ 0; `.infinity` if that never happens.
    @inlinable public func timeToDeliver(_ bits: Double, after t0: Double) -> Double {
        guard bits > 0 else { return t0 }
        guard atEnd == .loop, t0 > 0, totalBitsPerPeriod > 0 else {
            return max(t0, time(atCumulativeBits: cumulativeBits(at: t0) + bits))
        }
        // Work relative to the start of t0's period so precision does not depend on how many loops came before.
        let (k0, u0) = local(t0)
        let target = periodBits(u0!) + bits
        let t: Double
        if target <= totalBitsPerPeriod {
            t = k0 * duration + periodTime(target)
        } else {
            let (k, remainder) = splitLoops(target)
            t = (k0 + k) * duration + periodTime(remainder)
        }
        return max(t0, t)
    }

    // MARK: - Internals

    /// Splits t ≥ 0 into whole periods k and the offset u in [0, duration); u is nil when t is past the end
    /// of a `hold` or `end` curve (k is then 0).
    @inlinable @inline(__always) func local(_ t: Double) -> (k: Double, u: Double?) {
        if t < duration { return (0, t) }
        guard atEnd == .loop else { return (0, nil) }
        var k = (t / duration).rounded(.down)
        var u = t - k * duration
        if u >= duration {
            k += 1
            u -= duration
        }
        if u < 0 {
            k -= 1
            u += duration
            if u >= duration { u = 0 }
        }
        return (k, u)
    }

    /// The largest piece index i with `starts[i] ≤ u`, for u in [0, duration) (see ``UnsafeLookup/pieceIndex(_:)``).
    @inlinable @inline(__always) func pieceIndex(_ u: Double) -> Int {
        withUnsafeLookup { $0.pieceIndex(u) }
    }

    /// S within one period: bits delivered in [0, u], u in [0, duration).
    @inlinable @inline(__always) func periodBits(_ u: Double) -> Double {
        withUnsafeLookup { lookup in
            let piece = lookup.piece(lookup.pieceIndex(u))
            return piece.bitsBefore + piece.rateBps * (u - piece.start)
        }
    }

    /// The smallest u in [0, duration] with periodBits(u) ≥ s, for s in (0, total] (see
    /// ``UnsafeLookup/periodTime(_:)``).
    @inlinable @inline(__always) func periodTime(_ s: Double) -> Double {
        withUnsafeLookup { $0.periodTime(s) }
    }

    /// Runs `body` with the curve's look-up tables as an ``UnsafeLookup``, valid only inside `body`.
    @inlinable @inline(__always) func withUnsafeLookup<R>(_ body: (UnsafeLookup) -> R) -> R {
        table.withUnsafeBufferPointer { pieces in
            timeIndex.withUnsafeBufferPointer { timeGrid in
                bitsIndex.withUnsafeBufferPointer { bitsGrid in
                    body(
                        UnsafeLookup(
                            pieces: pieces, timeGrid: timeGrid, timeCellsPerSecond: timeCellsPerSecond,
                            bitsGrid: bitsGrid, bitsCellsPerBit: bitsCellsPerBit))
                }
            }
        }
    }

    /// The piece table and its two grids read without bounds or overflow checks, for the searches every look-up
    /// makes (about a third of a run's time). One handle for the structure, as swift-collections' unsafe handles
    /// are, made only by ``withUnsafeLookup(_:)`` and never stored.
    ///
    /// Why the unchecked reads are in bounds: the table has n + 1 records (n ≥ 1 pieces and the closing record at
    /// `duration`); `timeGrid` and `bitsGrid` hold piece indexes in 0…n − 1 and 1…n, built by ``grids(_:_:_:)``
    /// and at least two entries long when the total is positive. A cell number is clamped to `count − 2` (and
    /// is ≥ 0 since u, s ≥ 0), so cell and cell + 1 are in the grid; the binary searches stay within
    /// [base, last] ⊂ [0, n − 1] (times) or [1, n] (bits), whose ends the code checks against u or s and widens
    /// to the whole table when rounding put u or s outside the cell. Index arithmetic is on values below the
    /// table's count, so it cannot overflow. Debug builds check every read (`assert`).
    @usableFromInline struct UnsafeLookup {
        @usableFromInline let pieces: UnsafeBufferPointer<CapacityPiece>
        @usableFromInline let timeGrid: UnsafeBufferPointer<Int32>
        @usableFromInline let timeCellsPerSecond: Double
        @usableFromInline let bitsGrid: UnsafeBufferPointer<Int32>
        @usableFromInline let bitsCellsPerBit: Double

        @inlinable init(
            pieces: UnsafeBufferPointer<CapacityPiece>, timeGrid: UnsafeBufferPointer<Int32>,
            timeCellsPerSecond: Double, bitsGrid: UnsafeBufferPointer<Int32>, bitsCellsPerBit: Double
        ) {
            self.pieces = pieces
            self.timeGrid = timeGrid
            self.timeCellsPerSecond = timeCellsPerSecond
            self.bitsGrid = bitsGrid
            self.bitsCellsPerBit = bitsCellsPerBit
        }

        /// Record `index` of the table (0…n).
        @inlinable @inline(__always) func piece(_ index: Int) -> CapacityPiece {
            assert(index >= 0 && index < pieces.count)
            return pieces.baseAddress.unsafelyUnwrapped[index]
        }

        @inlinable @inline(__always) func timeCell(_ index: Int) -> Int {
            assert(index >= 0 && index < timeGrid.count)
            return Int(truncatingIfNeeded: timeGrid.baseAddress.unsafelyUnwrapped[index])
        }

        @inlinable @inline(__always) func bitsCell(_ index: Int) -> Int {
            assert(index >= 0 && index < bitsGrid.count)
            return Int(truncatingIfNeeded: bitsGrid.baseAddress.unsafelyUnwrapped[index])
        }

        /// The largest piece index i with `starts[i] ≤ u`, for u in [0, duration): one grid cell, then a binary
        /// search among the pieces of that cell (checked against u, so rounding in the cell number can never give
        /// a wrong piece).
        @inlinable @inline(__always) func pieceIndex(_ u: Double) -> Int {
            let n = pieces.count &- 1
            let cell = min(Int(u * timeCellsPerSecond), timeGrid.count &- 2)
            var base = timeCell(cell)
            var last = timeCell(cell &+ 1)
            if piece(base).start > u { base = 0 }
            if last &+ 1 < n, piece(last &+ 1).start <= u { last = n &- 1 }
            var length = last &- base &+ 1
            while length > 1 {
                let half = length >> 1
                base = piece(base &+ half).start <= u ? base &+ half : base
                length &-= half
            }
            return base
        }

        /// ``pieceIndex(_:)`` from a cursor: `hint` (a piece index from an earlier look-up, or −1) itself when u
        /// falls in it, else the piece before it, else a step forward of at most ``CapacityCurve/nearbyPieces``,
        /// else the grid. The same answer as ``pieceIndex(_:)``: each shortcut returns i only after checking
        /// `start[i] ≤ u < start[i + 1]`, which holds for exactly one i (the closing record starts at `duration`,
        /// beyond u, so each step stays within the table).
        @inlinable @inline(__always) func pieceIndex(_ u: Double, from hint: Int, duration: Double) -> Int {
            let n = pieces.count &- 1
            var i = hint
            guard i >= 0, i < n else { return pieceIndex(u) }
            let start = piece(i).start
            if start > u {
                if i > 0, piece(i &- 1).start <= u { return i &- 1 }
                return pieceIndex(u)
            }
            // A step of more than twice `nearbyPieces` average pieces (a completion seconds ahead, say) goes
            // straight to the grid.
            guard (u - start) * Double(n) <= Double(2 * CapacityCurve.nearbyPieces) * duration else {
                return pieceIndex(u)
            }
            for _ in 0..<CapacityCurve.nearbyPieces {
                if piece(i &+ 1).start > u { return i }
                i &+= 1
            }
            return pieceIndex(u)
        }

        /// ``periodTime(_:)`` from a cursor: when s falls in the cursor's piece c or the next one (bitsBefore[c] <
        /// s ≤ bitsBefore[c + 1], true of exactly one c), that piece without a search; `hint` is left at the piece
        /// the answer falls in. The same answer as ``periodTime(_:)``, by the same last steps.
        @inlinable @inline(__always) func periodTime(_ s: Double, from hint: inout Int) -> Double {
            let n = pieces.count &- 1
            var c = hint
            if c >= 0, c < n, piece(c).bitsBefore < s {
                if s > piece(c &+ 1).bitsBefore { c &+= 1 }
                if c < n, s <= piece(c &+ 1).bitsBefore, piece(c).bitsBefore < s {
                    hint = c
                    return periodEnd(s, in: c)
                }
            }
            let j = firstPieceReaching(s)
            hint = j &- 1
            return periodEnd(s, in: j &- 1)
        }

        /// The smallest u in [0, duration] with periodBits(u) ≥ s, for s in (0, total].
        @inlinable @inline(__always) func periodTime(_ s: Double) -> Double {
            periodEnd(s, in: firstPieceReaching(s) &- 1)
        }

        /// Where in piece `i` (bitsBefore[i] < s ≤ bitsBefore[i + 1]) the period's bits reach s.
        @inlinable @inline(__always) func periodEnd(_ s: Double, in i: Int) -> Double {
            let found = piece(i)
            let end = piece(i &+ 1).start
            guard found.rateBps > 0 else { return end }
            return min(end, found.start + (s - found.bitsBefore) / found.rateBps)
        }

        /// The first j in 1...n with bitsBefore[j] ≥ s, for s in (0, total]; piece j − 1 then has bitsBefore[j−1] <
        /// s ≤ bitsBefore[j], so its rate is > 0.
        @inlinable @inline(__always) func firstPieceReaching(_ s: Double) -> Int {
            let cell = min(Int(s * bitsCellsPerBit), bitsGrid.count &- 2)
            var base = bitsCell(cell)
            var last = bitsCell(cell &+ 1)
            if piece(base &- 1).bitsBefore >= s { base = 1 }
            if piece(last).bitsBefore < s { last = pieces.count &- 1 }
            var length = last &- base &+ 1
            while length > 1 {
                let half = length >> 1
                base = piece(base &+ half &- 1).bitsBefore < s ? base &+ half : base
                length &-= half
            }
            return base
        }
    }

    /// For a looping curve with a positive total, splits s > 0 into k whole periods and a remainder in (0, total].
    @inlinable @inline(__always) func splitLoops(_ s: Double) -> (k: Double, remainder: Double) {
        let total = totalBitsPerPeriod
        var k = (s / total).rounded(.up) - 1
        var remainder = s - k * total
        if remainder > total {
            k += 1
            remainder -= total
        }
        if remainder <= 0 {
            k -= 1
            remainder += total
        }
        return (k, min(max(remainder, .leastNonzeroMagnitude), total))
    }
}

extension CapacityCurve {
    /// The curve's ``ZeroCapacityIndex`` for stretches of at least `minimumLength` seconds: built on first use
    /// (O(pieces)), then shared by every run on this curve, on any thread.
    func zeroCapacityIndex(minimumLength: Double) -> ZeroCapacityIndex {
        zeroCapacityIndexes.index(minimumLength: minimumLength) { ZeroCapacityIndex(self, minimumLength: $0) }
    }
}

/// One piece of a ``CapacityCurve`` as its look-ups read it: where it starts (seconds into the period), its rate
/// (bit/s), the bits delivered in the period before it, and its latency (seconds; 0 when the curve has none).
@frozen @usableFromInline struct CapacityPiece: Sendable {
    @usableFromInline var start: Double
    @usableFromInline var rateBps: Double
    @usableFromInline var bitsBefore: Double
    @usableFromInline var latency: Double

    @usableFromInline init(start: Double, rateBps: Double, bitsBefore: Double, latency: Double) {
        self.start = start
        self.rateBps = rateBps
        self.bitsBefore = bitsBefore
        self.latency = latency
    }
}

/// The memo behind ``CapacityCurve/zeroCapacityIndex(minimumLength:)``: a class, so that the curve stays a value
/// whose copies share what was computed from it, guarded for runs on several threads.
final class ZeroCapacityIndexMemo: Sendable {
    private let indexes = Mutex<[Double: ZeroCapacityIndex]>([:])

    /// The index for `minimumLength`, made by `build` the first time.
    func index(minimumLength: Double, build: (Double) -> ZeroCapacityIndex) -> ZeroCapacityIndex {
        if let index = indexes.withLock({ $0[minimumLength] }) { return index }
        let index = build(minimumLength)
        indexes.withLock { $0[minimumLength] = index }
        return index
    }
}
