/// Everything a policy may look at when it chooses the next segment's variant. Read-only; built by the
/// player for each decision. Times in seconds, rates in bit/s, sizes from ``content``.
public struct ABRContext {
    /// Simulated time of the decision.
    public var time: Double
    /// Index (0-based) of the segment about to be requested.
    public var segmentIndex: Int
    /// The content: ladder (``Content/variants``, lowest first), segment durations and sizes.
    public var content: Content
    /// Media seconds buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// The player's forward-buffer target (seconds).
    public var bufferTargetSeconds: Double
    /// The player's state when it asks.
    public var playbackState: PlaybackState
    /// The playback rate in effect: the user's, or a live catch-up controller's while it drives the playhead
    /// (1 = real time; 0 while paused).
    public var playbackRate: Double
    /// The variant of the previous segment, or `nil` for the first request (and after a seek, the last one).
    public var lastVariant: Int?
    /// Highest variant the player allows (caps from `preferredPeakBitRate`, `preferredMaximumResolution`).
    public var maxVariant: Int
    /// The variant the content says to start with (the first listed in an HLS master playlist).
    public var startVariant: Int
    /// Every completed download of this player so far, oldest first.
    public var history: ThroughputHistory
    /// Whether the decision follows a seek (policies with a startup phase restart it).
    public var isAfterSeek: Bool
    /// Seconds this player has stalled so far (rebuffering after startup), for policies and agents that are
    /// scored on it (the Python package's `ABREnv` reward).
    public var stallSeconds: Double = 0
    /// For a live stream, the live latency at the decision: now − the media time of the playhead, in seconds
    /// (dash.js `getCurrentLiveLatency`); `nil` for video on demand.
    public var liveLatencySeconds: Double? = nil
    /// For a live stream, the latency the player aims at (dash.js `liveDelay`, the catch-up controller's target),
    /// in seconds; `nil` for video on demand.
    public var targetLatencySeconds: Double? = nil
}

/// What a policy decides for the next request.
public enum ABRDecision: Equatable, Sendable {
    /// Request the segment at this variant index (clamped by the player to `0...maxVariant`).
    case variant(Int)
    /// Request nothing for this many seconds, then ask again (BOLA's "no positive utility" wait).
    case wait(seconds: Double)
}

