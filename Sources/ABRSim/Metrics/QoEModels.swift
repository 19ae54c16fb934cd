#if canImport(Glibc)
    import Glibc

    /// ln x (a free function, as `QoEModel.log` shadows `log` inside the enum).
    @inline(__always) private func naturalLog(_ x: Double) -> Double { Glibc.log(x) }
#elseif canImport(Darwin)
    import Darwin

    /// ln x (a free function, as `QoEModel.log` shadows `log` inside the enum).
    @inline(__always) private func naturalLog(_ x: Double) -> Double { Darwin.log(x) }
#endif

/// The QoE family of MPC and Pensieve: QoE = Σₙ q(Rₙ) − μ·Σₙ Tₙ − λ·Σₙ |q(Rₙ₊₁) − q(Rₙ)| − μₛ·T_startup, with Rₙ
/// the declared bitrate of segment n in play order and Tₙ its rebuffer (stall) seconds. The three published
/// quality functions q (reference-literature §6; Mao et al., "Neural Adaptive Video Streaming with Pensieve",
/// SIGCOMM 2017, and its `sim/` code; Yin et al., MPC, SIGCOMM 2015):
///
/// - ``linear``: q(R) = R in Mbit/s, μ = 4.3 (Pensieve `REBUF_PENALTY`); scored by the existing
///   ``QoEWeights/linear(bitratesBps:stallSeconds:startupSeconds:)``.
/// - ``log``: q(R) = ln(R / R_min), R_min the ladder's lowest bitrate, μ = 2.66.
/// - ``hd``: q maps Pensieve's ladder {300, 750, 1200, 1850, 2850, 4300} kbit/s to {1, 2, 3, 12, 15, 20}
///   (`HD_REWARD`), μ = 8. Other ladders: see ``QoEModel/hdQualities(ladderBps:)``.
///
/// λ defaults to 1 and μₛ to 0 for every model (startup is reported on its own, as in ``QoEWeights``).
public enum QoEModel: String, CaseIterable, Sendable {
    /// q(R) = R in Mbit/s.
    case linear
    /// q(R) = ln(R / R_min).
    case log
    /// Pensieve's HD reward table.
    case hd

