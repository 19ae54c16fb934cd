/// The events of a simulation run, as the ``Kernel`` carries them. Small plain values, so the queue never
/// allocates per event. Scheduled by the players and the link scheduler; dispatched by ``Simulation``.
public enum SimulationEvent: Sendable {
    /// Something happens to player `index` (see ``PlayerEvent``).
    case player(Int, PlayerEvent)
    /// Link `link`'s next transfer finishes (or the link reaches a point where it must look again).
    case linkCompletion(link: Int)
    /// A feed's preload policy asked to be woken after its sleep (``FeedSession``).
    case feedWake
}

/// What happens to one player. Each is scheduled by the part of the player it belongs to, which keeps the
/// event's ``TimerHandle`` and cancels it when it no longer applies.
public enum PlayerEvent: Sendable {
    /// The player appears and, with autoplay, is asked to play.
    case start
    /// Time to try the next request (after a policy's wait, or when the buffer drains to its target).
    case wake
    /// The first byte of the request in flight arrives (one RTT after the request).
    case firstByte
    /// The buffer runs dry at the current rate.
    case bufferRunsOut
    /// Re-evaluate `isPlaybackLikelyToKeepUp` at the instant the predictor said it would turn true.
    case keepUpCheck
    /// A segment read from the cache is complete.
    case cacheRead
    /// Report the request in flight's progress to the policy (policies that may abandon requests).
    case progressCheck
    /// The user action at this index of the player's action list.
    case action(Int)
    /// The request in flight may have received nothing for its timeout (or the timeout needs re-evaluating).
    case requestTimeout
    /// Send again the request that timed out, after its back-off delay.
    case retry
    /// A live player's catch-up controller is asked for a rate (at its update interval).
    case catchUpUpdate
    /// The next CMAF chunk of a chunked (LL-DASH) request in flight is encoded: it starts flowing.
    case chunkAvailable
}
