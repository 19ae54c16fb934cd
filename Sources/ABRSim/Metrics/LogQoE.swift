#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The logarithmic QoE (`qoe_log`; Pensieve's `sim/` code): q(R) = ln(R / R_min), R_min the ladder's lowest
/// bitrate, μ = 2.66, λ = 1. Registered as `log`.
public struct LogQoE: QoEFunction {
    /// The model.
    public init() {}

    public var name: String { "log" }

    public var defaultWeights: QoEWeights { QoEWeights(rebufferPenalty: 2.66) }

    public func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] {
        guard let lowest = ladderBps.min() else { return [] }
        return ladderBps.map { log($0 / lowest) }
    }

    /// ln(R / R₀), R₀ the first rung (the lowest of an ascending ladder).
    public func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double {
        log(bitrateBps / (ladderBps.first ?? bitrateBps))
    }
}
