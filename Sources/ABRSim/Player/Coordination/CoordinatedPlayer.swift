/// What a ``PlaybackCoordinator`` may see of and ask of a member: whether it takes part, whether it waits and
/// could start, and the group-wide moves (start, hold, apply an action). Times in simulated seconds.
/// ``Player`` conforms; the coordinator calls it from the members' state changes.
protocol CoordinatedPlayer: AnyObject {
    /// Whether the member has appeared and neither ended nor failed.
    var isActive: Bool { get }
    /// Whether its playhead moves.
    var isAdvancing: Bool { get }
    /// Whether it waits to play (startup, stall, refill or for the group).
    var isWaitingToPlay: Bool { get }
    /// Whether it waits to play and its own conditions to start hold at `now`.
    func isWaitingAndReady(at now: Double) -> Bool
    /// Its playhead's media time at `now`.
    func playheadPosition(at now: Double) -> Double
    /// It is ready but another member holds the group: its waiting reason says so.
    func holdForGroup()
    /// Starts (or resumes) its playback at `now`.
    func beginPlaying(at now: Double)
    /// Stops its playhead at `now` because another member waits.
    func waitForCoordinatedPlayback(at now: Double)
    /// Starts at `now` if it waits and may (asking the group again).
    func startIfReady(at now: Double)
    /// Carries out `action` on this member alone at `now`.
    func performLocally(_ action: PlayerAction, at now: Double)
    /// Records its timeline row at `now` if anything observable changed.
    func recordRow(at now: Double)
}

extension Player: CoordinatedPlayer {
    var isActive: Bool { playback.isActive }
    var isAdvancing: Bool { playhead.isAdvancing }
    var isWaitingToPlay: Bool { playback.isWaiting }

    func isWaitingAndReady(at now: Double) -> Bool {
        playback.isPlayRequested && playback.isWaiting && isReadyToPlay(at: now)
    }

    func playheadPosition(at now: Double) -> Double { playhead.position(at: now) }

    func holdForGroup() { playback.waitingReason = .waitingForCoordinatedPlayback }
}
