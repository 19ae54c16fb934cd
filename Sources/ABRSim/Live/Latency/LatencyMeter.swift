/// A live player's latency over its session, kept exactly as the piecewise-linear function it is.
///
/// Between two events latency L(t) = live edge − playhead moves linearly, with slope 1 − rate while the playhead
/// advances and 1 while it is frozen (a stall, a pause), and jumps at seeks. The player observes it after each
/// event; the meter keeps one piece per stretch of constant slope (collinear pieces merge), so a steady player
/// holds a few pieces whatever the session's length. Times and latencies in seconds. Owned by the player; its
/// ``summary(targetSeconds:catchUpSeeks:)`` goes into `summary.csv`.
public struct LatencyMeter: Sendable {
    /// One stretch: latency `start` at `from`, changing by `slope` per second until `to`.
    public struct Piece: Sendable, Equatable {
        /// Start time.
        public var from: Double
        /// End time.
        public var to: Double
        /// Latency at `from`.
        public var start: Double
        /// dL/dt.
        public var slope: Double

        /// Latency at `to`.
        public var end: Double { start + slope * (to - from) }
        /// ∫ L dt over the piece.
        var integral: Double { (to - from) * (start + end) / 2 }

        /// The time within the piece during which L > `level`.
        func timeAbove(_ level: Double) -> Double {
            let length = to - from
            if slope == 0 { return start > level ? length : 0 }
            let crossing = (level - start) / slope  // seconds after `from` where L = level
            if slope > 0 { return length - min(max(crossing, 0), length) }
            return min(max(crossing, 0), length)
        }
    }

    /// The pieces so far, in time order.
    public private(set) var pieces: [Piece] = []
    /// The last observation: time, latency, slope from then on.
    private var last: (time: Double, latency: Double, slope: Double)?

    /// An empty meter.
    public init() {}

    /// Latency is `latency` at `time` and changes by `slope` per second from now on.
    public mutating func observe(time: Double, latency: Double, slope: Double) {
        if let last, time > last.time {
            let piece = Piece(from: last.time, to: time, start: last.latency, slope: last.slope)
            if let previous = pieces.last, previous.slope == piece.slope, previous.to == piece.from,
                abs(previous.end - piece.start) <= SimulationTime.tolerance
            {
                pieces[pieces.count - 1].to = time
            } else {
                pieces.append(piece)
            }
        }
        last = (time, latency, slope)
    }

    /// Stops observing at `time` (the player ended, or the run stopped).
    public mutating func close(at time: Double) {
        guard let last else { return }
        observe(time: time, latency: last.latency + last.slope * (time - last.time), slope: last.slope)
        self.last = nil
    }

    /// Seconds observed.
    public var seconds: Double { pieces.reduce(0) { $0 + ($1.to - $1.from) } }

    /// The time-weighted mean latency (`nil` before any piece).
    public var mean: Double? {
        let total = seconds
        guard total > 0 else { return nil }
        return pieces.reduce(0) { $0 + $1.integral } / total
    }

    /// Seconds with latency above `level`.
    public func timeAbove(_ level: Double) -> Double { pieces.reduce(0) { $0 + $1.timeAbove(level) } }

    /// The time-weighted `fraction` quantile: the least q with latency ≤ q for that fraction of the time, found by
    /// bisection to the last bit (`nil` before any piece).
    public func quantile(_ fraction: Double) -> Double? {
        let total = seconds
        guard total > 0 else { return nil }
        var low = pieces.map { min($0.start, $0.end) }.min()!
        var high = pieces.map { max($0.start, $0.end) }.max()!
        let allowedAbove = (1 - fraction) * total
        for _ in 0..<200 {
            let middle = low + (high - low) / 2
            if middle <= low || middle >= high { break }
            if timeAbove(middle) <= allowedAbove { high = middle } else { low = middle }
        }
        return high
    }

    /// The meter's figures for `summary.csv`, against the target latency `targetSeconds`.
    public func summary(targetSeconds: Double, catchUpSeeks: Int) -> LiveSummary {
        LiveSummary(
            latencyMeanSeconds: mean, latencyP95Seconds: quantile(0.95),
            timeAboveTargetLatencySeconds: timeAbove(targetSeconds + SimulationTime.tolerance),
            catchUpSeeks: catchUpSeeks)
    }
}

/// A live player's latency figures: the live columns of `summary.csv` (seconds; `nil` when playback never
/// started). Made by ``LatencyMeter/summary(targetSeconds:catchUpSeeks:)``.
public struct LiveSummary: Sendable, Equatable {
    /// Time-weighted mean latency from the first frame to the end (`latency_mean_s`).
    public var latencyMeanSeconds: Double?
    /// Time-weighted 95th percentile of the latency (`latency_p95_s`).
    public var latencyP95Seconds: Double?
    /// Seconds with latency above the target (`time_above_target_latency_s`).
    public var timeAboveTargetLatencySeconds: Double
    /// Seeks the catch-up controller made because the drift exceeded its maximum (`catchup_seeks`).
    public var catchUpSeeks: Int
}
