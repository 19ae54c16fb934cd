/// The stretches where a capacity curve delivers nothing (zero-rate pieces, merged), for finding in O(log n)
/// when a flow with a positive share first goes a request timeout without data.
///
/// Built once per player and link (O(pieces)) by the request timeout (``Player/reviewRequestTimeout(horizon:at:)``).
/// Times are absolute simulated seconds; a looping curve repeats its stretches every period, and a stretch that
/// runs over the end of the period into the start of the next one is one stretch. Past the end of a `hold` or
/// `end` curve there are no stretches (a network that delivers nothing more fails its players at once).
struct ZeroCapacityIndex {
    /// Zero-capacity stretches of one period, in local time, sorted; with `wraps` the last one runs on past the
    /// period's end for `wrapSeconds` (the first stretch of the next period, left out of the list).
    let stretches: [(start: Double, end: Double)]
    let period: Double
    let loops: Bool
    let wrapSeconds: Double
    /// Whether the whole period is at zero (then a looping curve never delivers).
    let isAllZero: Bool

    /// The index of `curve`.
    init(_ curve: CapacityCurve) {
        period = curve.duration
        loops = curve.atEnd == .loop
        var runs: [(start: Double, end: Double)] = []
        for index in curve.starts.indices where curve.ratesBps[index] <= 0 {
            let start = curve.starts[index]
            let end = index + 1 < curve.starts.count ? curve.starts[index + 1] : curve.duration
            if let last = runs.last, last.end == start {
                runs[runs.count - 1].end = end
            } else {
                runs.append((start, end))
            }
        }
        isAllZero = runs.count == 1 && runs[0].start == 0 && runs[0].end == period
        if loops, !isAllZero, runs.count > 1, runs[0].start == 0, runs[runs.count - 1].end == period {
            wrapSeconds = runs[0].end
            runs.removeFirst()
        } else {
            wrapSeconds = 0
        }
        stretches = runs
    }

    /// The length of stretch `i` of a period, including its wrap into the next.
    func length(_ i: Int) -> Double {
        stretches[i].end - stretches[i].start + (i == stretches.count - 1 ? wrapSeconds : 0)
    }

    /// (period number, local time) of `t`, or `nil` past the end of a curve that does not loop.
    func split(_ t: Double) -> (k: Double, u: Double)? {
        if t < period { return (0, max(t, 0)) }
        guard loops else { return nil }
        let k = (t / period).rounded(.down)
        return (k, min(max(t - k * period, 0), period))
    }

    /// The zero stretch containing `t` (start ≤ t < end), absolute.
    func stretch(containing t: Double) -> (start: Double, end: Double)? {
        guard let (k, u) = split(t), !isAllZero else { return nil }
        let base = k * period
        if wrapSeconds > 0, u < wrapSeconds, let last = stretches.last {
            return (base - period + last.start, base + wrapSeconds)
        }
        let i = firstIndex(startingAfter: u) - 1
        guard i >= 0, u < stretches[i].end + (i == stretches.count - 1 ? wrapSeconds : 0) else { return nil }
        return (base + stretches[i].start, base + stretches[i].start + length(i))
    }

    /// The start of the first stretch beginning strictly after `t` that lasts at least `seconds`, absolute.
    func firstStretch(after t: Double, lasting seconds: Double) -> Double? {
        guard let (k, u) = split(t), !isAllZero else { return nil }
        var i = firstIndex(startingAfter: u)
        while i < stretches.count {
            if length(i) >= seconds { return k * period + stretches[i].start }
            i += 1
        }
        guard loops else { return nil }
        for j in stretches.indices where length(j) >= seconds { return (k + 1) * period + stretches[j].start }
        return nil
    }

    /// The number of stretches starting at or before `u` (binary search).
    func firstIndex(startingAfter u: Double) -> Int {
        var low = 0
        var high = stretches.count
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].start <= u { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
