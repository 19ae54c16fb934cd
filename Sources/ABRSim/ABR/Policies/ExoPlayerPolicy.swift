/// ExoPlayer's (AndroidX Media3) default adaptive track selection: `AdaptiveTrackSelection` over a
/// `DefaultBandwidthMeter` (reference-players.md §3; androidx/media
/// `libraries/exoplayer/src/main/java/androidx/media3/exoplayer/trackselection/AdaptiveTrackSelection.java` and
/// `…/exoplayer/upstream/DefaultBandwidthMeter.java`).
///
/// Each decision (`updateSelectedTrack`):
/// - allocatable bandwidth = estimate × `bandwidthFraction` (0.7), divided by the playback speed; when a
///   time-to-first-byte estimate is known it is instead × max(chunk / speed − TTFB, 0) / chunk
///   (`getTotalAllocatableBandwidth`);
/// - ideal = the highest variant (≤ `context.maxVariant`) whose bitrate is ≤ the allocatable bandwidth, else the
///   lowest (`determineIdealSelectedIndex`);
/// - the first call takes the ideal; later, relative to the previous chunk's variant, a higher ideal is refused
///   while the buffer is below `minDurationForQualityIncrease` (10 s) and a lower one is refused while the buffer is
///   at or above `maxDurationForQualityDecrease` (25 s).
///
/// The estimate is ``SlidingPercentileEstimator`` (the meter's weighted median, √bytes weights, 2000 max weight),
/// starting at `initialBitrate` (`DEFAULT_INITIAL_BITRATE_ESTIMATE`, 1 Mbit/s). `DefaultBandwidthMeter` does not
/// override `BandwidthMeter.getTimeToFirstByteEstimateUs()` (it answers `C.TIME_UNSET`), so by default the TTFB
/// term is off, as in ExoPlayer; `useTimeToFirstByte` turns it on with the TTFB estimator of ExoPlayer's
/// `ExperimentalBandwidthMeter` (`ExponentialWeightedAverageTimeToFirstByteEstimator`, smoothing 0.85), fed with
/// each download's request → first-byte time. Not modelled: live-stream rules, several adaptive selections
/// sharing the bandwidth (adaptation checkpoints), track exclusion, and `evaluateQueueSize` (discarding buffered
/// chunks: the simulated player never drops media it has fetched). Speed is `context.playbackRate` (1 while
/// paused, as ExoPlayer's speed parameter does not change on pause).
public final class ExoPlayerPolicy: ABRPolicy {
    /// The tunable constants, with ExoPlayer's defaults, each settable one declared in ``Parameters``.
    public struct Configuration: Sendable, Equatable {
        /// `DEFAULT_BANDWIDTH_FRACTION`: the share of the estimate a variant may use.
        public var bandwidthFraction = Parameters.bandwidthFraction.defaultValue
        /// `DEFAULT_MIN_DURATION_FOR_QUALITY_INCREASE_MS` / 1000: seconds of buffer needed to switch up.
        public var minDurationForQualityIncrease = Parameters.minDurationForQualityIncrease.defaultValue
        /// `DEFAULT_MAX_DURATION_FOR_QUALITY_DECREASE_MS` / 1000: with at least this much buffer (s), a switch
        /// down is deferred.
        public var maxDurationForQualityDecrease = Parameters.maxDurationForQualityDecrease.defaultValue
        /// `DEFAULT_INITIAL_BITRATE_ESTIMATE`: the estimate before the meter publishes one, bit/s.
        public var initialBitrate = Parameters.initialBitrate.defaultValue
        /// `DEFAULT_SLIDING_WINDOW_MAX_WEIGHT`: the meter's window weight.
        public var slidingWindowMaxWeight = Parameters.slidingWindowMaxWeight.defaultValue
        /// Whether a TTFB estimate shortens the time available to load a chunk (off in `DefaultBandwidthMeter`).
        public var useTimeToFirstByte = Parameters.ttfb.defaultValue
        /// Smoothing of the TTFB moving average (`DEFAULT_SMOOTHING_FACTOR`, 0.85 of the old value kept).
        public var timeToFirstByteSmoothing = 0.85

        /// ExoPlayer's defaults.
        public init() {}
    }

