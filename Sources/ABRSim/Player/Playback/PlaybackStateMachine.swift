/// The playback state machine of one player: AVPlayerItem's status as ``PlaybackState``, AVPlayer's
/// ``TimeControlStatus`` and ``WaitingReason``, whether play was requested, and the wait in progress.
///
/// Times in simulated seconds. Owned by ``Player``, which moves it on play, pause, seek, stalls and arrivals;
/// waits are accounted into the player's ``PlayerTotals`` as they begin and end.
struct PlaybackStateMachine {
    /// What kind of wait the player is in, for accounting.
    enum WaitKind {
        case none, startup, stall, refill, coordinated
    }

    /// Where the player is in its life.
    var state: PlaybackState = .idle
    /// Whether the playhead moves, waits to move, or is paused.
    var timeControlStatus: TimeControlStatus = .paused
    /// Why it waits (meaningful while `waitingToPlayAtSpecifiedRate`).
    var waitingReason: WaitingReason? = .noItemToPlay
    /// Whether the user asked to play (a rate above 0).
    var isPlayRequested = false
    /// Whether the first frame has been shown.
    var hasStarted = false
    /// When play was first requested (startup is measured from it).
    var playRequestTime: Double?
    /// The wait in progress and when it began.
    var waitKind = WaitKind.none
    var waitStart = 0.0

    /// Whether the player has appeared and neither ended nor failed.
    var isActive: Bool { state != .idle && !state.isFinal }

    /// Whether the player waits to play (startup, stall, refill or for its group).
    var isWaiting: Bool { waitKind != .none }

    /// Begins a wait of `kind` at `now`; `hasSamples` says whether any download has finished yet.
    mutating func beginWait(_ kind: WaitKind, at now: Double, hasSamples: Bool, totals: inout PlayerTotals) {
        waitKind = kind
        waitStart = now
        if kind == .stall {
            totals.stallCount += 1
            totals.stalls.append(StallPeriod(start: now, end: now))
        }
        timeControlStatus = .waitingToPlayAtSpecifiedRate
        waitingReason = hasSamples ? .toMinimizeStalls : .evaluatingBufferingRate
    }

    /// Closes the current wait's accounting at `now`.
    mutating func endWait(at now: Double, totals: inout PlayerTotals) {
        switch waitKind {
        case .none: break
        case .startup: break
        case .stall:
            totals.stallSeconds += now - waitStart
            if !totals.stalls.isEmpty { totals.stalls[totals.stalls.count - 1].end = now }
            totals.longestStallSeconds = max(totals.longestStallSeconds, now - waitStart)
        case .refill: totals.seekWaitSeconds += now - waitStart
        case .coordinated: totals.coordinatedWaitSeconds += now - waitStart
        }
        waitKind = .none
    }

    /// Stall seconds so far, counting a stall in progress up to `now`.
    func stallSeconds(at now: Double, totals: PlayerTotals) -> Double {
        totals.stallSeconds + (waitKind == .stall ? now - waitStart : 0)
    }

    /// The first frame is shown (or playback resumes) at `now`.
    mutating func beginPlaying(at now: Double, totals: inout PlayerTotals) {
        if waitKind == .startup, let requested = playRequestTime {
            totals.startupSeconds = now - requested
        }
        endWait(at: now, totals: &totals)
        hasStarted = true
        state = .playing
        timeControlStatus = .playing
        waitingReason = nil
    }
}
