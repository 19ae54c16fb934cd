/// Decides what a short-video feed downloads for the items after the one playing: which item next, at what
/// variant, or how long to sleep, as the MM'22 challenge's `Algorithm.run` does. The playing item downloads on its
/// own (its player and ABR policy, up to its forward-buffer target); a preload policy is asked only while no
/// preload request is in flight and no sleep is pending, after every event of the run. One instance per run,
/// made from the ``PreloadPolicies`` registry. Called by ``FeedSession``.
public protocol PreloadPolicy: AnyObject {
    /// What to do now, given the feed as the app sees it.
    func decide(_ view: FeedView) -> PreloadDecision
    /// Why the policy can no longer answer (an external process that died or answered nonsense), `nil` while it
    /// works.
    var failureReason: String? { get }
}

extension PreloadPolicy {
    public var failureReason: String? { nil }
}

/// A preload policy's answer.
public enum PreloadDecision: Equatable, Sendable {
    /// Request the next segment of the upcoming item at feed position `item` (it must be in the recommendation
    /// window); `variant` `nil` lets the ABR policy choose.
    case preload(item: Int, variant: Int?)
    /// Ask again after this many seconds (at least 1 ms).
    case sleep(seconds: Double)
    /// Nothing to preload: ask again after the next event.
    case idle
}

/// The feed as a preload policy sees it at one instant: the playing item and the items of the recommendation
/// window, each with what is loaded of it. Media times in seconds, sizes in bytes.
public struct FeedView {
    /// Simulated time, s.
    public var time: Double
    /// The playing item.
    public var current: FeedItemState
    /// The upcoming items the app knows about (at most the recommendation window), in feed order.
    public var upcoming: [FeedItemState]
    /// The viewer model, for the chance that a viewer watches past a point of an item.
    public var swipe: any SwipeModel

    /// The chance that the viewer of `item` watches past `seconds` (1 when the model gives no probabilities).
    public func watchProbability(_ item: FeedItemState, past seconds: Double) -> Double {
        guard let model = swipe as? any SwipeProbabilities else { return 1 }
        return model.probabilityWatching(
            past: seconds, item: item.position, durationSeconds: item.content.duration)
    }
}

/// One item of a ``FeedView``.
public struct FeedItemState: Sendable {
    /// Its position in the feed (0-based).
    public var position: Int
    /// Its id.
    public var id: String
    /// Its content.
    public var content: Content
    /// Segments requested so far (the next one to request).
    public var segmentsRequested: Int
    /// Whether a request of it is in flight.
    public var isLoading: Bool
    /// Media seconds buffered ahead of its playhead.
    public var bufferSeconds: Double
    /// Bytes downloaded for it so far.
    public var bytes: Double

    /// Whether every segment has been requested and none is in flight.
    public var isFullyLoaded: Bool { segmentsRequested >= content.segmentCount && !isLoading }
    /// Whether there is a segment left to request.
    public var hasSegmentsLeft: Bool { segmentsRequested < content.segmentCount }
}
