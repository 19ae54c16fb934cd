/// Shaka Player's live sync (`lib/player.js` `onTimeUpdate_`, `streaming.liveSync` with `enabled: true`).
///
/// With tolerance τ = `targetLatencyTolerance` and target latency T: above T + τ play at `maxPlaybackRate`, below
/// max(0, T − τ) at `minPlaybackRate`, otherwise at 1 (`cancelTrickPlay`); in `panicMode`, within `panicThreshold`
/// seconds after a rebuffer ended, play at `minPlaybackRate`. Defaults from `lib/util/player_configuration.js`:
/// tolerance 0.5 s, max rate 1.1, min rate 0.95, panic mode off, panic threshold 60 s. The target latency is the
/// player's (``LiveCatchUpState/targetLatencySeconds``; Shaka's own default `targetLatency` is 0.5 s).
/// `dynamicTargetLatency` is not modelled. A player owns one and calls ``decide(_:)`` on each time update.
public struct ShakaLiveSync: LiveCatchUpController {
    /// `liveSync.targetLatencyTolerance`, seconds.
    public var targetLatencyTolerance = 0.5
    /// `liveSync.maxPlaybackRate`.
    public var maxPlaybackRate = 1.1
    /// `liveSync.minPlaybackRate`.
    public var minPlaybackRate = 0.95
    /// `liveSync.panicMode`.
    public var panicMode = false
    /// `liveSync.panicThreshold`, seconds.
    public var panicThreshold = 60.0
    /// When the last rebuffer ended (the buffering observer's `lastRebufferTime_`; 0 = the epoch, never).
    public var lastRebufferSeconds = 0.0

    /// Creates the controller with Shaka's defaults.
    public init() {}

    /// `shaka`.
    public var name: String { "shaka" }

    /// The `onTimeUpdate_` rule.
    public func decide(_ state: LiveCatchUpState) -> LiveCatchUpDecision {
        let target = state.targetLatencySeconds
        let maxLatency = target + targetLatencyTolerance
        let minLatency = max(0, target - targetLatencyTolerance)
        let latency = state.latencySeconds
        if panicMode && minPlaybackRate != 0 && state.nowSeconds - lastRebufferSeconds <= panicThreshold {
            return LiveCatchUpDecision(playbackRate: minPlaybackRate)
        }
        if maxPlaybackRate != 0 && latency > maxLatency { return LiveCatchUpDecision(playbackRate: maxPlaybackRate) }
        if minPlaybackRate != 0 && latency < minLatency { return LiveCatchUpDecision(playbackRate: minPlaybackRate) }
        return LiveCatchUpDecision(playbackRate: 1)
    }

    /// The buffering observer turned `SATISFIED` at `nowSeconds`.
    public mutating func notifyRebufferEnded(nowSeconds: Double) { lastRebufferSeconds = nowSeconds }
}
