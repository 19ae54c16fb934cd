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
    /// The variant last chosen (the start variant before the first choice).
    public var variant: Int
    /// Round-trip time paid before each future request's first byte.
    public var rttSeconds: Double
    /// The content being played.
    public var content: Content
    /// The lowest variant the player's policy may switch down to: 0 for an adaptive policy, ``variant`` for
    /// one that keeps its variant whatever happens (``ABRPolicy/isAdaptive``).
    public var lowestVariant: Int = 0
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
/// context. Built in: ``PlayThroughPredictor`` (default; also as `lastVariantPlayThrough`, the rule that judges
/// at the last variant only) and ``FixedThresholdPredictor``.
public protocol KeepUpPredictor: Sendable {
    /// The verdict for this moment.
    func evaluate(_ context: KeepUpContext) -> KeepUpVerdict
}

/// The default predictor: "can play through", as an adapting player judges it.
///
/// Likely when the buffer is full, or everything is loaded, or the buffer holds at least `minimumBufferSeconds`
/// and, at `safetyFactor` × the throughput estimate, every segment not yet loaded can arrive before the playhead
/// reaches its start at some variant the player may switch to: for each remaining segment j, the time to finish
/// the in-flight download and every request up to j (one RTT each) must not exceed the media time between the
/// playhead and j's start divided by the rate. Which variants count is `variants`:
/// - ``VariantAssumption/adaptive`` (default): any variant from the lowest the policy may switch down to
///   (``KeepUpContext/lowestVariant``: the lowest rung, or the policy's own for one that does not adapt) up to the
///   last one chosen. A player whose ABR adapts switches down rather than stall, so a buffer-based policy that
///   raised its variant while stalled (its buffer grew) does not keep the player waiting for a full buffer.
/// - ``VariantAssumption/lastChosen`` (scenario name `lastVariantPlayThrough`): the last variant chosen only.
///
/// How far ahead: to the end of the content before playback starts; after a stall, over the next
/// `resumeHorizonSeconds` of media only (segments starting within that much of the playhead). A stalled player
/// has just seen its estimate fail, and a device resumes after a few seconds rather than when the rest of the
/// item is sure to play: projecting a dip in the estimate over the whole remaining item kept the old rule waiting
/// tens of seconds where a player that does not wait stalls for one.
///
/// On a constant link the estimate is exact, so a player that waits for this verdict and then keeps to a
/// variant the verdict allowed (a fixed policy, or any policy at or below the judged variant) never stalls
/// afterwards (and so never needs the shorter horizon). While unlikely, the predictor computes the instant at which the condition will hold if the
/// estimate is right (the earliest over the variants judged), so the player re-evaluates exactly then.
///
/// Defaults: `minimumBufferSeconds` 1 s, `safetyFactor` 1, `variants` adaptive, `resumeHorizonSeconds` 8 s (chosen on
/// the acceptance sweep of docs/keep-up-predictor.md: 8 s passes it for every built-in policy, 10 s not for `fixed`)
/// (`.infinity` for the old rule, which also looked to the end after a stall). Apple does not publish
/// AVPlayer's own predictor; its documentation says it weighs I/O throughput and predicts whether the item can
/// play to its end at the current rate, which is what this models.
public struct PlayThroughPredictor: KeepUpPredictor {
    /// Which variants the segments not yet requested are judged at.
    public enum VariantAssumption: String, Sendable {
        /// Any variant from ``KeepUpContext/lowestVariant`` to the last chosen: likely when one plays through.
        case adaptive
        /// The last variant chosen only.
        case lastChosen
    }

    /// Smallest buffer (media seconds) with which playback may be judged likely, unless fully loaded.
    public var minimumBufferSeconds: Double
    /// Multiplies the throughput estimate (below 1: more cautious).
    public var safetyFactor: Double
    /// Which variants count.
    public var variants: VariantAssumption
    /// Media seconds ahead of the playhead judged when resuming after a stall.
    public var resumeHorizonSeconds: Double

    /// A predictor with the given parameters.
    public init(
        minimumBufferSeconds: Double = 1, safetyFactor: Double = 1, variants: VariantAssumption = .adaptive,
        resumeHorizonSeconds: Double = 8
    ) {
        self.minimumBufferSeconds = minimumBufferSeconds
        self.safetyFactor = safetyFactor
        self.variants = variants
        self.resumeHorizonSeconds = resumeHorizonSeconds
    }

    /// The old default: the last variant only, to the end of the content even after a stall
    /// (`lastVariantPlayThrough`).
    public static let lastVariant = PlayThroughPredictor(variants: .lastChosen, resumeHorizonSeconds: .infinity)

