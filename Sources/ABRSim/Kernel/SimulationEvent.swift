/// The events of a simulation run. Small plain values, so the event queue never allocates per event.
public enum SimulationEvent: Sendable {
    /// Something happens to player `index` (see ``PlayerEvent``).
    case player(Int, PlayerEvent)
    /// Link `link`'s next transfer finishes; valid only if the link's generation still matches.
    case linkCompletion(link: Int, generation: UInt64)
}

/// What happens to one player.
public enum PlayerEvent: Sendable {
    /// The player appears and, with autoplay, is asked to play.
    case start
    /// Time to try the next request (after a policy's wait, or when the buffer drains to its target).
    case wake(generation: UInt64)
    /// The first byte of the request in flight arrives (one RTT after the request).
    case firstByte(generation: UInt64)
    /// The buffer runs dry at the current rate, if nothing has changed since it was scheduled.
    case bufferRunsOut(generation: UInt64)
    /// Re-evaluate `isPlaybackLikelyToKeepUp` at the instant the predictor said it would turn true.
    case keepUpCheck(generation: UInt64)
    /// A segment read from the cache is complete.
    case cacheRead(generation: UInt64)
    /// Report the request in flight's progress to the policy (policies that may abandon requests).
    case progressCheck(generation: UInt64)
    /// The user action at this index of the player's action list.
    case action(Int)
    /// The request in flight may have received nothing for its timeout (or the timeout needs re-evaluating).
    case requestTimeout(generation: UInt64)
    /// Send again the request that timed out, after its back-off delay.
    case retry(generation: UInt64)
}

/// The queue, clock and shared link of one run; players schedule through it.
public final class SimulationEngine {
    /// Pending events. Modified at every event, by the run loop and by the players it calls; each access is a
    /// single schedule or pop that calls nothing outside the queue, so the run-time exclusivity check is dropped
    /// (`@exclusivity(unchecked)`: one engine per run, on one thread).
    @exclusivity(unchecked) public var queue = EventQueue<SimulationEvent>()
    /// The current simulated time (seconds). Read at every event (unchecked exclusivity, as ``queue``).
    @exclusivity(unchecked) public internal(set) var now = 0.0
    /// The links: 0 is the shared link every player starts on; the others are external playback routes,
    /// each with its own network.
    public let links: [SharedLink]
    /// The generation of each link's completion event currently in the queue.
    @exclusivity(unchecked) var scheduledLinkGenerations: [UInt64]

    /// An engine over `links` (the shared link first) at time 0.
    public init(links: [SharedLink]) {
        self.links = links
        scheduledLinkGenerations = Array(repeating: .max, count: links.count)
    }

    /// The shared link.
    public var link: SharedLink { links[0] }

    /// Schedules `event` at `time` (never before now).
    public func schedule(at time: Double, _ event: SimulationEvent) {
        queue.schedule(at: Swift.max(time, now), event)
    }
}
