/// dash.js's throughput estimate for low-latency live streams: each request measured by the low-latency calculation
/// (``DashLowLatencyThroughput``, moof parsing by default), then averaged by dash.js's dual EWMA — after dash.js
/// v5.1.1 `ThroughputModel.js` (`addEntry`, `_updateEwmaValues`) and `ThroughputController.js` (`getAverageThroughput`,
/// EWMA mode).
///
/// Per request, the stored sample v (kbit/s, rounded) with download time d (ms) updates both averages with weight
/// 0.0015 × d (`weightDownloadTimeMultiplicationFactor`), half-lives 3 and 8 (`throughputFastHalfLifeSeconds`,
/// `throughputSlowHalfLifeSeconds`); the estimate is min(fast, slow), rounded to a kbit/s as
/// `getAverageThroughput` rounds it, in bit/s. A request without chunk timings (an ordinary download) is measured
/// as dash.js measures an XHR one: bits over first byte to last byte (`useDeadTimeLatency`), rounded to a kbit/s.
/// 1000 kbit/s before any sample (`DEFAULT_VIDEO_BITRATE`). ``lastSampleKbps`` is the newest stored sample
/// (`getAverageThroughput(ARITHMETIC_MEAN, 1)`, which L2A-LL reads).
public struct DashLowLatencyEstimator: ThroughputEstimator {
    /// dash.js's `ewma.weightDownloadTimeMultiplicationFactor`: weight per ms of download time.
    public static let weightPerMs = 0.0015
    /// The per-request calculation.
    public let calculation: DashLowLatencyThroughput
    /// The estimate before any sample, bit/s.
    public var defaultEstimate: Double
    /// The newest stored sample, kbit/s, `nil` before any.
    public private(set) var lastSampleKbps: Double?
    private var fast = ExponentialAverage(halfLife: 3)
    private var slow = ExponentialAverage(halfLife: 8)

    /// The estimator with dash.js's defaults unless given.
    public init(
        calculation: DashLowLatencyThroughput = DashLowLatencyThroughput(),
        defaultEstimate: Double = DashDefaults.initialBitrateBps
    ) {
        self.calculation = calculation
        self.defaultEstimate = defaultEstimate
    }

    /// The sample dash.js stores for one request (kbit/s and ms), `nil` when it stores none.
    public func storedSample(_ sample: ThroughputSample) -> DashLowLatencyThroughput.Sample? {
        if !sample.chunks.isEmpty { return calculation.sampleKbps(sample) }
        let ms = sample.downloadSeconds * 1000
        guard sample.bits > 0, ms > 0 else { return nil }
        return DashLowLatencyThroughput.Sample(
            kbps: (sample.bits / ms).rounded(.toNearestOrAwayFromZero), downloadTimeMs: ms)
    }

    /// Measures `sample` and folds it into both averages.
    public mutating func add(_ sample: ThroughputSample) {
        guard let stored = storedSample(sample) else { return }
        lastSampleKbps = stored.kbps
        let weight = Self.weightPerMs * stored.downloadTimeMs
        fast.add(weight: weight, value: stored.kbps)
        slow.add(weight: weight, value: stored.kbps)
    }

    /// True once a sample was stored.
    public var hasEnoughData: Bool { lastSampleKbps != nil }

    /// round(min(fast, slow)) kbit/s in bit/s, or the default.
    public var estimate: Double {
        guard hasEnoughData else { return defaultEstimate }
        return min(fast.value, slow.value).rounded(.toNearestOrAwayFromZero) * 1000
    }

    /// Forgets every sample.
    public mutating func reset() {
        fast = ExponentialAverage(halfLife: 3)
        slow = ExponentialAverage(halfLife: 8)
        lastSampleKbps = nil
    }
}
