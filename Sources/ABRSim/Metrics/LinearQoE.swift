/// The linear QoE of MPC and Pensieve (`qoe_lin`): q(R) = R in Mbit/s, μ = 4.3 (Pensieve `REBUF_PENALTY`), λ = 1.
/// Registered as `linear`; also the objective of the MPC planner and the Pensieve profile's reward, through
/// ``score(bitrateSumKbps:changeSumKbps:stallSeconds:rebufferPenalty:smoothnessPenalty:)``.
public struct LinearQoE: QoEFunction {
    /// The model.
    public init() {}

    public var name: String { "linear" }

    public var defaultWeights: QoEWeights { QoEWeights(rebufferPenalty: 4.3) }

    public func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] {
        ladderBps.map(Self.quality(bitrateBps:))
    }

    @inline(__always) public func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double {
        Self.quality(bitrateBps: bitrateBps)
    }

    /// q(R) = R in Mbit/s, of a bitrate in bit/s.
    @inline(__always) public static func quality(bitrateBps: Double) -> Double { bitrateBps / 1_000_000 }

    /// The linear QoE of sums in kbit/s, as mpc.py and Pensieve's `bb.py`/`mpc.py` write it: `a` the bitrate
    /// sum, `s` the |Δbitrate| sum (kbit/s), `r` the rebuffer seconds: a/1000 − μ·r − λ·s/1000, in that order of
    /// operations (which the planner's and the profile's results depend on bit for bit).
    @inline(__always)
    public static func score(
        bitrateSumKbps a: Double, changeSumKbps s: Double, stallSeconds r: Double, rebufferPenalty: Double,
        smoothnessPenalty: Double
    ) -> Double {
        QoEWeights.score(
            quality: a / 1000, stallSeconds: r, changes: s, changeScale: 1000, rebufferPenalty: rebufferPenalty,
            smoothnessPenalty: smoothnessPenalty)
    }
}
