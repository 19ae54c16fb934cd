/// One run: the assembly of the model's parts — players over a shared network, their links, coordination groups
/// and caches — on one ``Kernel``, which runs until every player has ended or failed, the events run out, or the
/// time limit is reached.
///
/// The scenario layer builds it; ``run()`` returns the records every output is made from.
public final class Simulation {
    /// The kernel (clock, queue, timers).
    public let kernel: Kernel<SimulationEvent>
    /// The links: 0 is the shared link every player starts on; the others are external playback routes, each with
    /// its own network.
    public let links: [SharedLink]
    /// The players, in scenario order.
    public let players: [Player]
    /// Stop at this simulated time (seconds) if not finished before.
    public let timeLimit: Double
    /// Whether the players record timeline rows.
    let recordsTimeline: Bool
    /// Each link's pending completion event (unchecked exclusivity: modified in place after each change of a
    /// link's flows, by the run's one thread, with no call out during the access).
    @exclusivity(unchecked) var completionTimers: [TimerHandle?]
    /// The players still going; stops the kernel when none is left.
    let roster: LivePlayerCount
    /// The request-timeout reviews of the links' flows.
    let timeoutReviews: RequestTimeoutReviews
    /// The players whose latest timeline row shows a positive share, for ``recordShareChanges(on:)``.
    let rowsWithShare: PlayersWithRecordedShare
    /// Per player, the last pass of ``recordShareChanges(on:)`` that reviewed it through its flow, and the number
    /// of passes so far.
    @exclusivity(unchecked) var shareReviewedIn: [Int]
    @exclusivity(unchecked) var shareReviewCount = 0
    /// The players of live content, whose latency is observed after every event.
    let livePlayers: [Player]
    /// The feed whose items the players are (`nil` outside feed runs): reviewed after every event.
    var feed: FeedSession?

    /// Whether progress checks that provably change nothing are skipped rather than each run as an event
    /// (Player+ProgressSkipping.swift; the records are the same either way). Only a run without timeline rows and
    /// without live players skips them. Tests switch it off to compare.
    var plansProgressChecks = true
    /// The ledger of the checks skipped in this run (`nil` while not running, or when every check is an event).
    var skippedChecks: SkippedProgressChecks?

    /// Events processed so far (cancelled ones included), for benchmarks.
    public var eventCount: Int { kernel.processedCount }

    /// A run of `configurations` over `curve`. `timeLimit` defaults to the trace's end when it ends the run,
    /// else unlimited. `allocation` and `priorityWeights` split the link between players' downloads.
    /// `recordsTimeline` false skips timeline rows (benchmarks, sweeps); `keepsSegmentRecords` false keeps only
    /// the tally of the segment records (runs that write no `segments.csv`); `recordSink` takes every record as
    /// it is made, and the result then holds none.
    public init(
        curve: CapacityCurve, players configurations: [PlayerConfiguration], timeLimit: Double? = nil,
        allocation: AllocationStrategy = .weighted, priorityWeights: PriorityWeights = PriorityWeights(),
        routes: [CapacityCurve] = [], recordsTimeline: Bool = true, keepsSegmentRecords: Bool = true,
        recordSink: (any RunRecordSink)? = nil
    ) {
        let allocator = allocation.allocator
        var links: [SharedLink] = [SharedLink(curve: curve, allocator: allocator)]
        for route in routes { links.append(SharedLink(curve: route, allocator: allocator)) }
        let kernel = Kernel<SimulationEvent>()
        self.kernel = kernel
        self.links = links
        completionTimers = Array(repeating: nil, count: links.count)
        roster = LivePlayerCount(count: configurations.count, kernel: kernel)
        timeoutReviews = RequestTimeoutReviews(linkCount: links.count)
        let rowsWithShare = PlayersWithRecordedShare(playerCount: configurations.count)
        self.rowsWithShare = rowsWithShare
        shareReviewedIn = Array(repeating: 0, count: configurations.count)
        var players: [Player] = []
        for (index, configuration) in configurations.enumerated() {
            players.append(
                Player(
                    index: index, configuration: configuration, kernel: kernel, links: links, roster: roster,
                    timeoutReviews: timeoutReviews, rowsWithShare: rowsWithShare, priorityWeights: priorityWeights,
                    recordsTimeline: recordsTimeline,
                    keepsSegmentRecords: keepsSegmentRecords, recordSink: recordSink))
        }
        self.players = players
        livePlayers = players.filter { $0.live != nil }
        self.recordsTimeline = recordsTimeline
        timeoutReviews.minimumTimeout = players.map(\.settings.requests.timeoutSeconds).min() ?? .infinity
        var sharedCache: SegmentCache?
        for player in players {
            guard let settings = player.settings.cache else { continue }
            if settings.isShared {
                if sharedCache == nil {
                    sharedCache = SegmentCache(
                        capacityBytes: settings.capacityBytes, diskBitsPerSecond: settings.diskBitsPerSecond)
                }
                player.cache = sharedCache
            } else {
                player.cache = SegmentCache(
                    capacityBytes: settings.capacityBytes, diskBitsPerSecond: settings.diskBitsPerSecond)
            }
        }
        var groups: [String: PlaybackCoordinator] = [:]
        var order: [String] = []
        for player in players {
            guard let name = player.settings.coordinationGroup else { continue }
            if groups[name] == nil {
                groups[name] = PlaybackCoordinator(name: name)
                order.append(name)
            }
            groups[name]?.add(player)
        }
        var limit = timeLimit ?? .infinity
        if curve.atEnd == .end { limit = min(limit, curve.duration) }
        self.timeLimit = limit
    }

