/// The stretches where a capacity curve delivers nothing for at least a given time (zero-rate pieces, merged),
/// for finding in O(log n) the next place a flow with a positive share goes a request timeout without data.
///
/// Built for the request timeout (``Player/longStretchDeadline(after:horizon:timeout:)``) only when a review looks
/// further ahead than the timeout: O(pieces) once per curve and timeout, then kept with the curve
/// (``CapacityCurve/zeroCapacityIndex(minimumLength:)``), so runs sharing a curve share it. Times are absolute
/// simulated seconds; a looping curve repeats its stretches every period, and a stretch that runs over the end of
/// the period into the start of the next one is one stretch. Past the end of a `hold` or `end` curve there are
/// none (a network that delivers nothing more fails its players at once).
struct ZeroCapacityIndex: Sendable {
    /// Starts (local time in one period, sorted) of the zero stretches lasting at least the minimum length.
    let starts: [Double]
    let period: Double
    let loops: Bool

    /// The stretches of `curve` lasting at least `minimumLength` seconds: one pass over the pieces, keeping only
    /// the long stretches.
    init(_ curve: CapacityCurve, minimumLength: Double) {
        period = curve.duration
        loops = curve.atEnd == .loop
        var found: [Double] = []
        var runStart: Double?
        var firstRunEnd: Double?
        for index in curve.starts.indices {
            if curve.ratesBps[index] <= 0 {
                if runStart == nil { runStart = curve.starts[index] }
            } else if let start = runStart {
                let end = curve.starts[index]
                if start == 0 { firstRunEnd = end }
                if end - start >= minimumLength { found.append(start) }
                runStart = nil
            }
        }
        if let start = runStart {
            if start == 0 {
                found = []  // all zero: a looping curve never delivers; the network-ends path fails the players
            } else if loops, let firstEnd = firstRunEnd {
                // The stretch at the end of a period goes on into the next one.
                if found.first == 0 { found.removeFirst() }
                if period - start + firstEnd >= minimumLength { found.append(start) }
            } else if period - start >= minimumLength {
                found.append(start)
            }
        }
        starts = found
    }

    /// The start of the first stretch beginning strictly after `t`, absolute.
    func firstStretch(after t: Double) -> Double? {
        guard let first = starts.first else { return nil }
        if t < 0 { return first }
        var k = 0.0
        var u = t
        if t >= period {
            guard loops else { return nil }
            k = (t / period).rounded(.down)
            u = t - k * period
        }
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= u { low = middle + 1 } else { high = middle }
        }
        if low < starts.count { return k * period + starts[low] }
        return loops ? (k + 1) * period + first : nil
    }
}
