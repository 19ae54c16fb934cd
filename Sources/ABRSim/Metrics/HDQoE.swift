/// The HD QoE (`qoe_hd`; Pensieve's `HD_REWARD`): q maps Pensieve's ladder {300, 750, 1200, 1850, 2850, 4300}
/// kbit/s to {1, 2, 3, 12, 15, 20}, μ = 8, λ = 1. Other ladders: ``qualities(ladderBps:)``. Registered as `hd`.
public struct HDQoE: QoEFunction {
    /// Pensieve's `HD_REWARD`, one per rung of ``PensieveProfile/ladderKbps``.
    public static let rewards: [Double] = [1, 2, 3, 12, 15, 20]

    /// The model.
    public init() {}

    public var name: String { "hd" }

    public var defaultWeights: QoEWeights { QoEWeights(rebufferPenalty: 8) }

    public func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] {
        if let explicit, explicit.count == ladderBps.count { return explicit }
        return Self.qualities(ladderBps: ladderBps)
    }

    /// The rung's value when R is a rung of the ladder; off the ladder, the linear interpolation between the
    /// rungs around R (clamped at the ends).
    public func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double {
        guard let first = ladderBps.first, let last = ladderBps.last else { return 0 }
        if bitrateBps <= first { return qualities[0] }
        if bitrateBps >= last { return qualities[qualities.count - 1] }
        let upper = ladderBps.firstIndex { $0 >= bitrateBps }!
        if ladderBps[upper] == bitrateBps { return qualities[upper] }
        let fraction = (bitrateBps - ladderBps[upper - 1]) / (ladderBps[upper] - ladderBps[upper - 1])
        return qualities[upper - 1] + (qualities[upper] - qualities[upper - 1]) * fraction
    }

    /// The HD rewards of a ladder: Pensieve's table where every rung's bitrate (rounded to a kbit/s) is one of
    /// Pensieve's rungs; otherwise the table stretched over the ladder by rung index: rung i of N sits at
    /// position p = 5·i/(N − 1) of the six-entry table and gets the linear interpolation between the entries
    /// ⌊p⌋ and ⌈p⌉ (so the lowest rung scores 1, the top one 20, and a six-rung ladder gets the table exactly).
    /// A one-rung ladder scores 1. Give an explicit table instead when the ladder's rungs mean something else.
    public static func qualities(ladderBps: [Double]) -> [Double] {
        let table = rewards
        let ladder = PensieveProfile.ladderKbps
        let kbps = ladderBps.map { ($0 / 1000).rounded() }
        if kbps.allSatisfy({ ladder.contains($0) }) {
            return kbps.map { table[ladder.firstIndex(of: $0)!] }
        }
        let n = ladderBps.count
        guard n > 1 else { return Array(repeating: table[0], count: n) }
        return (0..<n).map { i in
            let position = Double(table.count - 1) * Double(i) / Double(n - 1)
            let low = Int(position.rounded(.down))
            let high = min(low + 1, table.count - 1)
            let fraction = position - Double(low)
            return table[low] + (table[high] - table[low]) * fraction
        }
    }
}
