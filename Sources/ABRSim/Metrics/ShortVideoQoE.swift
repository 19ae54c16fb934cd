/// The MM'22 short-video challenge's QoE as a QoE model (`shortvideo`; `run.py` of
/// `AItransCompetition/Short-Video-Streaming-Challenge`): each watched segment adds q = R in Mbit/s and subtracts
/// λ·|Δq| against the segment watched before it (across items too), every second of rebuffering subtracts μ = 1.85,
/// and, as the challenge counts the wait before an item's first frame as rebuffering, μₛ = 1.85 per startup second.
/// A feed session's score (``FeedSummary/score``) is this QoE minus 0.5 per megabit downloaded.
public struct ShortVideoQoE: QoEFunction {
    /// The challenge's rebuffering penalty per second (`REBUF_PENALTY` 1.85 per 1000 ms).
    public static let rebufferPenalty = 1.85
    /// The challenge's bandwidth cost per megabit downloaded (`alpha` 0.5 · bytes · 8 / 10⁶).
    public static let costPerMegabit = 0.5

    /// The model.
    public init() {}

    public var name: String { "shortvideo" }

    public var defaultWeights: QoEWeights {
        var weights = QoEWeights(rebufferPenalty: Self.rebufferPenalty)
        weights.startupPenalty = Self.rebufferPenalty
        return weights
    }

    public func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] {
        ladderBps.map { $0 / 1_000_000 }
    }

    public func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double {
        bitrateBps / 1_000_000
    }
}