    /// The parameters a spec may set (`exoplayer(bandwidthFraction=0.8)`), with the defaults of
    /// `AdaptiveTrackSelection` and `DefaultBandwidthMeter`.
    public enum Parameters {
        public static let bandwidthFraction = Parameter.number(
            "bandwidthFraction", default: 0.7, source: "ExoPlayer AdaptiveTrackSelection DEFAULT_BANDWIDTH_FRACTION",
            "share of the estimate a variant may use")
        public static let minDurationForQualityIncrease = Parameter.number(
            "minDurationForQualityIncrease", default: 10, in: .nonNegative, unit: "s",
            source: "ExoPlayer DEFAULT_MIN_DURATION_FOR_QUALITY_INCREASE_MS", "buffer needed before switching up")
        public static let maxDurationForQualityDecrease = Parameter.number(
            "maxDurationForQualityDecrease", default: 25, in: .nonNegative, unit: "s",
            source: "ExoPlayer DEFAULT_MAX_DURATION_FOR_QUALITY_DECREASE_MS", "buffer from which a switch down waits")
        public static let initialBitrate = Parameter.number(
            "initialBitrate", default: 1_000_000, unit: "bit/s",
            source: "ExoPlayer DefaultBandwidthMeter DEFAULT_INITIAL_BITRATE_ESTIMATE",
            "estimate before the meter has one")
        public static let slidingWindowMaxWeight = Parameter.count(
            "slidingWindowMaxWeight", default: 2000, in: 1...1_000_000, unit: "√bytes",
            source: "ExoPlayer DefaultBandwidthMeter DEFAULT_SLIDING_WINDOW_MAX_WEIGHT", "bandwidth meter window weight"
        )
        public static let ttfb = Parameter.onOff(
            "ttfb", default: false, source: "ExoPlayer DefaultBandwidthMeter (no TTFB estimate)",
            "on: shorten the load time by a TTFB moving average (0.85)")

        /// Every parameter with the field it sets, in listing order.
        public static let all: [ParameterBinding<Configuration>] = [
            ParameterBinding(bandwidthFraction, \.bandwidthFraction),
            ParameterBinding(minDurationForQualityIncrease, \.minDurationForQualityIncrease),
            ParameterBinding(maxDurationForQualityDecrease, \.maxDurationForQualityDecrease),
            ParameterBinding(initialBitrate, \.initialBitrate),
            ParameterBinding(slidingWindowMaxWeight, \.slidingWindowMaxWeight),
            ParameterBinding(ttfb, \.useTimeToFirstByte),
        ]
    }

    /// The constants in use.
    public let configuration: Configuration
    private var meter: SlidingPercentileEstimator
    private var selectedVariant: Int?
    private var timeToFirstByteEstimate: Double?

    /// A policy with `configuration` (ExoPlayer's defaults unless given).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        meter = SlidingPercentileEstimator(
            maxWeight: configuration.slidingWindowMaxWeight, defaultEstimate: configuration.initialBitrate)
    }

    /// The bandwidth meter's current estimate, bit/s.
    public var bandwidthEstimate: Double { meter.estimate }

    /// The TTFB estimate in seconds, when it is in use and a download has been seen.
    public var timeToFirstByte: Double? { configuration.useTimeToFirstByte ? timeToFirstByteEstimate : nil }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let ideal = idealVariant(context)
        guard let selected = selectedVariant else {
            selectedVariant = ideal
            return .variant(ideal)
        }
        // The previous chunk's variant; with nothing buffered (start, seek) ExoPlayer keeps its own selection.
        let previous = context.lastVariant ?? selected
        var chosen = ideal
        // A previous variant above the cap is as good as excluded: ExoPlayer then switches without conditions.
        if ideal != previous && previous <= context.maxVariant {
            if ideal > previous && context.bufferSeconds < configuration.minDurationForQualityIncrease {
                chosen = previous
            } else if ideal < previous && context.bufferSeconds >= configuration.maxDurationForQualityDecrease {
                chosen = previous
            }
        }
        selectedVariant = chosen
        return .variant(chosen)
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        meter.add(sample)
        let firstByteSeconds = max(sample.firstByteTime - sample.requestTime, 0)
        if let previous = timeToFirstByteEstimate {
            let kept = configuration.timeToFirstByteSmoothing
            timeToFirstByteEstimate = (1 - kept) * firstByteSeconds + kept * previous
        } else {
            timeToFirstByteEstimate = firstByteSeconds
        }
    }

    /// `getTotalAllocatableBandwidth`: the bandwidth (bit/s) the next chunk may use.
    func allocatableBandwidth(_ context: ABRContext) -> Double {
        let speed = context.playbackRate > 0 ? context.playbackRate : 1
        let cautious = meter.estimate * configuration.bandwidthFraction
        guard let ttfb = timeToFirstByte, context.segmentIndex < context.content.segmentCount else {
            return cautious / speed
        }
        let chunk = context.content.segmentDurations[context.segmentIndex]
        return cautious * max(chunk / speed - ttfb, 0) / chunk
    }

    /// `determineIdealSelectedIndex`: the highest allowed variant that fits the allocatable bandwidth.
    func idealVariant(_ context: ABRContext) -> Int {
        highestVariant(atMost: allocatableBandwidth(context), in: context.content, upTo: context.maxVariant)
    }
}

extension BuiltInPolicies {
    static let exoplayer = PolicyDescriptor(
        name: "exoplayer",
        summary: "ExoPlayer AdaptiveTrackSelection + DefaultBandwidthMeter (0.7 of the weighted median, 10/25 s)",
        parameters: ExoPlayerPolicy.Parameters.all
    ) { arguments, _ in
        var configuration = ExoPlayerPolicy.Configuration()
        try arguments.configure(&configuration, ExoPlayerPolicy.Parameters.all)
        return ExoPlayerPolicy(configuration: configuration)
    }
}