    public func evaluate(_ context: KeepUpContext) -> KeepUpVerdict {
        if context.isFullyLoaded || context.isBufferFull { return .likely }
        guard let estimate = context.throughputEstimate, estimate > 0, context.rate > 0 else {
            return .unlikely(recheckAt: nil)
        }
        // Too little buffer: unlikely whatever the lateness, and no instant to recheck at but the next arrival.
        if context.bufferSeconds < minimumBufferSeconds - SimulationTime.tolerance { return .unlikely(recheckAt: nil) }
        let rate = estimate * safetyFactor
        let lowest = variants == .adaptive ? min(max(context.lowestVariant, 0), context.variant) : context.variant
        // The last variant first (the usual verdict), then down the ladder; the first that plays through decides.
        var leastLateness = Double.infinity
        let end = context.isRecoveringFromStall ? segmentsWithin(resumeHorizonSeconds, of: context) : nil
        for variant in stride(from: context.variant, through: lowest, by: -1) {
            let lateness = worstLateness(context, rate: rate, variant: variant, end: end)
            if lateness <= SimulationTime.tolerance { return .likely }
            leastLateness = min(leastLateness, lateness)
        }
        // Waiting delays every deadline by the wait while the arrivals stay put: likely after the least lateness.
        return .unlikely(recheckAt: context.time + leastLateness)
    }

    /// The largest (projected arrival − deadline) over the in-flight segment and every segment still to request,
    /// in seconds from now, downloading at `rate` bit/s and requesting every later segment at `variant`; only the
    /// segments before `end` (all when `nil`).
    ///
    /// Segment j's lateness is the in-flight remainder's time, plus one RTT and its download time for every
    /// segment from the next one to j, minus the media time from the playhead to j's start over the play rate;
    /// sizes are summed from the content's prefix sums, so any segment's lateness costs O(1). From one segment to
    /// the next the lateness changes by rtt + bitsⱼ/rate − dⱼ₋₁/playRate. The walk stops as soon as that change
    /// has one sign for every segment left (known from the suffix extremes of sizes and durations): if none adds
    /// lateness, the worst is already seen; if every one does, the worst is the last segment's. So a constant
    /// bitrate costs O(1), and only sizes that swing about the rate make it walk.
    func worstLateness(_ context: KeepUpContext, rate: Double, variant: Int, end: Int? = nil) -> Double {
        let content = context.content
        let inFlightSeconds = context.inFlightRemainingBits / rate
        var worst = -Double.infinity
        if let inFlight = context.inFlightSegment {
            let deadline = (content.segmentStarts[inFlight] - context.playhead) / context.rate
            worst = inFlightSeconds - max(deadline, 0)
        }
        let first = context.nextSegment
        let count = min(end ?? content.segmentCount, content.segmentCount)
        let rtt = context.rttSeconds
        let playRate = context.rate
        let bitsBefore = first < count ? content.prefixBits(before: first, variant: variant) : 0
        func lateness(_ segment: Int) -> Double {
            let bits = content.prefixBits(before: segment + 1, variant: variant) - bitsBefore
            return inFlightSeconds + Double(segment - first + 1) * rtt + bits / rate
                - (content.segmentStarts[segment] - context.playhead) / playRate
        }
        var segment = first
        while segment < count {
            worst = max(worst, lateness(segment))
            let next = segment + 1
            guard next < count else { break }
            // Every later step adds at most this much lateness (largest size, shortest duration; the extremes run
            // to the content's end, a superset of the steps left before `end`)…
            if rtt + content.suffixMaximumBits(segment: next, variant: variant) / rate
                - content.suffixMinimumDuration(segment: segment) / playRate <= 0
            {
                break
            }
            // …and at least this much (smallest size, longest duration).
            if rtt + content.suffixMinimumBits(segment: next, variant: variant) / rate
                - content.suffixMaximumDuration(segment: segment) / playRate >= 0
            {
                worst = max(worst, lateness(count - 1))
                break
            }
            segment = next
        }
        return worst
    }
}

/// The offline optimum's start and resume rule (``OptimalPolicy``): likely once segments 0…`startSegment` are
/// in (the start its plan chose), or the buffer is full, or everything is loaded; after a stall, as soon as any
/// media is buffered. A waiting player with it starts where the plan says and then behaves as one that does not
/// wait, which is the physics the plan was solved for.
public struct PlannedStartPredictor: KeepUpPredictor {
    /// The segment whose arrival starts playback.
    public var startSegment: Int

    /// A predictor that starts once `startSegment` is in.
    public init(startSegment: Int) { self.startSegment = startSegment }

    public func evaluate(_ context: KeepUpContext) -> KeepUpVerdict {
        if context.isFullyLoaded || context.isBufferFull { return .likely }
        if context.isRecoveringFromStall {
            return context.bufferSeconds > SimulationTime.tolerance ? .likely : .unlikely(recheckAt: nil)
        }
        let loaded = context.nextSegment - (context.inFlightSegment == nil ? 0 : 1)
        return loaded > startSegment ? .likely : .unlikely(recheckAt: nil)
    }
}

extension PlayThroughPredictor {
    /// The number of segments that start less than `horizon` media seconds after the playhead.
    func segmentsWithin(_ horizon: Double, of context: KeepUpContext) -> Int? {
        guard horizon.isFinite else { return nil }
        let limit = context.playhead + horizon
        let starts = context.content.segmentStarts
        var low = 0
        var high = context.content.segmentCount
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < limit { low = middle + 1 } else { high = middle }
        }
        return low
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
