/// ExoPlayer's live speed control (androidx/media `DefaultLivePlaybackSpeedControl.java`, commit 2bc2078), a port
/// that computes in Float32 and Int64 microseconds as the Java does, so that its speeds match exactly.
///
/// Speed = 1 + proportionalControlFactor × (live offset − target offset), clamped to the media's (or the fallback)
/// min/max speed; 1 inside the unit-speed band; updated at most every `minUpdateIntervalMs`. The target offset is
/// the media's (clamped to its min/max offsets) or the override; it grows by `targetLiveOffsetIncrementOnRebufferMs`
/// on each rebuffer and comes back down towards the smoothed minimum possible offset (live offset − buffered
/// duration, exponentially smoothed, plus 3 deviations). Times are microseconds (`Us`) or milliseconds (`Ms`) as in
/// the Java; ``unsetTime`` and ``unsetRate`` are `C.TIME_UNSET` and `C.RATE_UNSET`. A player owns one and calls
/// ``getAdjustedPlaybackSpeed(liveOffsetUs:bufferedDurationUs:elapsedRealtimeMs:)`` while playing live.
public struct DefaultLivePlaybackSpeedControl: LiveCatchUpController {
    /// `C.TIME_UNSET` (Long.MIN_VALUE + 1).
    public static let unsetTime: Int64 = Int64.min + 1
    /// `C.RATE_UNSET` (−Float.MAX_VALUE).
    public static let unsetRate: Float = -Float.greatestFiniteMagnitude

    /// The `DefaultLivePlaybackSpeedControl.Builder` values, with ExoPlayer's published defaults.
    public struct Builder: Sendable, Equatable {
        /// `DEFAULT_FALLBACK_MIN_PLAYBACK_SPEED` 0.97.
        public var fallbackMinPlaybackSpeed: Float = 0.97
        /// `DEFAULT_FALLBACK_MAX_PLAYBACK_SPEED` 1.03.
        public var fallbackMaxPlaybackSpeed: Float = 1.03
        /// `DEFAULT_MIN_UPDATE_INTERVAL_MS` 1000.
        public var minUpdateIntervalMs: Int64 = 1_000
        /// `DEFAULT_PROPORTIONAL_CONTROL_FACTOR` 0.1 (per second of offset error).
        public var proportionalControlFactor: Float = 0.1
        /// `DEFAULT_MAX_LIVE_OFFSET_ERROR_MS_FOR_UNIT_SPEED` 20.
        public var maxLiveOffsetErrorMsForUnitSpeed: Int64 = 20
        /// `DEFAULT_TARGET_LIVE_OFFSET_INCREMENT_ON_REBUFFER_MS` 500.
        public var targetLiveOffsetIncrementOnRebufferMs: Int64 = 500
        /// `DEFAULT_MIN_POSSIBLE_LIVE_OFFSET_SMOOTHING_FACTOR` 0.999.
        public var minPossibleLiveOffsetSmoothingFactor: Float = 0.999

        /// The library defaults.
        public init() {}

        /// Whether the values pass the Builder's `checkArgument`s.
        public var isValid: Bool {
            0 < fallbackMinPlaybackSpeed && fallbackMinPlaybackSpeed <= 1 && fallbackMaxPlaybackSpeed >= 1
                && minUpdateIntervalMs > 0 && proportionalControlFactor > 0 && maxLiveOffsetErrorMsForUnitSpeed > 0
                && targetLiveOffsetIncrementOnRebufferMs >= 0 && minPossibleLiveOffsetSmoothingFactor >= 0
                && minPossibleLiveOffsetSmoothingFactor < 1
        }
    }

    private let fallbackMinPlaybackSpeed: Float
    private let fallbackMaxPlaybackSpeed: Float
    private let minUpdateIntervalMs: Int64
    /// Per microsecond: the Builder's factor / `C.MICROS_PER_SECOND`, in Float32.
    private let proportionalControlFactor: Float
    private let maxLiveOffsetErrorUsForUnitSpeed: Int64
    private let targetLiveOffsetRebufferDeltaUs: Int64
    private let minPossibleLiveOffsetSmoothingFactor: Float

