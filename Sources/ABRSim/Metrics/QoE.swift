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

    /// Linear QoE of a session: `bitratesBps` are the segments' declared bitrates in play order.
    public func linear(bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double) -> Double {
        var sum = 0.0
        var changes = 0.0
        var previous: Double?
        for bitrate in bitratesBps {
            let mbps = bitrate / 1_000_000
            sum += mbps
            if let previous { changes += abs(mbps - previous) }
            previous = mbps
        }
        return sum - rebufferPenalty * stallSeconds - smoothnessPenalty * changes - startupPenalty * startupSeconds
    }
}

/// The weights of every QoE model a run reports: `qoe_lin`, `qoe_log` and `qoe_hd` (reference-literature §6),
/// each with the model's published defaults (rebuffer penalty 4.3, 2.66 and 8; smoothness 1; no startup term).
/// Set per scenario under `qoe` (`linear` weights at its top level, `log` and `hd` in their own objects).
public struct QoESettings: Sendable, Equatable {
    /// Weights of `qoe_lin`.
    public var linear = QoEModel.linear.defaultWeights
    /// Weights of `qoe_log`.
    public var log = QoEModel.log.defaultWeights
    /// Weights of `qoe_hd`.
    public var hd = QoEModel.hd.defaultWeights

    /// The defaults.
    public init() {}

    /// The weights of `model`.
    public func weights(for model: QoEModel) -> QoEWeights {
        switch model {
        case .linear: linear
        case .log: log
        case .hd: hd
        }
    }
}