/// An adaptive-bitrate policy: chooses the variant of each segment a player requests.
///
/// The player calls ``decide(_:)`` each time it is ready to request a segment and ``downloadFinished(_:context:)``
/// after each completed download (feedback for estimators and stateful rules). One instance serves one player
/// for one run, so implementations may keep state; they must be deterministic (randomised policies draw from
/// a ``RandomSource`` seeded by the scenario). Register new policies in ``PolicyRegistry``.
/// The `policy` column of the outputs is the policy as the user wrote it (`bba`, `bba(reservoir=8)`), not
/// something the policy reports.
public protocol ABRPolicy: AnyObject {
    /// The variant of the next segment, or a wait.
    func decide(_ context: ABRContext) -> ABRDecision
    /// Called after each completed download with its measurement.
    func downloadFinished(_ sample: ThroughputSample, context: ABRContext)
    /// How often (seconds) the player should report a download's progress through
    /// ``downloadProgress(_:context:)`` while it is in flight; `nil` (the default) for policies that never
    /// abandon a request. hls.js checks every 0.1 s; dash.js at each progress event.
    var progressCheckInterval: Double? { get }
    /// A download in flight, reported every ``progressCheckInterval`` seconds after its first byte: keep
    /// going, or abandon it and fetch the same segment at another variant (dash.js AbandonRequestsRule,
    /// hls.js emergency switch-down). An abandoned request's bytes count as transferred; it is not a
    /// throughput sample for the player (a policy may sample it itself).
    func downloadProgress(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision
    /// What ``downloadProgress(_:context:)`` may do at the progress checks in `window`: anything other than
    /// ``ProgressOutlook/mayAct`` lets the player skip those checks without an event; `.mayAct` (the default) is
    /// always safe. Asked by the player before it schedules the next check.
    func progressOutlook(in window: ProgressWindow) -> ProgressOutlook
    /// Why the policy can no longer decide (an external policy crashed, timed out or answered garbage), or `nil`.
    /// The player checks it after each ``decide(_:)`` and fails with this reason (`failed(reason:)`).
    var failureReason: String? { get }
    /// Whether the policy changes variant with conditions (true, the default) or keeps one whatever happens
    /// (``FixedPolicy``). The keep-up predictor judges an adaptive policy's player at any variant it may switch
    /// down to, and a non-adaptive one's at its own variant only.
    var isAdaptive: Bool { get }
    /// For a policy that also decides when playback starts and resumes (the offline optimum), the predictor the
    /// player waits on instead of its own; `nil` (the default) for every other policy.
    var keepUpPredictor: (any KeepUpPredictor)? { get }
}

extension ABRPolicy {
    /// Default: no feedback needed.
    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {}
    /// Default: never asks for progress.
    public var progressCheckInterval: Double? { nil }
    /// Default: never fails.
    public var failureReason: String? { nil }
    /// Default: adapts.
    public var isAdaptive: Bool { true }
    /// Default: the player's own predictor.
    public var keepUpPredictor: (any KeepUpPredictor)? { nil }
    /// Default: may act at every check.
    public func progressOutlook(in window: ProgressWindow) -> ProgressOutlook { .mayAct }
    /// Default: keep going.
    public func downloadProgress(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision {
        .keepGoing
    }
}

/// A request in flight, as the player sees it at a progress check. Times in seconds, sizes in bits.
public struct DownloadProgress: Sendable, Equatable {
    /// Segment index.
    public var segment: Int
    /// Variant being fetched.
    public var variant: Int
    /// Size of the whole segment at that variant.
    public var totalBits: Double
    /// Bits received so far.
    public var receivedBits: Double
    /// When the request was sent.
    public var requestTime: Double
    /// When its first byte arrived.
    public var firstByteTime: Double
    /// Now.
    public var time: Double
}

/// A policy's answer to a progress report.
public enum ProgressDecision: Equatable, Sendable {
    /// Let the download finish.
    case keepGoing
    /// Stop it and request the same segment at this variant instead.
    case abandon(switchTo: Int)
}

/// The completed downloads of one player, oldest first, shared read-only with its policy.
///
/// Only the newest downloads are kept (at least ``retainedCount``, at most twice that), so a long run holds a
/// bounded history: no policy reads further back than its window, and every window is at most
/// ``PolicyArguments/maximumCount``.
public final class ThroughputHistory {
    /// The fewest newest samples kept.
    public static let retainedCount = PolicyArguments.maximumCount
    // Unchecked exclusivity: a history belongs to one player of one run, on one thread, and no access to these
    // arrays spans a call that could reach them (a dynamic check per access cost more than the append itself).
    /// The kept samples, oldest first (the newest ``retainedCount`` or more).
    @exclusivity(unchecked) public private(set) var samples: [ThroughputSample] = []
    /// Variant of each kept sample's segment.
    @exclusivity(unchecked) public private(set) var variants: [Int] = []
    /// The number of completed downloads so far, including those no longer kept.
    @exclusivity(unchecked) public private(set) var count = 0

    /// An empty history.
    public init() {}

    /// Appends one completed download (dropping the oldest when twice ``retainedCount`` are kept).
    public func append(_ sample: ThroughputSample, variant: Int) {
        if samples.count >= 2 * Self.retainedCount {
            samples.removeFirst(samples.count - Self.retainedCount)
            variants.removeFirst(variants.count - Self.retainedCount)
        }
        samples.append(sample)
        variants.append(variant)
        count += 1
    }
}