    private var mediaConfigurationTargetLiveOffsetUs = unsetTime
    private var targetLiveOffsetOverrideUs = unsetTime
    /// The ideal target offset: the override, or the media's clamped to its min/max offsets.
    public private(set) var idealTargetLiveOffsetUs = unsetTime
    private var minTargetLiveOffsetUs = unsetTime
    private var maxTargetLiveOffsetUs = unsetTime
    private var currentTargetLiveOffsetUs = unsetTime
    private var maxPlaybackSpeed: Float
    private var minPlaybackSpeed: Float
    private var adjustedPlaybackSpeed: Float = 1
    private var lastPlaybackSpeedUpdateMs = unsetTime
    /// The smoothed minimum possible live offset (live offset − buffered duration).
    public private(set) var smoothedMinPossibleLiveOffsetUs = unsetTime
    /// The smoothed deviation of the minimum possible live offset.
    public private(set) var smoothedMinPossibleLiveOffsetDeviationUs = unsetTime
    /// The target latency last given through ``decide(_:)``, in milliseconds.
    private var decidedTargetOffsetMs: Int64?

    /// Creates a controller from `builder` (``Builder/isValid`` must hold).
    public init(_ builder: Builder = Builder()) {
        precondition(builder.isValid, "DefaultLivePlaybackSpeedControl.Builder out of range")
        fallbackMinPlaybackSpeed = builder.fallbackMinPlaybackSpeed
        fallbackMaxPlaybackSpeed = builder.fallbackMaxPlaybackSpeed
        minUpdateIntervalMs = builder.minUpdateIntervalMs
        proportionalControlFactor = builder.proportionalControlFactor / Float(1_000_000 as Int64)
        maxLiveOffsetErrorUsForUnitSpeed = Self.msToUs(builder.maxLiveOffsetErrorMsForUnitSpeed)
        targetLiveOffsetRebufferDeltaUs = Self.msToUs(builder.targetLiveOffsetIncrementOnRebufferMs)
        minPossibleLiveOffsetSmoothingFactor = builder.minPossibleLiveOffsetSmoothingFactor
        minPlaybackSpeed = fallbackMinPlaybackSpeed
        maxPlaybackSpeed = fallbackMaxPlaybackSpeed
    }

    /// `exoplayer`.
    public var name: String { "exoplayer" }

    /// `getTargetLiveOffsetUs()`: the current target live offset (``unsetTime`` when speed control is off).
    public var targetLiveOffsetUs: Int64 { currentTargetLiveOffsetUs }

    /// `setLiveConfiguration`: the media's `MediaItem.LiveConfiguration` (``unsetTime`` / ``unsetRate`` = unset).
    public mutating func setLiveConfiguration(
        targetOffsetMs: Int64, minOffsetMs: Int64, maxOffsetMs: Int64, minPlaybackSpeed: Float, maxPlaybackSpeed: Float
    ) {
        mediaConfigurationTargetLiveOffsetUs = Self.msToUs(targetOffsetMs)
        minTargetLiveOffsetUs = Self.msToUs(minOffsetMs)
        maxTargetLiveOffsetUs = Self.msToUs(maxOffsetMs)
        self.minPlaybackSpeed = minPlaybackSpeed != Self.unsetRate ? minPlaybackSpeed : fallbackMinPlaybackSpeed
        self.maxPlaybackSpeed = maxPlaybackSpeed != Self.unsetRate ? maxPlaybackSpeed : fallbackMaxPlaybackSpeed
        if self.minPlaybackSpeed == 1 && self.maxPlaybackSpeed == 1 {
            mediaConfigurationTargetLiveOffsetUs = Self.unsetTime
        }
        maybeResetTargetLiveOffsetUs()
    }

    /// `setTargetLiveOffsetOverrideUs`: the app's target offset (``unsetTime`` clears it).
    public mutating func setTargetLiveOffsetOverrideUs(_ liveOffsetUs: Int64) {
        targetLiveOffsetOverrideUs = liveOffsetUs
        maybeResetTargetLiveOffsetUs()
    }

    /// `notifyRebuffer()`: the target offset grows by the rebuffer increment (up to the max offset).
    public mutating func notifyRebuffer() {
        guard currentTargetLiveOffsetUs != Self.unsetTime else { return }
        currentTargetLiveOffsetUs &+= targetLiveOffsetRebufferDeltaUs
        if maxTargetLiveOffsetUs != Self.unsetTime && currentTargetLiveOffsetUs > maxTargetLiveOffsetUs {
            currentTargetLiveOffsetUs = maxTargetLiveOffsetUs
        }
        lastPlaybackSpeedUpdateMs = Self.unsetTime
    }

