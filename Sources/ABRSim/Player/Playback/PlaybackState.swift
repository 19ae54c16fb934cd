/// Where a simulated player is in its life, after AVPlayer/AVPlayerItem's states.
///
/// Written to `timeline.csv` by its ``csvName``. `failed` carries the reason, as `AVPlayerItem.status ==
/// .failed` carries an error.
public enum PlaybackState: Equatable, Sendable {
    /// Before the player's start time: no item yet.
    case idle
    /// Play was requested; startup is in progress (before the first frame).
    case loading
    /// Media is loaded but nobody asked to play yet (autoplay off).
    case readyToPlay
    /// The playhead advances at the player's rate.
    case playing
    /// The user paused (rate 0).
    case paused
    /// Play was requested but the buffer ran dry (a stall) or a seek is refilling it.
    case buffering
    /// The playhead reached the end of the content.
    case ended
    /// The item failed and will not play on.
    case failed(reason: String)

    /// The name written to CSV (`failed` without its reason; the reason goes in its own column).
    public var csvName: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .readyToPlay: "readyToPlay"
        case .playing: "playing"
        case .paused: "paused"
        case .buffering: "buffering"
        case .ended: "ended"
        case .failed: "failed"
        }
    }

    /// Whether the player is finished (ended or failed) and schedules nothing more.
    public var isFinal: Bool {
        switch self {
        case .ended, .failed: true
        default: false
        }
    }

    /// Whether the player failed.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// `AVPlayer.TimeControlStatus`: whether the playhead is moving, waiting to move, or paused.
public enum TimeControlStatus: String, Sendable {
    /// Rate is 0.
    case paused
    /// Rate is non-zero but the player waits (see ``WaitingReason``).
    case waitingToPlayAtSpecifiedRate
    /// The playhead advances.
    case playing
}

/// `AVPlayer.WaitingReason`: why a player with a non-zero rate is not playing.
public enum WaitingReason: String, Sendable {
    /// The first moments of loading, before the player has a throughput sample to judge the fill rate by.
    case evaluatingBufferingRate
    /// Waiting until playback is likely to keep up (or, for a player that does not wait, until media arrives).
    case toMinimizeStalls
    /// There is no item to play (before the start time).
    case noItemToPlay
    /// A member of the player's coordination group is waiting.
    case waitingForCoordinatedPlayback
}
