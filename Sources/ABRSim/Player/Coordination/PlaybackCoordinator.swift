/// Players that play together, after `AVPlaybackCoordinationMedium`: play, pause, seek and rate changes of any
/// member apply to all, and while any member waits (startup, stall, seek refill) all wait, with reason
/// `waitingForCoordinatedPlayback`; they start again together at the instant every member is ready.
///
/// Created by ``Simulation`` for each scenario `coordinationGroup` (two members at least); members call it from
/// their state changes, and it sees them only through ``CoordinatedPlayer``.
public final class PlaybackCoordinator {
    /// The group's name.
    public let name: String
    /// The members, in scenario order. Held unowned: each member holds its coordinator, and the simulation owns
    /// the members, which outlive it; a strong reference here would make a cycle that leaks every coordinated run.
    private var memberReferences: [UnownedMember] = []

    /// The members, in scenario order.
    var members: [any CoordinatedPlayer] { memberReferences.map(\.member) }

    /// An empty group called `name`.
    init(name: String) {
        self.name = name
    }

    /// Adds `player` to the group.
    func add(_ player: Player) {
        memberReferences.append(UnownedMember(member: player))
        player.coordinator = self
    }

    var activeMembers: [any CoordinatedPlayer] { members.filter(\.isActive) }

    /// `player` is ready to play: start everyone if every member waiting to play is ready too.
    func memberIsReady(_ player: any CoordinatedPlayer, at now: Double) {
        let others = activeMembers.filter { $0 !== player }
        // Members not yet started (later startSeconds) or still short of media hold the group.
        if others.contains(where: { !$0.isWaitingAndReady(at: now) }) {
            player.holdForGroup()
            return
        }
        for member in [player] + others {
            member.beginPlaying(at: now)
            member.recordRow(at: now)
        }
    }

    /// `player` has to wait: every member still playing stops and waits for it.
    func memberWaits(_ player: any CoordinatedPlayer, at now: Double) {
        for member in activeMembers where member !== player && member.isAdvancing {
            member.waitForCoordinatedPlayback(at: now)
            member.recordRow(at: now)
        }
    }

    /// `player` ended or failed: the others stop waiting for it.
    func memberFinished(_ player: any CoordinatedPlayer, at now: Double) {
        for member in activeMembers where member !== player && member.isWaitingToPlay {
            member.startIfReady(at: now)
            member.recordRow(at: now)
        }
    }

    /// Applies a playback action from `origin` to every member (a skip resolves to one seek target for all).
    func perform(_ action: PlayerAction, from origin: any CoordinatedPlayer, at now: Double) {
        var resolved = action
        if case .skip(let offset) = action { resolved = .seek(to: origin.playheadPosition(at: now) + offset) }
        for member in activeMembers {
            member.performLocally(resolved, at: now)
            if member !== origin { member.recordRow(at: now) }
        }
    }
}

/// A member referred to without keeping it alive.
private struct UnownedMember {
    unowned let member: any CoordinatedPlayer
}
