/// The harmonic mean of the last `window` downloads' throughputs, as MPC (Yin et al., SIGCOMM 2015) and
/// Pensieve (Mao et al., SIGCOMM 2017) predict the next chunk's throughput: n / Σ 1/xᵢ over the last 5 samples.
///
/// The harmonic mean is pulled towards the slow samples, so one lucky fast download does not inflate it. Pensieve's
/// simulator measures each chunk over its whole delay (latency included): use `timing: .includingLatency` to
/// reproduce it. Samples with no bits or no elapsed time are ignored. The window is a ring buffer allocated once.
public struct HarmonicMeanEstimator: ThroughputEstimator {
    /// How many recent samples are averaged.
    public let window: Int
    /// The estimate before the first sample, bit/s.
    public var defaultEstimate: Double
    /// The interval a sample's rate is measured over.
    public var timing: SampleTiming
    private var reciprocals: [Double]
    private var next = 0
    private var count = 0
    private var reciprocalSum = 0.0

    /// Creates the estimator over the last `window` (≥ 1) samples; `defaultEstimate` in bit/s.
    public init(window: Int = 5, defaultEstimate: Double = 1_000_000, timing: SampleTiming = .excludingLatency) {
        precondition(window >= 1, "the harmonic-mean window needs at least one sample")
        self.window = window
        self.defaultEstimate = defaultEstimate
        self.timing = timing
        reciprocals = [Double](repeating: 0, count: window)
    }

    /// Records `sample`, evicting the oldest once the window is full.
    public mutating func add(_ sample: ThroughputSample) {
        guard sample.bits > 0, sample.seconds(timing) > 0 else { return }
        reciprocals[next] = 1 / sample.bitsPerSecond(timing)
        next = (next + 1) % window
        count = min(count + 1, window)
        // Re-summing the few held values (instead of a running sum) keeps rounding from drifting over long runs.
        reciprocalSum = 0
        for index in 0..<count { reciprocalSum += reciprocals[index] }
    }

    /// True once one usable sample has been seen.
    public var hasEnoughData: Bool { count > 0 }

    /// The harmonic mean of the samples in the window, bit/s, or the default.
    public var estimate: Double { count > 0 ? Double(count) / reciprocalSum : defaultEstimate }

    /// Empties the window.
    public mutating func reset() {
        next = 0
        count = 0
        reciprocalSum = 0
    }
}
