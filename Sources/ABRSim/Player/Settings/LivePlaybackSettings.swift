/// A player's live-playback settings, named after AVPlayerItem's (and dash.js's where AVPlayer has no such
/// concept). Times in seconds. Read by the player when its content is live (``Content/live``).
public struct LivePlaybackSettings: Sendable, Equatable {
    /// `AVPlayerItem.configuredTimeOffsetFromLive` (dash.js `liveDelay`): where the player starts, and where a seek
    /// to live lands, behind the live edge. `nil`: the stream's hold-back (`PART-HOLD-BACK` with parts, else
    /// `HOLD-BACK`).
    public var configuredTimeOffsetFromLive: Double?
    /// `AVPlayerItem.automaticallyPreservesTimeOffsetFromLive`: after a stall, skip forward to restore the configured
    /// offset (AVPlayer's default is false).
    public var automaticallyPreservesTimeOffsetFromLive = false
    /// The latency the catch-up controller aims at (`nil`: the configured offset).
    public var targetLatencySeconds: Double?
    /// The ``LiveCatchUpControllers`` name of the catch-up controller (`none`: AVPlayer, which has none).
    public var catchUp = "none"
    /// How often the controller is asked (`nil`: its player's own cadence, ``defaultCatchUpInterval(for:)``).
    public var catchUpIntervalSeconds: Double?
    /// How the player learns of new units (`nil`: the stream's own, ``LiveStream/refresh``).
    public var refresh: PlaylistRefresh?

    /// AVPlayer's defaults: the stream's hold-back, no catch-up.
    public init() {}

    /// The offset from the live edge the player keeps on `stream`.
    public func offset(on stream: LiveStream) -> Double {
        configuredTimeOffsetFromLive ?? stream.effectiveHoldBackSeconds
    }

    /// The catch-up controller's target latency on `stream`.
    public func targetLatency(on stream: LiveStream) -> Double { targetLatencySeconds ?? offset(on: stream) }

    /// The cadence each player asks its controller at: dash.js and Shaka on the media element's `timeupdate`
    /// (at most every 250 ms by the HTML specification), ExoPlayer at its `minUpdateIntervalMs` (1 s; it calls
    /// more often but recomputes the speed once per interval).
    public static func defaultCatchUpInterval(for controller: String) -> Double {
        controller == "exoplayer" ? 1.0 : 0.25
    }

    /// The cadence in effect.
    public var catchUpInterval: Double { catchUpIntervalSeconds ?? Self.defaultCatchUpInterval(for: catchUp) }
}
