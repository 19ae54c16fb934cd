/// What a keep-up predictor sees when it judges `isPlaybackLikelyToKeepUp`.
///
/// Built by the player at each evaluation; times in seconds, sizes in bits, rates in bit/s.
public struct KeepUpContext {
    /// Simulated time now.
    public var time: Double
    /// Media seconds buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// Whether loading is suspended because the forward buffer is at its target (`isPlaybackBufferFull`).
    public var isBufferFull: Bool
    /// Whether every segment up to the end of the content is loaded.
    public var isFullyLoaded: Bool
    /// Whether the player is recovering from a stall (some predictors ask more after a rebuffer).
    public var isRecoveringFromStall: Bool
    /// The player's throughput estimate, or `nil` before it has enough samples.
    public var throughputEstimate: Double?
    /// Playback rate the player will play at (1 = real time).
    public var rate: Double
    /// Media time of the playhead.
    public var playhead: Double
    /// Index of the next segment not yet requested.
    public var nextSegment: Int
    /// Bits of the segment in flight still to arrive (0 when none is in flight).
    public var inFlightRemainingBits: Double
    /// Media time at which the in-flight segment ends (its deadline is the playhead reaching its start).
    public var inFlightSegment: Int?
    /// Variant assumed for the segments not yet requested (the last one chosen).
    public var variant: Int
    /// Round-trip time paid before each future request's first byte.
    public var rttSeconds: Double
    /// The content being played.
    public var content: Content
}

/// The verdict of a ``KeepUpPredictor``.
public enum KeepUpVerdict: Equatable, Sendable {
    /// Playback is likely to keep up.
    case likely
    /// Not likely now; if conditions hold (the estimate is right), it will be at `recheckAt`, when the player
    /// asks again. `nil`: ask again at the next download completion.
    case unlikely(recheckAt: Double?)
}

/// Predicts `AVPlayerItem.isPlaybackLikelyToKeepUp`: whether playback will go on without stalling.
///
/// A player that `automaticallyWaitsToMinimizeStalling` starts and resumes only on a ``KeepUpVerdict/likely``
/// verdict; every player reports the verdict in `timeline.csv`. Implementations must be pure functions of the
/// context. Built in: ``PlayThroughPredictor`` (default) and ``FixedThresholdPredictor``.
public protocol KeepUpPredictor: Sendable {
    /// The verdict for this moment.
    func evaluate(_ context: KeepUpContext) -> KeepUpVerdict
}

/// The default predictor: "can play through".
///
/// Likely when the buffer is full, or everything is loaded, or the buffer holds at least `minimumBufferSeconds`
/// and, at `safetyFactor` × the throughput estimate, every segment not yet loaded arrives before the playhead
/// reaches its start: for each remaining segment j (at the last chosen variant), the time to finish the
/// in-flight download and every request up to j (one RTT each) must not exceed the media time between the
/// playhead and j's start divided by the rate. On a constant link the estimate is exact and a player that
/// waits for this verdict never stalls afterwards. While unlikely, it computes the instant at which the
/// condition will hold if the estimate is right, so the player re-evaluates exactly then.
///
/// Defaults: `minimumBufferSeconds` 1 s, `safetyFactor` 1. Apple does not publish AVPlayer's own predictor;
/// its documentation says it weighs I/O throughput, which is what this models.
public struct PlayThroughPredictor: KeepUpPredictor {
    /// Smallest buffer (media seconds) with which playback may be judged likely, unless fully loaded.
    public var minimumBufferSeconds: Double
    /// Multiplies the throughput estimate (below 1: more cautious).
    public var safetyFactor: Double

    /// A predictor with the given parameters.
    public init(minimumBufferSeconds: Double = 1, safetyFactor: Double = 1) {
        self.minimumBufferSeconds = minimumBufferSeconds
        self.safetyFactor = safetyFactor
    }

    public func evaluate(_ context: KeepUpContext) -> KeepUpVerdict {
        if context.isFullyLoaded || context.isBufferFull { return .likely }
        guard let estimate = context.throughputEstimate, estimate > 0, context.rate > 0 else {
            return .unlikely(recheckAt: nil)
        }
        let rate = estimate * safetyFactor
        let content = context.content
        // Worst lateness over the remaining segments: (projected arrival) − (deadline), both measured from now.
        var downloadSeconds = context.inFlightRemainingBits / rate
        var worstLateness = -Double.infinity
        if let inFlight = context.inFlightSegment {
            let deadline = (content.segmentStarts[inFlight] - context.playhead) / context.rate
            worstLateness = downloadSeconds - max(deadline, 0)
        }
        var segment = context.nextSegment
        let count = content.segmentCount
        let width = content.variantCount
        while segment < count {
            downloadSeconds += context.rttSeconds + content.sizeBits(segment: segment, variant: context.variant) / rate
            let deadline = (content.segmentStarts[segment] - context.playhead) / context.rate
            let lateness = downloadSeconds - deadline
            if lateness > worstLateness { worstLateness = lateness }
            let next = segment + 1
            // Each later segment i adds rtt + bitsᵢ/rate of download and dᵢ₋₁/playRate of deadline. If even the
            // largest segment still to come over the shortest duration adds no lateness, the worst is known.
            if next < count,
                context.rttSeconds + content.suffixMaximumBits[next * width + context.variant] / rate
                    - content.suffixMinimumDuration[segment] / context.rate <= 0
            {
                break
            }
            segment = next
        }
        let bufferShort = context.bufferSeconds < minimumBufferSeconds - SimulationTime.tolerance
        if worstLateness <= SimulationTime.tolerance && !bufferShort { return .likely }
        if bufferShort { return .unlikely(recheckAt: nil) }
        // Waiting delays every deadline by the wait while the arrivals stay put: likely after `worstLateness`.
        return .unlikely(recheckAt: context.time + worstLateness)
    }
}

/// ExoPlayer-style fixed thresholds: likely once the buffer holds `startSeconds` (or `afterStallSeconds`
/// after a stall), or when it is full or everything is loaded. Defaults from ExoPlayer's DefaultLoadControl:
/// 1 s to start, 2 s after a rebuffer (`DEFAULT_BUFFER_FOR_PLAYBACK_MS`, `…_AFTER_REBUFFER_MS`).
public struct FixedThresholdPredictor: KeepUpPredictor {
    /// Buffer needed to start.
    public var startSeconds: Double
    /// Buffer needed to resume after a stall.
    public var afterStallSeconds: Double

    /// A predictor with the given thresholds (seconds).
    public init(startSeconds: Double = 1, afterStallSeconds: Double = 2) {
        self.startSeconds = startSeconds
        self.afterStallSeconds = afterStallSeconds
    }

    public func evaluate(_ context: KeepUpContext) -> KeepUpVerdict {
        if context.isFullyLoaded || context.isBufferFull { return .likely }
        let needed = context.isRecoveringFromStall ? afterStallSeconds : startSeconds
        return context.bufferSeconds >= needed - SimulationTime.tolerance ? .likely : .unlikely(recheckAt: nil)
    }
}
