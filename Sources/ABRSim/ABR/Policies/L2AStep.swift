/// One STEADY decision of dash.js's L2A-LL (`_handleSteadyState` in `L2ARule.js`, v5.1.1), as a pure value: the
/// Lagrangian descent on w, its projection on the simplex, the update of Q, the choice and its cautious ascent.
///
/// Inputs as ``L2ALLPolicy`` describes them: the ladder in kbit/s and in bit/s, w_prev, Q, the last throughput sample
/// c (kbit/s, ≥ 1), the last segment's duration V (s), the playback rate ρ, the current variant, VL, α and REACT.
/// Made by ``L2ALLPolicy`` and by tests that follow dash.js's arithmetic step by step.
public struct L2AStep: Sendable, Equatable {
    /// w before projection (the Lagrangian descent step).
    public let descent: [Double]
    /// w after projection: the new w_prev.
    public let weights: [Double]
    /// Q after the update (and the over-estimation reaction).
    public let q: Double
    /// argmin_i |b_i − b·w| before the cautious ascent.
    public let closest: Int
    /// The variant chosen.
    public let choice: Int

    /// Runs the step.
    public init(
        kbps: [Double], bps: [Double], previous: [Double], q: Double, throughputKbps c: Double,
        segmentDuration v: Double, playbackRate rate: Double, current: Int, vl: Double, alpha: Double, react: Double
    ) {
        var sign = 1.0
        var w = [Double](repeating: 0, count: kbps.count)
        for i in kbps.indices {
            if rate * kbps[i] > c { sign = -1 }
            w[i] = previous[i] + sign * (v / (2 * alpha)) * ((q + vl) * (rate * kbps[i] / c))
        }
        descent = w
        w = Self.euclideanProjection(w)
        weights = w
        let diff = zip(w, previous).map { $0 - $1 }
        var newQ = max(0, q - v + v * rate * ((Self.dot(bps, w) + Self.dot(bps, diff)) / c))
        let mean = Self.dot(w, bps)
        var best = 0
        var bestDistance = Double.infinity
        for i in bps.indices where abs(bps[i] - mean) < bestDistance {
            bestDistance = abs(bps[i] - mean)
            best = i
        }
        closest = best
        var chosen = best
        if chosen > current, current + 1 < bps.count, bps[current + 1] <= c { chosen = current + 1 }
        if kbps[chosen] >= c { newQ = react * max(vl, newQ) }
        self.q = newQ
        choice = chosen
    }

    /// Σ aᵢbᵢ, summed in index order.
    public static func dot(_ a: [Double], _ b: [Double]) -> Double {
        var sum = 0.0
        for i in a.indices { sum = sum + a[i] * b[i] }
        return sum
    }

    /// The Euclidean projection of `y` on the probability simplex (Chen & Ye, arXiv:1101.6081), in dash.js's
    /// order of operations: sort descending; the first t = (Σ_{j≤i} s_j − 1)/(i + 1) with t ≥ s_(i+1), else
    /// (Σ s − 1)/m; x_i = max(y_i − t, 0).
    public static func euclideanProjection(_ y: [Double]) -> [Double] {
        let m = y.count
        let s = y.sorted(by: >)
        var sum = 0.0
        var t = 0.0
        var found = false
        for i in 0..<max(m - 1, 0) {
            sum = sum + s[i]
            t = (sum - 1) / Double(i + 1)
            if t >= s[i + 1] {
                found = true
                break
            }
        }
        if !found, m > 0 { t = (sum + s[m - 1] - 1) / Double(m) }
        return y.map { max($0 - t, 0) }
    }
}
