/// The throughput of the most recent download: the simplest rate-based estimate (as in the classic
/// rate-based rule and FESTIVE's per-chunk measurement before smoothing).
///
/// Samples with no bits or no elapsed time under the chosen ``SampleTiming`` are ignored (their rate is undefined).
public struct LastSampleEstimator: ThroughputEstimator {
    /// The estimate before the first sample, bit/s.
    public var defaultEstimate: Double
    /// The interval a sample's rate is measured over.
    public var timing: SampleTiming
    private var last: Double?

    /// Creates the estimator; `defaultEstimate` is in bit/s (1 Mbit/s unless given).
    public init(defaultEstimate: Double = 1_000_000, timing: SampleTiming = .excludingLatency) {
        self.defaultEstimate = defaultEstimate
        self.timing = timing
    }

    /// Records `sample`, replacing the previous one.
    public mutating func add(_ sample: ThroughputSample) {
        guard sample.bits > 0, sample.seconds(timing) > 0 else { return }
        last = sample.bitsPerSecond(timing)
    }

    /// True once one usable sample has been seen.
    public var hasEnoughData: Bool { last != nil }

    /// The last sample's throughput, bit/s, or the default.
    public var estimate: Double { last ?? defaultEstimate }

    /// Forgets the last sample.
    public mutating func reset() { last = nil }
}