    /// `getAdjustedPlaybackSpeed(liveOffsetUs, bufferedDurationUs)` at clock `elapsedRealtimeMs`.
    public mutating func getAdjustedPlaybackSpeed(
        liveOffsetUs: Int64, bufferedDurationUs: Int64, elapsedRealtimeMs: Int64
    ) -> Float {
        if mediaConfigurationTargetLiveOffsetUs == Self.unsetTime { return 1 }
        updateSmoothedMinPossibleLiveOffsetUs(liveOffsetUs: liveOffsetUs, bufferedDurationUs: bufferedDurationUs)
        if lastPlaybackSpeedUpdateMs != Self.unsetTime
            && elapsedRealtimeMs &- lastPlaybackSpeedUpdateMs < minUpdateIntervalMs
        {
            return adjustedPlaybackSpeed
        }
        lastPlaybackSpeedUpdateMs = elapsedRealtimeMs
        adjustTargetLiveOffsetUs(liveOffsetUs: liveOffsetUs)
        let liveOffsetErrorUs = liveOffsetUs &- currentTargetLiveOffsetUs
        if Self.javaAbs(liveOffsetErrorUs) < maxLiveOffsetErrorUsForUnitSpeed {
            adjustedPlaybackSpeed = 1
        } else {
            let calculatedSpeed: Float = 1 + proportionalControlFactor * Float(liveOffsetErrorUs)
            adjustedPlaybackSpeed = Swift.max(minPlaybackSpeed, Swift.min(calculatedSpeed, maxPlaybackSpeed))
        }
        return adjustedPlaybackSpeed
    }

    /// Seconds in, microseconds and milliseconds to the Java API: the target latency configures the media (unset
    /// min/max offsets and speeds) when it changes; the clock is truncated to whole milliseconds.
    public mutating func decide(_ state: LiveCatchUpState) -> LiveCatchUpDecision {
        let targetMs = Self.javaLong(Float64(state.targetLatencySeconds * 1000).rounded())
        if decidedTargetOffsetMs != targetMs {
            decidedTargetOffsetMs = targetMs
            setLiveConfiguration(
                targetOffsetMs: targetMs, minOffsetMs: Self.unsetTime, maxOffsetMs: Self.unsetTime,
                minPlaybackSpeed: Self.unsetRate, maxPlaybackSpeed: Self.unsetRate)
        }
        let speed = getAdjustedPlaybackSpeed(
            liveOffsetUs: Self.javaLong((state.latencySeconds * 1e6).rounded()),
            bufferedDurationUs: Self.javaLong((state.bufferSeconds * 1e6).rounded()),
            elapsedRealtimeMs: Self.javaLong((state.nowSeconds * 1000).rounded(.down)))
        return LiveCatchUpDecision(playbackRate: Double(speed))
    }

    /// The player rebuffered.
    public mutating func notifyRebuffer(nowSeconds: Double) { notifyRebuffer() }

    private mutating func maybeResetTargetLiveOffsetUs() {
        var idealOffsetUs = Self.unsetTime
        if mediaConfigurationTargetLiveOffsetUs != Self.unsetTime {
            if targetLiveOffsetOverrideUs != Self.unsetTime {
                idealOffsetUs = targetLiveOffsetOverrideUs
            } else {
                idealOffsetUs = mediaConfigurationTargetLiveOffsetUs
                if minTargetLiveOffsetUs != Self.unsetTime && idealOffsetUs < minTargetLiveOffsetUs {
                    idealOffsetUs = minTargetLiveOffsetUs
                }
                if maxTargetLiveOffsetUs != Self.unsetTime && idealOffsetUs > maxTargetLiveOffsetUs {
                    idealOffsetUs = maxTargetLiveOffsetUs
                }
            }
        }
        if idealTargetLiveOffsetUs == idealOffsetUs { return }
        idealTargetLiveOffsetUs = idealOffsetUs
        currentTargetLiveOffsetUs = idealOffsetUs
        smoothedMinPossibleLiveOffsetUs = Self.unsetTime
        smoothedMinPossibleLiveOffsetDeviationUs = Self.unsetTime
        lastPlaybackSpeedUpdateMs = Self.unsetTime
    }

