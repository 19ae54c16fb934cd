/// ExoPlayer's (AndroidX Media3) `DefaultBandwidthMeter`: the weighted median of recent download rates, each
/// weighted by the square root of its size, over a sliding window of bounded total weight (`SlidingPercentile`).
///
/// Per download: weight = ⌊√bytes⌋ (an `int` in ExoPlayer), value = bit/s. Adding a sample that takes the total
/// weight over ``maxWeight`` (2000) removes the oldest samples, and shrinks the oldest one left, until the total is
/// exactly the maximum. The percentile walks the samples sorted by value, accumulating weight, and answers the value
/// at which the running weight first reaches percentile × total. As in ExoPlayer the estimate is recomputed only
/// when a sample is added, and published only once 2 s of transfer time or 512 KiB have been seen in total;
/// before that ``defaultEstimate`` (`DEFAULT_INITIAL_BITRATE_ESTIMATE`, 1 Mbit/s; ExoPlayer's per-country table
/// can be passed in) is answered. A download with no elapsed time adds to the totals and its bits are carried into
/// the next sample, as ExoPlayer does. Differences: values are `Double` rather than `float`, elapsed time is not
/// truncated to whole milliseconds, and the estimate is not truncated to a whole bit/s.
public struct SlidingPercentileEstimator: ThroughputEstimator {
    /// The most total weight the window holds (`DEFAULT_SLIDING_WINDOW_MAX_WEIGHT`).
    public let maxWeight: Int
    /// The percentile answered, 0…1 (0.5: the weighted median).
    public let percentile: Double
    /// The estimate before enough data, bit/s.
    public var defaultEstimate: Double
    /// Total transfer seconds after which the estimate is published (`ELAPSED_MILLIS_FOR_ESTIMATE` / 1000).
    public let secondsForEstimate: Double
    /// Total bits after which the estimate is published (`BYTES_TRANSFERRED_FOR_ESTIMATE` × 8).
    public let bitsForEstimate: Double
    /// The interval a sample's rate is measured over.
    public var timing: SampleTiming
    /// The window, oldest first.
    private var samples: [(weight: Int, value: Double)] = []
    /// Reused for sorting by value, so adding a sample does not allocate once the window has settled.
    private var sorted: [(weight: Int, value: Double)] = []
    private var totalWeight = 0
    private var totalSeconds = 0.0
    private var totalBits = 0.0
    private var carriedBits = 0.0
    private var published: Double?

    /// Creates the estimator with ExoPlayer's defaults unless given; rates in bit/s.
    public init(
        maxWeight: Int = 2000, percentile: Double = 0.5, defaultEstimate: Double = 1_000_000,
        secondsForEstimate: Double = 2, bitsForEstimate: Double = 512 * 1024 * 8,
        timing: SampleTiming = .excludingLatency
    ) {
        precondition(maxWeight > 0 && (0...1).contains(percentile), "invalid sliding-percentile configuration")
        self.maxWeight = maxWeight
        self.percentile = percentile
        self.defaultEstimate = defaultEstimate
        self.secondsForEstimate = secondsForEstimate
        self.bitsForEstimate = bitsForEstimate
        self.timing = timing
    }

    /// Records `sample` (DefaultBandwidthMeter.onTransferEnd).
    public mutating func add(_ sample: ThroughputSample) {
        let seconds = max(sample.seconds(timing), 0)
        totalSeconds += seconds
        totalBits += sample.bits
        let bits = sample.bits + carriedBits
        guard seconds > 0 else {
            carriedBits = bits
            return
        }
        carriedBits = 0
        addToWindow(weight: Int((bits / 8).rounded(.down).squareRoot()), value: bits / seconds)
        if totalSeconds >= secondsForEstimate || totalBits >= bitsForEstimate {
            published = weightedPercentile()
        }
    }

    /// True once the estimate has been published (enough time or bytes seen).
    public var hasEnoughData: Bool { published != nil }

    /// The published weighted percentile, bit/s, or the default.
    public var estimate: Double { published ?? defaultEstimate }

    /// Empties the window and the totals.
    public mutating func reset() {
        samples.removeAll(keepingCapacity: true)
        totalWeight = 0
        totalSeconds = 0
        totalBits = 0
        carriedBits = 0
        published = nil
    }

    /// SlidingPercentile.addSample.
    private mutating func addToWindow(weight: Int, value: Double) {
        samples.append((weight, value))
        totalWeight += weight
        while totalWeight > maxWeight {
            let excess = totalWeight - maxWeight
            if samples[0].weight <= excess {
                totalWeight -= samples[0].weight
                samples.removeFirst()
            } else {
                samples[0].weight -= excess
                totalWeight -= excess
            }
        }
    }

    /// SlidingPercentile.getPercentile: the first value, in value order, whose running weight reaches the target.
    private mutating func weightedPercentile() -> Double {
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: samples)
        sorted.sort { $0.value < $1.value }
        let desired = percentile * Double(totalWeight)
        var accumulated = 0
        for sample in sorted {
            accumulated += sample.weight
            if Double(accumulated) >= desired { return sample.value }
        }
        return sorted.last?.value ?? .nan
    }
}
