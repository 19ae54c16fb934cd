/// Jain's fairness index J = (Σxᵢ)² / (n·Σxᵢ²) of non-negative values: 1 when all are equal, 1/n when one
/// player has everything. `nil` for no values, a negative value, or all zeros (undefined). With `weights`, the
/// index of xᵢ/wᵢ (priority-weighted: a player with twice the weight "should" get twice as much).
public func jainIndex(_ values: [Double], weights: [Double]? = nil) -> Double? {
    guard !values.isEmpty, values.allSatisfy({ $0 >= 0 && $0.isFinite }) else { return nil }
    var sum = 0.0
    var squares = 0.0
    for (index, value) in values.enumerated() {
        let x = weights.map { value / $0[index] } ?? value
        sum += x
        squares += x * x
    }
    guard squares > 0 else { return nil }
    return sum * sum / (Double(values.count) * squares)
}

/// The fairness of a multi-player run (DESIGN §2.6, reference-literature §2.2): Jain's index over players'
/// throughput, average bitrate and linear QoE, plain and weighted by priority, and FESTIVE's unfairness
/// √(1 − J) over bitrate. Written on every `summary.csv` row of the run; `nil` fields are left empty.
public struct FairnessSummary: Sendable, Equatable {
    /// J over each player's average received rate during its session.
    public var throughput: Double?
    /// J over average bitrate.
    public var bitrate: Double?
    /// J over `qoe_lin` (undefined when any QoE is negative).
    public var qoe: Double?
    /// The same three, each value divided by the player's priority weight.
    public var throughputWeighted: Double?
    public var bitrateWeighted: Double?
    public var qoeWeighted: Double?
    /// FESTIVE's unfairness √(1 − J_bitrate).
    public var unfairness: Double?
    /// Why `jain_qoe` (and its weighted form) is empty, when it is: `negative_qoe` when some player's `qoe_lin` is
    /// below 0 (Jain's index is defined for non-negative allocations only, Jain, Chiu & Hawe 1984; no shift is
    /// applied, because any shift — by the lowest value, say — changes the index with the arbitrary zero of the
    /// QoE scale), `all_zero` when every `qoe_lin` is 0; `nil` when the index is defined.
    public var qoeUndefinedReason: String?

    /// Fairness over players with these per-player values and priority weights.
    public init(throughputs: [Double], bitrates: [Double], qoes: [Double], weights: [Double]) {
        throughput = jainIndex(throughputs)
        bitrate = jainIndex(bitrates)
        qoe = jainIndex(qoes)
        throughputWeighted = jainIndex(throughputs, weights: weights)
        bitrateWeighted = jainIndex(bitrates, weights: weights)
        qoeWeighted = jainIndex(qoes, weights: weights)
        unfairness = bitrate.map { max(0, 1 - $0).squareRoot() }
        if qoes.contains(where: { $0 < 0 }) {
            qoeUndefinedReason = "negative_qoe"
        } else if !qoes.isEmpty && qoes.allSatisfy({ $0 == 0 }) {
            qoeUndefinedReason = "all_zero"
        }
    }
}