    /// Runs to the end and returns what happened.
    @discardableResult public func run() -> SimulationResult {
        for player in players { player.scheduleStart() }
        let skippedChecks =
            plansProgressChecks && !recordsTimeline && livePlayers.isEmpty ? SkippedProgressChecks(links: links) : nil
        self.skippedChecks = skippedChecks
        for player in players { player.skippedChecks = skippedChecks }
        defer {
            skippedChecks?.removeAll()
            self.skippedChecks = nil
            for player in players { player.skippedChecks = nil }
        }
        kernel.run(until: timeLimit) { event in
            switch event {
            case .player(let index, let event):
                players[index].handle(event)
            case .linkCompletion(let linkIndex):
                completionTimers[linkIndex] = nil
                linkCompleted(linkIndex)
            case .feedWake:
                feed?.woke()
            }
            if let feed { feed.review(at: kernel.now) }
            for linkIndex in links.indices { rescheduleLink(linkIndex) }
            for player in livePlayers { player.observeLatency(at: kernel.now) }
            if recordsTimeline {
                for linkIndex in links.indices { recordShareChanges(on: linkIndex) }
            }
        }
        let end = kernel.now
        // A run never ends with a player that is still loading as if it had succeeded: it never started playing
        // (the run's time limit or the network's end came first), which its summary must say.
        for player in players where player.state == .loading && feed?.isQueued(player.index) != true {
            player.finish(
                .failed(
                    reason:
                        "still loading when the run ended at \(formatParameterNumber(end)) s: playback never started"
                ),
                at: end)
            player.recordRow(at: end)
        }
        for player in players {
            player.close(at: end)
            player.totals.finalState = player.state
        }
        return SimulationResult(
            endTime: end, players: players.map { $0.configuration }, segments: players.map { $0.segments },
            timeline: players.map { $0.timeline }, tallies: players.map { $0.segmentTally },
            totals: players.map { $0.totals },
            priorityWeights: players.map { $0.priorityWeights.weight($0.settings.networkResourcePriority) })
    }

    /// Link `linkIndex`'s completion event came due: the players whose transfers finished are told.
    func linkCompleted(_ linkIndex: Int) {
        let link = links[linkIndex]
        let now = kernel.now
        // The only uncapped flow's state goes with it: the checks it skipped before now need not run.
        if link.flows.count == 1, !link.isCapped { players[link.flows[0].owner].download.nextCheck = nil }
        if let owner = link.takeFinishedSingle(at: now) {
            players[owner].downloadFinished(at: now)
        } else {
            for owner in link.takeFinished(at: now) { players[owner].downloadFinished(at: now) }
        }
    }

