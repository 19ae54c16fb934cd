#if canImport(Glibc)
    import Glibc
#endif

/// The space `tune` and `tune --calibrate` search: the weights of the priority levels some player uses,
/// as ratios to the lowest of those levels (only ratios matter to weighted sharing).
///
/// Nelder–Mead works on unconstrained coordinates. Ordered (`tune`): coordinate k is the log of the ratio of
/// level k + 1 to level k, used through its absolute value, so every point keeps `low ≤ default ≤ high` — the
/// meaning of the names. Free (`--calibrate`): coordinate k is the log of level k + 1's ratio to the lowest
/// level, any sign. Ratios are kept within 1/10⁴ … 10⁴.
public struct WeightSpace: Sendable, Equatable {
    /// The levels in use, lowest first; the first has weight 1 relative to the others.
    public var levels: [NetworkResourcePriority]
    /// Whether points keep the levels' order (`tune`) or may not (`--calibrate`).
    public var isOrdered: Bool

    /// The largest log-ratio a coordinate may reach.
    static let logLimit = 9.210340371976184  // ln 10⁴

    /// The space over the distinct levels of `priorities`.
    public init(priorities: [NetworkResourcePriority], isOrdered: Bool) {
        levels = NetworkResourcePriority.allCases.filter { priorities.contains($0) }
        self.isOrdered = isOrdered
    }

    /// How many coordinates a point has (levels in use − 1).
    public var dimension: Int { max(0, levels.count - 1) }

    /// `base` with the levels in use set to `ratios` (one per level after the first) times the first's weight 1.
    /// In an ordered space a level nobody uses keeps its weight from `base`, moved between its neighbours in use
    /// when needed so the table stays ordered (it changes no run, only how the table reads).
    public func table(ratios: [Double], base: PriorityWeights) -> PriorityWeights {
        var table = base
        guard let first = levels.first else { return table }
        table.set(first, 1)
        for (level, ratio) in zip(levels.dropFirst(), ratios) { table.set(level, ratio) }
        guard isOrdered else { return table }
        let all = NetworkResourcePriority.allCases
        for (position, level) in all.enumerated() where !levels.contains(level) {
            let below = all[..<position].last { levels.contains($0) }.map { table.weight($0) } ?? 0
            let above = all[(position + 1)...].first { levels.contains($0) }.map { table.weight($0) } ?? .infinity
            let weight = min(max(table.weight(level), below), above)
            table.set(level, weight)
        }
        return table
    }

    /// The ratios of the levels after the first to the first, in `table`.
    public func ratios(of table: PriorityWeights) -> [Double] {
        guard let first = levels.first else { return [] }
        return levels.dropFirst().map { table.weight($0) / table.weight(first) }
    }

    /// The ratios at unconstrained coordinates `point`.
    public func ratios(at point: [Double]) -> [Double] {
        if isOrdered {
            var sum = 0.0
            return point.map { coordinate in
                sum = min(sum + abs(coordinate), Self.logLimit)
                return exp(sum)
            }
        }
        return point.map { exp(min(max($0, -Self.logLimit), Self.logLimit)) }
    }

    /// The coordinates of `ratios` (the inverse of ``ratios(at:)`` within its range).
    public func point(ratios: [Double]) -> [Double] {
        let logs = ratios.map { log(max($0, 1e-300)) }
        guard isOrdered else { return logs }
        return logs.indices.map { $0 == 0 ? logs[0] : logs[$0] - logs[$0 - 1] }
    }

    /// Every combination of `values` as ratios (one per coordinate), in lexicographic order; ordered spaces keep
    /// only non-decreasing combinations of values ≥ 1.
    public func grid(_ values: [Double]) -> [[Double]] {
        var combinations: [[Double]] = [[]]
        for _ in 0..<dimension {
            var next: [[Double]] = []
            for prefix in combinations {
                for value in values {
                    if isOrdered && value < max(prefix.last ?? 1, 1) { continue }
                    next.append(prefix + [value])
                }
            }
            combinations = next
        }
        return dimension == 0 ? [] : combinations
    }
}

extension PriorityWeights {
    /// Sets the weight of `level`.
    mutating func set(_ level: NetworkResourcePriority, _ weight: Double) {
        switch level {
        case .low: low = weight
        case .default: standard = weight
        case .high: high = weight
        }
    }
}
