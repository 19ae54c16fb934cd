/// Weights of the linear QoE of MPC and Pensieve: Σ q(Rₙ) − μ·stall − λ·Σ|q(Rₙ₊₁) − q(Rₙ)| − μₛ·startup, with
/// q(R) the bitrate in Mbit/s.
///
/// Defaults are Pensieve's (`REBUF_PENALTY = 4.3`, `SMOOTH_PENALTY = 1`; reference-literature §6) with no
/// startup term, so `qoe_lin` = Σ bitrate_Mbps − 4.3·stall_s − Σ|Δ bitrate_Mbps|. Set per scenario (`qoe`).
public struct QoEWeights: Sendable, Equatable {
    /// μ: penalty per second stalled.
    public var rebufferPenalty: Double = 4.3
    /// λ: penalty per Mbit/s of change between consecutive segments.
    public var smoothnessPenalty: Double = 1
    /// μₛ: penalty per second of startup (0 by default: startup is reported on its own).
    public var startupPenalty: Double = 0

    /// The defaults.
    public init() {}

    /// The defaults with μ = `rebufferPenalty`.
    public init(rebufferPenalty: Double) { self.rebufferPenalty = rebufferPenalty }

    /// Linear QoE of a session (``LinearQoE``): `bitratesBps` are the segments' declared bitrates in play order.
    public func linear(bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double) -> Double {
        QoEModel.linear.score(
            bitratesBps: bitratesBps, stallSeconds: stallSeconds, startupSeconds: startupSeconds, ladderBps: [],
            weights: self)
    }
}

extension QoEWeights {
    /// The additive QoE of one quality term: `quality − μ·stallSeconds − λ·changes / changeScale`, in that order
    /// of operations. The one formula every additive score is computed with: ``QoETally`` (Σq and Σ|Δq|, scale
    /// 1), ``LinearQoE/score(bitrateSumKbps:changeSumKbps:stallSeconds:rebufferPenalty:smoothnessPenalty:)`` (MPC
    /// and Pensieve's kbit/s sums, scale 1000) and the Pensieve gym's reward (one chunk's q and |Δq|).
    @inline(__always)
    public static func score(
        quality: Double, stallSeconds: Double, changes: Double, changeScale: Double = 1, rebufferPenalty: Double,
        smoothnessPenalty: Double
    ) -> Double {
        quality - rebufferPenalty * stallSeconds - smoothnessPenalty * changes / changeScale
    }

    /// ``score(quality:stallSeconds:changes:changeScale:rebufferPenalty:smoothnessPenalty:)`` with these weights'
    /// μ and λ (the startup term is charged apart, ``cost(startupSeconds:)``).
    @inline(__always)
    public func score(quality: Double, stallSeconds: Double, changes: Double) -> Double {
        Self.score(
            quality: quality, stallSeconds: stallSeconds, changes: changes, rebufferPenalty: rebufferPenalty,
            smoothnessPenalty: smoothnessPenalty)
    }

    /// One segment's reward before its stall: q − λ·|q − q_previous|, or q for the first segment (`previous`
    /// `nil`). Summed with ``cost(stallSeconds:)`` by the offline optimum (``QoEScorer``) and the scenario gym.
    @inline(__always)
    public func segmentReward(quality q: Double, previous: Double?) -> Double {
        guard let previous else { return q }
        return q - smoothnessPenalty * abs(q - previous)
    }

    /// μ·seconds: what `seconds` of stalling cost.
    @inline(__always) public func cost(stallSeconds seconds: Double) -> Double { rebufferPenalty * seconds }

    /// μₛ·seconds: what a startup of `seconds` costs.
    @inline(__always) public func cost(startupSeconds seconds: Double) -> Double { startupPenalty * seconds }
}

/// The weights of every QoE model a run reports: `qoe_lin`, `qoe_log` and `qoe_hd` (reference-literature §6),
/// each with the model's published defaults (rebuffer penalty 4.3, 2.66 and 8; smoothness 1; no startup term),
/// and of any other registered model a scenario sets. Set per scenario under `qoe` (`linear` weights at its top
/// level, `log` and `hd` in their own objects).
public struct QoESettings: Sendable, Equatable {
    /// Weights set for a model, by its name; a model not listed uses its ``QoEModel/defaultWeights``.
    public var weightsByModel: [String: QoEWeights] = [:]

    /// The defaults.
    public init() {}

    /// The weights of `model`.
    public func weights(for model: QoEModel) -> QoEWeights {
        weightsByModel[model.rawValue] ?? model.defaultWeights
    }

    /// Sets the weights of `model`.
    public mutating func setWeights(_ weights: QoEWeights, for model: QoEModel) {
        weightsByModel[model.rawValue] = weights
    }

    /// Equal when every model's weights are (a model set to its defaults equals one left unset).
    public static func == (lhs: QoESettings, rhs: QoESettings) -> Bool {
        let names = Set(lhs.weightsByModel.keys).union(rhs.weightsByModel.keys)
        return names.allSatisfy { name in
            let model = QoEModel(rawValue: name)
            let defaults = model?.defaultWeights
            return (lhs.weightsByModel[name] ?? defaults) == (rhs.weightsByModel[name] ?? defaults)
        }
    }

    /// Weights of `qoe_lin`.
    public var linear: QoEWeights {
        get { weights(for: .linear) }
        set { setWeights(newValue, for: .linear) }
    }
    /// Weights of `qoe_log`.
    public var log: QoEWeights {
        get { weights(for: .log) }
        set { setWeights(newValue, for: .log) }
    }
    /// Weights of `qoe_hd`.
    public var hd: QoEWeights {
        get { weights(for: .hd) }
        set { setWeights(newValue, for: .hd) }
    }
}