    private mutating func updateSmoothedMinPossibleLiveOffsetUs(liveOffsetUs: Int64, bufferedDurationUs: Int64) {
        let minPossibleLiveOffsetUs = liveOffsetUs &- bufferedDurationUs
        if smoothedMinPossibleLiveOffsetUs == Self.unsetTime {
            smoothedMinPossibleLiveOffsetUs = minPossibleLiveOffsetUs
            smoothedMinPossibleLiveOffsetDeviationUs = 0
        } else {
            // The maximum keeps track of the upper bound of what is safely possible, not the average.
            smoothedMinPossibleLiveOffsetUs = Swift.max(
                minPossibleLiveOffsetUs,
                Self.smooth(
                    smoothedMinPossibleLiveOffsetUs, minPossibleLiveOffsetUs, minPossibleLiveOffsetSmoothingFactor))
            let deviationUs = Self.javaAbs(minPossibleLiveOffsetUs &- smoothedMinPossibleLiveOffsetUs)
            smoothedMinPossibleLiveOffsetDeviationUs = Self.smooth(
                smoothedMinPossibleLiveOffsetDeviationUs, deviationUs, minPossibleLiveOffsetSmoothingFactor)
        }
    }

    private mutating func adjustTargetLiveOffsetUs(liveOffsetUs: Int64) {
        // A safe distance (3 deviations) above the minimum possible live offset.
        let safeOffsetUs = smoothedMinPossibleLiveOffsetUs &+ 3 &* smoothedMinPossibleLiveOffsetDeviationUs
        if currentTargetLiveOffsetUs > safeOffsetUs {
            // Decrease towards the ideal or safe offset, no faster than the speed delta allowed when slowing down.
            let minUpdateIntervalUs = Self.msToUs(minUpdateIntervalMs)
            let decrementToOffsetCurrentSpeedUs = Self.javaLong(
                (adjustedPlaybackSpeed - 1) * Float(minUpdateIntervalUs))
            let decrementToIncreaseSpeedUs = Self.javaLong((maxPlaybackSpeed - 1) * Float(minUpdateIntervalUs))
            let maxDecrementUs = decrementToOffsetCurrentSpeedUs &+ decrementToIncreaseSpeedUs
            currentTargetLiveOffsetUs = Swift.max(
                safeOffsetUs, idealTargetLiveOffsetUs, currentTargetLiveOffsetUs &- maxDecrementUs)
        } else {
            // Stay just below the safe offset, but no higher than slowing down gradually from now allows.
            let offsetWhenSlowingDownNowUs =
                liveOffsetUs
                &- Self.javaLong(Swift.max(0, adjustedPlaybackSpeed - 1) / proportionalControlFactor)
            currentTargetLiveOffsetUs = Swift.max(
                currentTargetLiveOffsetUs, Swift.min(offsetWhenSlowingDownNowUs, safeOffsetUs))
            if maxTargetLiveOffsetUs != Self.unsetTime && currentTargetLiveOffsetUs > maxTargetLiveOffsetUs {
                currentTargetLiveOffsetUs = maxTargetLiveOffsetUs
            }
        }
    }

    /// `smooth`: (long) (factor × smoothed + (1 − factor) × new), in Float32.
    private static func smooth(_ smoothedValue: Int64, _ newValue: Int64, _ smoothingFactor: Float) -> Int64 {
        let first: Float = smoothingFactor * Float(smoothedValue)
        let second: Float = (1 - smoothingFactor) * Float(newValue)
        return javaLong(first + second)
    }

    /// `Math.abs` of a long (Long.MIN_VALUE stays negative).
    static func javaAbs(_ value: Int64) -> Int64 { value == Int64.min ? value : Swift.abs(value) }

    /// `Util.msToUs`: × 1000, leaving `C.TIME_UNSET` and `C.TIME_END_OF_SOURCE` as they are.
    static func msToUs(_ timeMs: Int64) -> Int64 {
        timeMs == unsetTime || timeMs == Int64.min ? timeMs : timeMs &* 1000
    }

    /// Java's `(long)` of a float or double: toward zero, NaN → 0, saturating at the Int64 limits.
    static func javaLong<F: BinaryFloatingPoint>(_ value: F) -> Int64 {
        if value.isNaN { return 0 }
        if value >= F(Int64.max) { return Int64.max }
        if value <= F(Int64.min) { return Int64.min }
        return Int64(value.rounded(.towardZero))
    }
}