    /// After any change to a link's flows, schedules its next completion (cancelling the one before); fails the
    /// players whose transfers can never finish because the network delivers nothing more (a network that ends);
    /// re-arms the request timeouts of the players on the link.
    func rescheduleLink(_ linkIndex: Int) {
        let link = links[linkIndex]
        guard link.flowsChanged else { return }
        link.flowsChanged = false
        skippedChecks?.flowsChanged(on: linkIndex)
        kernel.cancel(&completionTimers[linkIndex])
        let next = link.nextCompletionTime()
        let now = kernel.now
        if next.isFinite {
            completionTimers[linkIndex] = kernel.schedule(at: next, .linkCompletion(link: linkIndex))
            // The flows' rates changed: re-arm each request's timeout for the new allocation.
            timeoutReviews.review(link: linkIndex, of: link, horizon: next, players: players, now: now)
        } else if link.activeFlowCount > 0 {
            for player in players where player.linkIndex == linkIndex && link.remainingBits(owner: player.index) != nil
            {
                player.finish(.failed(reason: "the network delivers no more data"), at: now)
                player.recordRow(at: now)
            }
            rescheduleLink(linkIndex)
        }
    }
}

/// The number of players of a run still going (neither ended nor failed). Players tell it when they end; it stops
/// the kernel when none is left, so the run's loop never looks at every player.
final class LivePlayerCount {
    /// Players still going.
    private(set) var count: Int
    let kernel: Kernel<SimulationEvent>

    /// `count` players going on `kernel`.
    init(count: Int, kernel: Kernel<SimulationEvent>) {
        self.count = count
        self.kernel = kernel
    }

    /// One player ended or failed.
    func playerEnded() {
        count -= 1
        if count == 0 { kernel.stop() }
    }
}

extension Simulation {
    /// After every event, each player on the link whose share differs from its last timeline row gets a row now
    /// (replacing its row of this instant): a change to the link's flows changes the other players' shares too,
    /// and under a cap (a rate limit, the loss bound) so does a change of capacity. So the latest rows at any
    /// instant give every player's current share, and they never sum above 1.
    ///
    /// Only two kinds of player can differ: those with a flow on the link, and those without one whose last row
    /// shows a share other than 0 (a player without a flow has share 0). So the work is in the link's flows and
    /// those players, not in every player of the run.
    func recordShareChanges(on linkIndex: Int) {
        let link = links[linkIndex]
        shareReviewCount += 1
        for position in link.flows.indices {
            let index = link.flows[position].owner
            shareReviewedIn[index] = shareReviewCount
            let player = players[index]
            let share = link.share(at: position)
            guard player.linkIndex == linkIndex, let last = player.lastRow, last.linkShare != share else { continue }
            player.recordRow(at: kernel.now, linkShare: share)
        }
        for index in rowsWithShare.members where shareReviewedIn[index] != shareReviewCount {
            let player = players[index]
            guard player.linkIndex == linkIndex, let last = player.lastRow, last.linkShare != link.share(owner: index)
            else { continue }
            player.recordRow(at: kernel.now)
        }
    }
}

/// The players of a run whose latest timeline row shows a link share other than 0, kept as rows are recorded so
/// that finding them costs nothing per player. Insertion and removal are O(1).
final class PlayersWithRecordedShare {
    /// The players, in no particular order. (Unchecked exclusivity, as every part of a run: one thread, and no
    /// access spans a call.)
    @exclusivity(unchecked) private(set) var members: [Int] = []
    /// Each player's position in `members` (−1: absent).
    @exclusivity(unchecked) private var positions: [Int]

    /// None of `playerCount` players.
    init(playerCount: Int) {
        positions = Array(repeating: -1, count: playerCount)
    }

    /// `player`'s latest row shows `share`.
    func note(player: Int, share: Double) {
        let position = positions[player]
        if share != 0 {
            guard position < 0 else { return }
            positions[player] = members.count
            members.append(player)
        } else if position >= 0 {
            let last = members.removeLast()
            if last != player {
                members[position] = last
                positions[last] = position
            }
            positions[player] = -1
        }
    }
}

/// Everything a run produced, per player (indexed as the scenario's players).
public struct SimulationResult {
    /// When the run stopped (simulated seconds).
    public var endTime: Double
    /// The players' configurations.
    public var players: [PlayerConfiguration]
    /// Each player's segment records, in request order.
    public var segments: [[SegmentRecord]]
    /// Each player's timeline rows.
    public var timeline: [[TimelineRecord]]
    /// Each player's tally of its segment records when they were not kept (`segments` is then empty), else `nil`.
    public var tallies: [SegmentTally?]
    /// Each player's totals.
    public var totals: [PlayerTotals]
    /// Each player's priority weight at its start.
    public var priorityWeights: [Double]
}
