/// A live player's own state: the presentation it plays, its offset and target latency, its catch-up controller
/// and the controller's pending update, and its latency meter.
///
/// Times in simulated seconds, media times in content seconds. Owned by ``Player`` (`live`, `nil` for video on
/// demand); its behaviour is in Player+Live.swift.
struct LivePlayback {
    /// The presentation.
    let stream: LiveStream
    /// How the player learns of new units.
    let refresh: PlaylistRefresh
    /// The player's offset from the live edge (`configuredTimeOffsetFromLive`).
    let offset: Double
    /// The catch-up controller's target latency.
    let targetLatency: Double
    /// `automaticallyPreservesTimeOffsetFromLive`.
    let preservesOffset: Bool
    /// The catch-up controller (`none` for AVPlayer).
    var controller: any LiveCatchUpController
    /// Whether the controller is consulted at all (not `none`).
    let isCatchingUp: Bool
    /// Whether the controller's state changes at every call (ExoPlayer's smoothing), so that no call may be skipped.
    let changesOnEveryCall: Bool
    /// How often the controller is asked, seconds.
    let interval: Double
    /// The pending controller update.
    var updateTimer: TimerHandle?
    /// The instant the update cadence counts from (the last update, or the start of playing).
    var cadenceOrigin = 0.0
    /// When the player first loaded the playlist (its reloads count from it).
    var playlistOrigin = 0.0
    /// A seek the controller asked for is refilling: the controller is told when playback resumes.
    var isCatchUpSeekPending = false
    /// Seeks made by the controller.
    var catchUpSeeks = 0
    /// Latency from the first frame on.
    var meter = LatencyMeter()

    /// The live state of a player with `settings` playing `stream` (refresh from the settings, else the stream's).
    init(stream: LiveStream, settings: LivePlaybackSettings) {
        self.stream = stream
        refresh = settings.refresh ?? stream.refresh
        offset = settings.offset(on: stream)
        targetLatency = settings.targetLatency(on: stream)
        preservesOffset = settings.automaticallyPreservesTimeOffsetFromLive
        controller = LiveCatchUpControllers.make(settings.catchUp) ?? NoLiveCatchUp()
        isCatchingUp = !(controller is NoLiveCatchUp)
        changesOnEveryCall = controller is DefaultLivePlaybackSpeedControl
        interval = settings.catchUpInterval
    }
}