    /// Pensieve's ladder (kbit/s) that the HD reward table is written for.
    public static let pensieveLadderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]
    /// Pensieve's `HD_REWARD`, one per rung of ``pensieveLadderKbps``.
    public static let pensieveHDRewards: [Double] = [1, 2, 3, 12, 15, 20]

    /// The published weights of this model: μ = 4.3 (linear), 2.66 (log), 8 (HD); λ = 1; μₛ = 0.
    public var defaultWeights: QoEWeights {
        var weights = QoEWeights()
        switch self {
        case .linear: weights.rebufferPenalty = 4.3
        case .log: weights.rebufferPenalty = 2.66
        case .hd: weights.rebufferPenalty = 8
        }
        return weights
    }

    /// q of every rung of a ladder (bit/s, ascending), lowest first.
    ///
    /// `hdRewards`, if given, is the HD table for this ladder (one value per rung) and overrides the default
    /// generalisation; it is ignored by the other models.
    public func qualities(ladderBps: [Double], hdRewards: [Double]? = nil) -> [Double] {
        switch self {
        case .linear: return ladderBps.map { $0 / 1_000_000 }
        case .log:
            guard let lowest = ladderBps.min() else { return [] }
            return ladderBps.map { naturalLog($0 / lowest) }
        case .hd:
            if let hdRewards, hdRewards.count == ladderBps.count { return hdRewards }
            return Self.hdQualities(ladderBps: ladderBps)
        }
    }

    /// The HD rewards of a ladder: Pensieve's table where every rung's bitrate (rounded to a kbit/s) is one of
    /// Pensieve's rungs; otherwise the table stretched over the ladder by rung index: rung i of N sits at
    /// position p = 5·i/(N − 1) of the six-entry table and gets the linear interpolation between the entries
    /// ⌊p⌋ and ⌈p⌉ (so the lowest rung scores 1, the top one 20, and a six-rung ladder gets the table exactly).
    /// A one-rung ladder scores 1. Give an explicit table through ``qualities(ladderBps:hdRewards:)`` instead
    /// when the ladder's rungs mean something else.
    public static func hdQualities(ladderBps: [Double]) -> [Double] {
        let table = pensieveHDRewards
        let kbps = ladderBps.map { ($0 / 1000).rounded() }
        if kbps.allSatisfy({ pensieveLadderKbps.contains($0) }) {
            return kbps.map { table[pensieveLadderKbps.firstIndex(of: $0)!] }
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

    /// Scores a session: `bitratesBps` are the declared bitrates of the segments in play order, `stallSeconds`
    /// the total rebuffer time (Σ Tₙ, startup excluded), `startupSeconds` the startup delay, `ladderBps` the
    /// content's ladder (needed by `log` for R_min and by `hd` for its table; ignored by `linear`).
    /// Pure; callers: session summaries, the offline optimum, comparisons.
    public func score(
        bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double, ladderBps: [Double],
        weights: QoEWeights? = nil, hdRewards: [Double]? = nil
    ) -> Double {
        QoEScorer(model: self, ladderBps: ladderBps, weights: weights ?? defaultWeights, hdRewards: hdRewards)
            .score(bitratesBps: bitratesBps, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }
}

/// A QoE model bound to one ladder and one set of weights, with q of every rung precomputed: what the
/// offline optimum maximises segment by segment and what summaries call per session.
public struct QoEScorer: Sendable, Equatable {
    /// The quality function.
    public var model: QoEModel
    /// μ (per stall second), λ (per unit of |Δq|), μₛ (per startup second).
    public var weights: QoEWeights
    /// The ladder, bit/s ascending.
    public let ladderBps: [Double]
    /// q of each rung.
    public let qualities: [Double]

    /// A scorer for `model` on `ladderBps` with `weights` (default: the model's published ones) and, for `hd`,
    /// an optional explicit reward per rung.
    public init(model: QoEModel, ladderBps: [Double], weights: QoEWeights? = nil, hdRewards: [Double]? = nil) {
        self.model = model
        self.weights = weights ?? model.defaultWeights
        self.ladderBps = ladderBps
        qualities = model.qualities(ladderBps: ladderBps, hdRewards: hdRewards)
    }

    /// q(R) for a declared bitrate: the rung's value when R is a rung of the ladder, else (an off-ladder
    /// bitrate) `linear` and `log` evaluate their formula and `hd` interpolates linearly between the rungs
    /// around R (clamped at the ends).
    public func quality(bitrateBps: Double) -> Double {
        switch model {
        case .linear: return bitrateBps / 1_000_000
        case .log: return naturalLog(bitrateBps / (ladderBps.first ?? bitrateBps))
        case .hd:
            guard let first = ladderBps.first, let last = ladderBps.last else { return 0 }
            if bitrateBps <= first { return qualities[0] }
            if bitrateBps >= last { return qualities[qualities.count - 1] }
            let upper = ladderBps.firstIndex { $0 >= bitrateBps }!
            if ladderBps[upper] == bitrateBps { return qualities[upper] }
            let fraction = (bitrateBps - ladderBps[upper - 1]) / (ladderBps[upper] - ladderBps[upper - 1])
            return qualities[upper - 1] + (qualities[upper] - qualities[upper - 1]) * fraction
        }
    }

    /// The reward of one segment at rung `variant` after rung `previous` (`nil` for the first segment):
    /// q − λ·|q − q_previous|. Stall and startup penalties are charged separately.
    @inline(__always) public func segmentReward(variant: Int, previous: Int?) -> Double {
        let q = qualities[variant]
        guard let previous else { return q }
        return q - weights.smoothnessPenalty * abs(q - qualities[previous])
    }

    /// The session's QoE (see ``QoEModel``); `linear` delegates to
    /// ``QoEWeights/linear(bitratesBps:stallSeconds:startupSeconds:)``.
    public func score(bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double) -> Double {
        if model == .linear {
            return weights.linear(bitratesBps: bitratesBps, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
        }
        var sum = 0.0
        var changes = 0.0
        var previous: Double?
        for bitrate in bitratesBps {
            let q = quality(bitrateBps: bitrate)
            sum += q
            if let previous { changes += abs(q - previous) }
            previous = q
        }
        return sum - weights.rebufferPenalty * stallSeconds - weights.smoothnessPenalty * changes
            - weights.startupPenalty * startupSeconds
    }

    /// The session's QoE from rung indices in play order (the offline optimum's plan).
    public func score(variants: [Int], stallSeconds: Double, startupSeconds: Double) -> Double {
        score(bitratesBps: variants.map { ladderBps[$0] }, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }
}
