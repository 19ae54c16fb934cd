#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// hls.js's bandwidth estimate with its time-to-first-byte correction, after hls.js (`afe5b8b`)
/// `src/utils/ewma-bandwidth-estimator.ts` and `src/controller/abr-controller.ts` (`onFragLoaded`,
/// `onFragBuffered`), with the live defaults of `src/config.ts`.
///
/// Per load (a fragment, or an LL-HLS part), in ms: first `sampleTTFB(first byte − request)`, an EWMA of
/// max(TTFB, 5) ms with weight √2·e^(−s²/2) for a TTFB of s seconds and the slow half-life; then
/// `sample(end − request − min(TTFB, TTFB estimate), bytes)`: a bandwidth sample of 8 × bytes over that duration
/// (at least min(50 ms, bytes / 100 000)), weight its seconds, into the fast (3 s, `abrEwmaFastLive`) and slow (9 s,
/// `abrEwmaSlowLive`) averages. The estimate is min(fast, slow) once the fast one has 0.001 s of weight, else
/// 500 kbit/s (`abrEwmaDefaultEstimate`); the TTFB estimate is 100 ms before any sample.
///
/// A chunked request near the live edge waits for its first chunk (all in the TTFB) and between chunks (none of it
/// in the TTFB). hls.js fetches low-latency media as LL-HLS parts, one request per part, each blocked until its
/// part exists: with ``loadsParts`` (the default) each chunk of a sample is one part load, requested when the
/// previous part's last byte arrived (the first when the segment was requested), so each wait is in that part's
/// TTFB and the bandwidth samples measure the link. Without it, or for a sample without chunks, the whole request
/// is one load. A pure value fed by the player; rates in bit/s.
public struct HlsJsTTFBEstimator: ThroughputEstimator {
    /// hls.js's `minWeight_`.
    public static let minimumWeight = 0.001
    /// hls.js's `minDelayMs_`.
    public static let minimumDelayMs = 50.0
    /// The estimate before there is enough data, bit/s (`abrEwmaDefaultEstimate`).
    public var defaultEstimate: Double
    /// The TTFB estimate before any sample, ms (`defaultTTFB`).
    public let defaultTTFBMs: Double
    /// Whether a chunked sample is read as one LL-HLS part load per chunk.
    public let loadsParts: Bool
    private let fastHalfLife: Double
    private let slowHalfLife: Double
    private var fast: ExponentialAverage
    private var slow: ExponentialAverage
    private var ttfb: ExponentialAverage

    /// The estimator with hls.js's live defaults unless given.
    public init(
        fastHalfLife: Double = 3, slowHalfLife: Double = 9, defaultEstimate: Double = 500_000,
        defaultTTFBMs: Double = 100, loadsParts: Bool = true
    ) {
        precondition(fastHalfLife > 0 && slowHalfLife > 0, "EWMA half-lives must be positive")
        self.fastHalfLife = fastHalfLife
        self.slowHalfLife = slowHalfLife
        self.defaultEstimate = defaultEstimate
        self.defaultTTFBMs = defaultTTFBMs
        self.loadsParts = loadsParts
        fast = ExponentialAverage(halfLife: fastHalfLife)
        slow = ExponentialAverage(halfLife: slowHalfLife)
        ttfb = ExponentialAverage(halfLife: slowHalfLife)
    }

    /// The TTFB estimate in ms (`getEstimateTTFB`).
    public var ttfbEstimateMs: Double { ttfb.totalWeight >= Self.minimumWeight ? ttfb.value : defaultTTFBMs }

    /// Feeds one load: request, first byte and last byte times (seconds) and its bits.
    public mutating func addLoad(bits: Double, requestTime: Double, firstByteTime: Double, doneTime: Double) {
        let ttfbMs = (firstByteTime - requestTime) * 1000
        let seconds = ttfbMs / 1000
        ttfb.add(weight: 2.0.squareRoot() * exp(-(seconds * seconds) / 2), value: max(ttfbMs, 5))
        let processingMs = (doneTime - requestTime) * 1000 - min(ttfbMs, ttfbEstimateMs)
        let bytes = bits / 8
        guard bytes > 0 else { return }
        let durationS = max(processingMs, min(Self.minimumDelayMs, bytes / 100_000)) / 1000
        let bandwidth = bits / durationS
        fast.add(weight: durationS, value: bandwidth)
        slow.add(weight: durationS, value: bandwidth)
    }

    /// Feeds `sample`: one load per chunk with ``loadsParts``, else one load.
    public mutating func add(_ sample: ThroughputSample) {
        guard loadsParts, !sample.chunks.isEmpty else {
            addLoad(
                bits: sample.bits, requestTime: sample.requestTime, firstByteTime: sample.firstByteTime,
                doneTime: sample.doneTime)
            return
        }
        var request = sample.requestTime
        for chunk in sample.chunks {
            addLoad(
                bits: chunk.bits, requestTime: request, firstByteTime: chunk.firstByteTime,
                doneTime: chunk.lastByteTime)
            request = chunk.lastByteTime
        }
    }

    /// True once the fast average has ``minimumWeight`` of weight (`canEstimate`).
    public var hasEnoughData: Bool { fast.totalWeight >= Self.minimumWeight }

    /// min(fast, slow) in bit/s, or the default.
    public var estimate: Double { hasEnoughData ? min(fast.value, slow.value) : defaultEstimate }

    /// Forgets every sample, the TTFB ones included.
    public mutating func reset() {
        fast = ExponentialAverage(halfLife: fastHalfLife)
        slow = ExponentialAverage(halfLife: slowHalfLife)
        ttfb = ExponentialAverage(halfLife: slowHalfLife)
    }
}
