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
        // Too little buffer: unlikely whatever the lateness, and no instant to recheck at but the next arrival.
        if context.bufferSeconds < minimumBufferSeconds - SimulationTime.tolerance { return .unlikely(recheckAt: nil) }
        let worstLateness = worstLateness(context, rate: estimate * safetyFactor)
        if worstLateness <= SimulationTime.tolerance { return .likely }
        // Waiting delays every deadline by the wait while the arrivals stay put: likely after `worstLateness`.
        return .unlikely(recheckAt: context.time + worstLateness)
    }

    /// The largest (projected arrival − deadline) over the in-flight segment and every segment still to request,
    /// in seconds from now, downloading at `rate` bit/s.
    ///
    /// Segment j's lateness is the in-flight remainder's time, plus one RTT and its download time for every
    /// segment from the next one to j, minus the media time from the playhead to j's start over the play rate;
    /// sizes are summed from the content's prefix sums, so any segment's lateness costs O(1). From one segment to
    /// the next the lateness changes by rtt + bitsⱼ/rate − dⱼ₋₁/playRate. The walk stops as soon as that change
    /// has one sign for every segment left (known from the suffix extremes of sizes and durations): if none adds
    /// lateness, the worst is already seen; if every one does, the worst is the last segment's. So a constant
    /// bitrate costs O(1), and only sizes that swing about the rate make it walk.
    func worstLateness(_ context: KeepUpContext, rate: Double) -> Double {
        let content = context.content
        let inFlightSeconds = context.inFlightRemainingBits / rate
        var worst = -Double.infinity
        if let inFlight = context.inFlightSegment {
            let deadline = (content.segmentStarts[inFlight] - context.playhead) / context.rate
            worst = inFlightSeconds - max(deadline, 0)
        }
        let first = context.nextSegment
        let count = content.segmentCount
        let width = content.variantCount
        let variant = context.variant
        let rtt = context.rttSeconds
        let playRate = context.rate
        return content.prefixBits.withUnsafeBufferPointer { prefix in
            content.segmentStarts.withUnsafeBufferPointer { starts in
                let bitsBefore = first < count ? prefix[first * width + variant] : 0
                func lateness(_ segment: Int) -> Double {
                    let bits = prefix[(segment + 1) * width + variant] - bitsBefore
                    return inFlightSeconds + Double(segment - first + 1) * rtt + bits / rate
                        - (starts[segment] - context.playhead) / playRate
                }
                var segment = first
                while segment < count {
                    worst = max(worst, lateness(segment))
                    let next = segment + 1
                    guard next < count else { break }
                    let later = next * width + variant
                    // Every later step adds at most this much lateness (largest size, shortest duration)…
                    if rtt + content.suffixMaximumBits[later] / rate - content.suffixMinimumDuration[segment] / playRate
                        <= 0
                    {
                        break
                    }
                    // …and at least this much (smallest size, longest duration).
                    if rtt + content.suffixMinimumBits[later] / rate - content.suffixMaximumDuration[segment] / playRate
                        >= 0
                    {
                        worst = max(worst, lateness(count - 1))
                        break
                    }
                    segment = next
                }
                return worst
            }
        }
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
