/// What a live player knows at a catch-up decision, in seconds: the values a catch-up controller reads.
///
/// A player builds one on each playback-progress tick and hands it to its ``LiveCatchUpController``. All times are
/// seconds; rates are multiples of real time (1 = normal speed).
public struct LiveCatchUpState: Sendable, Equatable {
    /// The player's clock at the decision (ExoPlayer `SystemClock.elapsedRealtime()`, Shaka `Date.now()`).
    public var nowSeconds: Double
    /// Current live latency: the live edge's time minus the playhead's media time.
    public var latencySeconds: Double
    /// The latency the player aims at (dash.js live delay, ExoPlayer target live offset, Shaka `targetLatency`).
    public var targetLatencySeconds: Double
    /// Media buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// The playback rate in effect before the decision.
    public var currentRate: Double
    /// The buffer is empty now and playback is stalled (dash.js `PlaybackController.getPlaybackStalled()`).
    public var playbackStalled: Bool

    /// Creates a state; `playbackStalled` defaults to `false`.
    public init(
        nowSeconds: Double, latencySeconds: Double, targetLatencySeconds: Double, bufferSeconds: Double,
        currentRate: Double, playbackStalled: Bool = false
    ) {
        self.nowSeconds = nowSeconds
        self.latencySeconds = latencySeconds
        self.targetLatencySeconds = targetLatencySeconds
        self.bufferSeconds = bufferSeconds
        self.currentRate = currentRate
        self.playbackStalled = playbackStalled
    }
}

/// What a catch-up controller tells the player: the playback rate to use from now on, and whether to seek to the
/// live edge (dash.js `maxDrift`). On a seek the rate is left as it was.
public struct LiveCatchUpDecision: Sendable, Equatable {
    /// The playback rate to play at after the decision (the current rate when nothing changes).
    public var playbackRate: Double
    /// Seek to the live edge minus the target latency (dash.js `seekToCurrentLive`).
    public var seeksToLiveEdge: Bool

    /// Creates a decision.
    public init(playbackRate: Double, seeksToLiveEdge: Bool = false) {
        self.playbackRate = playbackRate
        self.seeksToLiveEdge = seeksToLiveEdge
    }
}

/// A live catch-up controller: chooses the playback rate that brings latency back to its target.
///
/// Pure values in, a decision out; a controller with memory (ExoPlayer's smoothing, Shaka's last rebuffer) is a
/// value type the player owns and mutates. The player calls ``decide(_:)`` on every playback-progress tick while
/// playing a live stream (not while paused or seeking), and the notifications when its buffering state changes.
/// Made by name through ``LiveCatchUpControllers``.
public protocol LiveCatchUpController: Sendable {
    /// The registry name (`dashjs`, `dashjs-lolp`, `exoplayer`, `shaka`, `none`).
    var name: String { get }
    /// One decision on `state`.
    mutating func decide(_ state: LiveCatchUpState) -> LiveCatchUpDecision
    /// Playback ran out of buffer at `nowSeconds` (ExoPlayer `notifyRebuffer`, dash.js `BUFFER_EMPTY`).
    mutating func notifyRebuffer(nowSeconds: Double)
    /// Playback resumed after a rebuffer at `nowSeconds` (Shaka's buffering observer turning `SATISFIED`).
    mutating func notifyRebufferEnded(nowSeconds: Double)
    /// A seek the controller asked for has completed (dash.js `PLAYBACK_SEEKED`).
    mutating func notifySeeked()
}

extension LiveCatchUpController {
    /// Most controllers ignore rebuffers.
    public mutating func notifyRebuffer(nowSeconds: Double) {}
    /// Most controllers ignore the end of a rebuffer.
    public mutating func notifyRebufferEnded(nowSeconds: Double) {}
    /// Most controllers never seek.
    public mutating func notifySeeked() {}
}

/// No catch-up (AVPlayer, which has none): the rate stays as it is and the player never seeks.
public struct NoLiveCatchUp: LiveCatchUpController {
    /// `none`.
    public var name: String { "none" }
    /// Creates the controller.
    public init() {}
    /// Keeps the current rate.
    public func decide(_ state: LiveCatchUpState) -> LiveCatchUpDecision {
        LiveCatchUpDecision(playbackRate: state.currentRate)
    }
}
