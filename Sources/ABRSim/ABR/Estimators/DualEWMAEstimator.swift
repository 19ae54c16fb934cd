#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The minimum of a fast and a slow exponentially weighted moving average of download throughput, weighted by
/// download time — the estimator of hls.js (`src/utils/ewma-bandwidth-estimator.ts`), dash.js v5
/// (`ThroughputModel.js`, EWMA mode) and Shaka Player (`lib/abr/ewma_bandwidth_estimator.js`).
///
/// Each average follows hls.js's `ewma.ts`: α = exp(ln 0.5 / halfLife); a sample of weight w and value v (bit/s)
/// updates a = αʷ, est = v·(1 − a) + a·est, totalWeight += w; the read-out removes the bias of starting at zero,
/// est / (1 − α^totalWeight). The estimate is min(fast, slow): quick to fall, slow to rise. The weight is the
/// sample's seconds (hls.js, Shaka) or a multiple of them (dash.js: 0.0015 per ms, 1.5 per second, so its half-lives
/// are in those units). The presets ``hlsjs``, ``dashjs`` and ``shaka`` carry each player's defaults.
///
/// Samples with no bits, or with no elapsed time after any duration floor, are skipped (their rate is undefined;
/// hls.js and Shaka would fold an infinity or NaN into the average).
public struct DualEWMAEstimator: ThroughputEstimator {
    /// How a sample's weight follows from its duration.
    public enum Weighting: Sendable, Equatable {
        /// Weight = seconds (hls.js, Shaka).
        case seconds
        /// Weight = factor × seconds (dash.js v5: 1.5).
        case perSecond(Double)
    }

    /// A lower bound on a sample's duration, so a tiny, instant download cannot claim an absurd rate.
    public enum DurationFloor: Sendable, Equatable {
        /// No floor.
        case none
        /// hls.js v1.7: min(50 ms, bytes / 100 000 ms), i.e. min(0.05 s, bytes / 10⁸ s).
        case hlsjs
    }

    /// hls.js defaults (VoD): half-lives 3 s and 9 s, 500 kbit/s until the fast average has 0.001 s of weight.
    public static let hlsjs = DualEWMAEstimator(
        fastHalfLife: 3, slowHalfLife: 9, defaultEstimate: 500_000, durationFloor: .hlsjs, minimumTotalWeight: 0.001)
    /// dash.js v5 defaults: half-lives 3 and 8 weight units at 1.5 per second of download, 1000 kbit/s at first.
    public static let dashjs = DualEWMAEstimator(
        fastHalfLife: 3, slowHalfLife: 8, defaultEstimate: 1_000_000, weighting: .perSecond(1.5))
    /// Shaka Player defaults: half-lives 2 s and 5 s, downloads under 16 kB skipped, 1 Mbit/s until 128 kB sampled.
    public static let shaka = DualEWMAEstimator(
        fastHalfLife: 2, slowHalfLife: 5, defaultEstimate: 1_000_000, minimumSampleBits: 16_000 * 8,
        minimumTotalBits: 128_000 * 8)

    /// The fast average's half-life, in weight units (seconds unless ``weighting`` scales them).
    public let fastHalfLife: Double
    /// The slow average's half-life, in weight units.
    public let slowHalfLife: Double
    /// The estimate before there is enough data, bit/s.
    public var defaultEstimate: Double
    /// How a sample's weight follows from its duration.
    public let weighting: Weighting
    /// The interval a sample's rate is measured over.
    public var timing: SampleTiming
    /// The lower bound on a sample's duration.
    public let durationFloor: DurationFloor
    /// Samples with fewer bits are skipped (Shaka's `minBytes`).
    public let minimumSampleBits: Double
    /// The fast average's total weight needed before the estimate is used (hls.js's `minWeight_`).
    public let minimumTotalWeight: Double
    /// The bits sampled needed before the estimate is used (Shaka's `minTotalBytes`).
    public let minimumTotalBits: Double
    private var fast: ExponentialAverage
    private var slow: ExponentialAverage
    private var sampledBits = 0.0
    private var sampleCount = 0

    /// Creates the estimator; half-lives are in weight units (> 0), rates in bit/s.
    public init(
        fastHalfLife: Double, slowHalfLife: Double, defaultEstimate: Double, weighting: Weighting = .seconds,
        timing: SampleTiming = .excludingLatency, durationFloor: DurationFloor = .none, minimumSampleBits: Double = 0,
        minimumTotalWeight: Double = 0, minimumTotalBits: Double = 0
    ) {
        precondition(fastHalfLife > 0 && slowHalfLife > 0, "EWMA half-lives must be positive")
        self.fastHalfLife = fastHalfLife
        self.slowHalfLife = slowHalfLife
        self.defaultEstimate = defaultEstimate
        self.weighting = weighting
        self.timing = timing
        self.durationFloor = durationFloor
        self.minimumSampleBits = minimumSampleBits
        self.minimumTotalWeight = minimumTotalWeight
        self.minimumTotalBits = minimumTotalBits
        fast = ExponentialAverage(halfLife: fastHalfLife)
        slow = ExponentialAverage(halfLife: slowHalfLife)
    }

    /// Feeds `sample` to both averages, unless it is too small or has no duration.
    public mutating func add(_ sample: ThroughputSample) {
        guard sample.bits > 0, sample.bits >= minimumSampleBits else { return }
        var seconds = sample.seconds(timing)
        if durationFloor == .hlsjs { seconds = max(seconds, min(0.05, sample.bits / 8 / 100_000 / 1000)) }
        guard seconds > 0 else { return }
        let value = sample.bits / seconds
        let weight: Double
        switch weighting {
        case .seconds: weight = seconds
        case .perSecond(let factor): weight = factor * seconds
        }
        fast.add(weight: weight, value: value)
        slow.add(weight: weight, value: value)
        sampledBits += sample.bits
        sampleCount += 1
    }

    /// True once a sample was taken and the weight and bit thresholds are met.
    public var hasEnoughData: Bool {
        sampleCount > 0 && fast.totalWeight >= minimumTotalWeight && sampledBits >= minimumTotalBits
    }

    /// The fast average's bias-corrected value, bit/s (0 before any sample).
    public var fastEstimate: Double { fast.value }
    /// The slow average's bias-corrected value, bit/s (0 before any sample).
    public var slowEstimate: Double { slow.value }

    /// min(fast, slow) in bit/s once there is enough data, else the default.
    public var estimate: Double { hasEnoughData ? min(fast.value, slow.value) : defaultEstimate }

    /// Forgets every sample.
    public mutating func reset() {
        fast = ExponentialAverage(halfLife: fastHalfLife)
        slow = ExponentialAverage(halfLife: slowHalfLife)
        sampledBits = 0
        sampleCount = 0
    }
}

/// One exponentially weighted moving average with zero-start bias correction (hls.js `ewma.ts`, Shaka `ewma.js`).
struct ExponentialAverage: Sendable, Equatable {
    /// exp(ln 0.5 / halfLife): what one unit of weight leaves of the old estimate.
    let alpha: Double
    private(set) var estimate = 0.0
    private(set) var totalWeight = 0.0

    init(halfLife: Double) { alpha = exp(log(0.5) / halfLife) }

    mutating func add(weight: Double, value: Double) {
        let kept = pow(alpha, weight)
        estimate = value * (1 - kept) + kept * estimate
        totalWeight += weight
    }

    /// The estimate divided by 1 − α^totalWeight, which undoes the pull towards the initial zero.
    var value: Double {
        let zeroFactor = 1 - pow(alpha, totalWeight)
        return zeroFactor != 0 ? estimate / zeroFactor : estimate
    }
}
