/// A network trace as read from a file: piecewise-constant capacity over one period, before an end behaviour
/// is chosen.
///
/// Produced by ``TraceReader`` (one reader per ``TraceFormat``) and by synthetic generators; turned into the
/// simulator's ``CapacityCurve`` by ``curve(atEnd:)`` or spliced into a ``NetworkTimeline``; written back out by
/// ``TraceWriter``. Times are seconds from the trace's start, rates bit/s.
public struct Trace: Sendable {
    /// The longest trace the readers accept: 10⁷ s (about 116 days). Real traces last minutes to hours; a longer
    /// one is almost always a unit mistake (microseconds read as milliseconds), and its 1-s statistics would not
    /// fit in memory. Readers report the line (or JSON path) that goes past it.
    public static let maximumDurationSeconds = 10_000_000.0

    /// The highest rate the readers accept: 10¹⁵ bit/s (1 Pbit/s), far above any access link; higher rates would
    /// overflow the bits delivered over a long trace.
    public static let maximumRateBps = 1e15

    /// The lowest positive rate the readers accept: 1 bit/s. A rate of 0 is an outage; a positive rate below 1 bit/s
    /// (1e-300 Mbit/s, a denormal) would stretch one segment's download past 10³⁰⁰ s.
    public static let minimumPositiveRateBps = 1.0

    /// Whether `rateBps` is 0 or at least ``minimumPositiveRateBps``.
    static func isReadableSlowRate(_ rateBps: Double) -> Bool {
        rateBps == 0 || rateBps >= minimumPositiveRateBps
    }

    /// The problem of a positive rate below ``minimumPositiveRateBps``: `rate must be 0 (no capacity) or at least
    /// 1 bit/s, got 0.5 bit/s`.
    static func tooSlow(_ rateBps: Double) -> InputProblem {
        .mustBe("rate", rule: "0 (no capacity) or at least 1 bit/s", found: TraceText.format(rateBps), unit: "bit/s")
    }

    /// The problem of a rate above ``maximumRateBps``: `rate 2e+15 bit/s, more than the limit of 10^15 bit/s`.
    static func tooFast(_ rateBps: Double) -> InputProblem {
        .overLimit("rate \(TraceText.format(rateBps)) bit/s", limit: "10^15 bit/s")
    }

    /// The problem of `what` (a timestamp, a period's end) that lies `seconds` after the trace's start, past
    /// ``maximumDurationSeconds``: `timestamp 2e10 ms, 2e+07 s after the start, more than the limit of 1e+07 s
    /// (about 116 days)`.
    static func tooLong(_ what: String, _ seconds: Double) -> InputProblem {
        .overLimit(
            "\(what), \(TraceText.format(seconds)) s after the start",
            limit: "\(TraceText.format(maximumDurationSeconds)) s (about 116 days)")
    }

    /// The file name (last path component) the trace came from, used as its label in plots and CSV.
    public var name: String
    /// Piece starts in seconds: strictly increasing, the first is 0.
    public var starts: [Double]
    /// Piece rates in bit/s (finite, ≥ 0).
    public var ratesBps: [Double]
    /// Length of the period in seconds (end of the last piece).
    public var duration: Double
    /// Per-piece latency (RTT before the first byte) in seconds, when the format carries one (sabre, CSV).
    public var latencySeconds: [Double]?
    /// Per-piece loss rate in [0, 1], when the format carries one (CSV).
    public var lossRates: [Double]?
    /// The rate after `duration` that `hold` keeps, when it differs from the last piece's: the bandwidth of a CSV
    /// trace's final row, which marks the end of the trace. `nil` means the last piece's rate.
    public var finalRateBps: Double?
    /// The latency of a CSV trace's final row (kept by `hold`); `nil` means the last piece's.
    public var finalLatencySeconds: Double?
    /// The loss rate of a CSV trace's final row (kept by `hold`); `nil` means the last piece's.
    public var finalLossRate: Double?
    /// Where each piece came from in its file, so a problem found later names the line or JSON path; `nil` for
    /// generated traces (their decoder names the place).
    public var places: TracePlaces?

    /// Creates a trace; the shape is checked when it becomes a curve (``curve(atEnd:)``).
    public init(
        name: String, starts: [Double], ratesBps: [Double], duration: Double, latencySeconds: [Double]? = nil,
        lossRates: [Double]? = nil, finalRateBps: Double? = nil, finalLatencySeconds: Double? = nil,
        finalLossRate: Double? = nil
    ) {
        self.name = name
        self.starts = starts
        self.ratesBps = ratesBps
        self.duration = duration
        self.latencySeconds = latencySeconds
        self.lossRates = lossRates
        self.finalRateBps = finalRateBps
        self.finalLatencySeconds = finalLatencySeconds
        self.finalLossRate = finalLossRate
    }

    /// The capacity curve of this trace with the given end behaviour; throws an ``InputError`` naming the trace
    /// if its shape is invalid (readers already guarantee a valid shape).
    public func curve(atEnd: TraceEndBehavior) throws -> CapacityCurve {
        do {
            return try CapacityCurve(
                starts: starts, ratesBps: ratesBps, duration: duration, latencySeconds: latencySeconds,
                lossRates: lossRates, atEnd: atEnd, holdRateBps: finalRateBps, holdLatencySeconds: finalLatencySeconds,
                holdLossRate: finalLossRate)
        } catch let error as InputError {
            throw places?.locate(error) ?? error
        }
    }

    /// The number of pieces.
    public var pieceCount: Int { starts.count }

    /// The end of piece `i` in seconds (the next start, or `duration` for the last).
    public func end(ofPiece i: Int) -> Double { i + 1 < starts.count ? starts[i + 1] : duration }

    /// Bits delivered over one period.
    public var totalBits: Double {
        var total = 0.0
        for i in 0..<starts.count { total += ratesBps[i] * (end(ofPiece: i) - starts[i]) }
        return total
    }
}
