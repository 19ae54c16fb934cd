/// Rate-based adaptation: the highest variant whose bitrate is at most `safety` × the throughput estimate.
///
/// This is dash.js's ThroughputRule (`getOptimalRepresentationForBitrate(average × bandwidthSafetyFactor)`,
/// safety 0.9, the lowest variant when none fits) with a pluggable estimator. Before the estimator has
/// enough data it answers its default estimate (dash.js: 1000 kbit/s). Parameters: `safety` (default 0.9),
/// `estimator` (`ewma`, the dash.js dual EWMA by default; `harmonic` with `window`, default 5; `last`).
public final class ThroughputPolicy: ABRPolicy {
    /// Fraction of the estimate a variant may use.
    public let safety: Double
    private var estimator: any ThroughputEstimator

    /// A throughput policy over `estimator`.
    public init(safety: Double = Parameters.safety.defaultValue, estimator: any ThroughputEstimator) {
        self.safety = safety
        self.estimator = estimator
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let budget = safety * estimator.estimate
        return .variant(highestVariant(atMost: budget, in: context.content, upTo: context.maxVariant))
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        estimator.add(sample)
    }
}

/// The highest variant index ≤ `maxVariant` whose declared bitrate is at most `bitsPerSecond`, or 0 if none.
/// Shared by every rate-based rule.
public func highestVariant(atMost bitsPerSecond: Double, in content: Content, upTo maxVariant: Int) -> Int {
    var chosen = 0
    var index = 0
    let variants = content.variants
    while index <= maxVariant {
        if variants[index].bitrateBps <= bitsPerSecond { chosen = index } else { break }
        index += 1
    }
    return chosen
}
