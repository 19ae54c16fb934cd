/// A feed's queue at run time, as `AVQueuePlayer` advances through its items: item k is player k of the run, all
/// on the same shared link. The playing item loads freely (its own forward-buffer target and ABR policy); the others
/// load only what the preload policy asks, one request at a time, at the feed's preload priority. When the playing
/// item ends (the viewer's swipe at its ``Playhead/forwardPlaybackEndTime``, or its end), the next one is asked to
/// play. Made by ``FeedRun``; reviewed by ``Simulation`` after every event.
public final class FeedSession {
    let players: [Player]
    let kernel: Kernel<SimulationEvent>
    let policy: any PreloadPolicy
    let swipe: any SwipeModel
    /// The item ids, in feed order.
    let ids: [String]
    /// How many upcoming items the app knows.
    let window: Int
    /// The watch time of each item, s (its duration when watched to the end).
    let watchSeconds: [Double]
    /// `networkResourcePriority` of the playing item, and of items preloading.
    let playingPriority: NetworkResourcePriority
    let preloadPriority: NetworkResourcePriority
    /// Where the preload policy is written, for the error of a policy naming an item outside the window.
    let file: String
    let location: String
    /// The item playing (or the last one, once it has ended).
    private(set) var current = 0
    /// The item whose preload request is in flight.
    private var preloading: Int?
    private var wakeTimer: TimerHandle?
    /// When each item became the playing one (`nil`: never), s.
    private(set) var playingSince: [Double?]
    /// The segments of each item requested before it played (preloaded).
    private(set) var preloadedSegments: [Int]
    /// The scenario's error found during the run (a policy naming an item outside the window).
    private(set) var inputError: InputError?

    init(
        players: [Player], kernel: Kernel<SimulationEvent>, policy: any PreloadPolicy, swipe: any SwipeModel,
        ids: [String], window: Int, preloadPriority: NetworkResourcePriority, file: String, location: String
    ) {
        self.players = players
        self.kernel = kernel
        self.policy = policy
        self.swipe = swipe
        self.ids = ids
        self.window = window
        self.file = file
        self.location = location
        self.preloadPriority = preloadPriority
        playingPriority = players[0].settings.networkResourcePriority
        watchSeconds = players.indices.map {
            let duration = players[$0].content.duration
            return min(swipe.watchSeconds(item: $0, durationSeconds: duration), duration)
        }
        playingSince = Array(repeating: nil, count: players.count)
        preloadedSegments = Array(repeating: 0, count: players.count)
        for (index, player) in players.enumerated() where index > 0 {
            player.segmentLimit = 0
            player.demand.priority = preloadPriority
            player.demand.weight = player.priorityWeights.weight(preloadPriority)
        }
        setForwardPlaybackEnd(0)
    }

    /// Whether item `index` has not played yet (it waits in the queue).
    func isQueued(_ index: Int) -> Bool { index > current || playingSince[index] == nil }

    /// The sleep asked by the preload policy is over.
    func woke() { wakeTimer = nil }

    /// After an event at `now`: advances past an item that has ended, then lets the preload policy start the next
    /// preload request if none is in flight and it is not sleeping.
    func review(at now: Double) {
        if playingSince[0] == nil, players[0].state != .idle { playingSince[0] = now }
        while players[current].state.isFinal, current + 1 < players.count {
            current += 1
            play(current, at: now)
        }
        if let item = preloading {
            let player = players[item]
            if player.download.request != nil || player.download.pendingRetry != nil { return }
            preloading = nil
        }
        guard wakeTimer == nil, inputError == nil, !players[current].state.isFinal || current + 1 < players.count
        else { return }
        let decision = policy.decide(view(at: now))
        if let reason = policy.failureReason {
            for player in players[current...] where !player.state.isFinal {
                player.finish(.failed(reason: reason), at: now)
                player.recordRow(at: now)
            }
            return
        }
        switch decision {
        case .idle:
            return
        case .sleep(let seconds):
            wakeTimer = kernel.schedule(at: now + max(seconds, 0.001), .feedWake)
        case .preload(let item, let variant):
            guard item > current, item <= min(current + window, players.count - 1) else {
                let last = min(current + window, players.count - 1)
                inputError = InputError(
                    InputPlace(file: file, position: InputPlace.Position(text: location)),
                    .mustBe(
                        "the item the preload policy named at \(formatParameterNumber(now)) s",
                        rule: "in the recommendation window, items \(current + 1)…\(last)", found: "\(item)"))
                kernel.stop()
                return
            }
            let player = players[item]
            // An item not started yet (before the viewer's start) or with nothing left takes no request.
            guard player.state != .idle, player.nextSegment < player.content.segmentCount, !player.state.isFinal
            else { return }
            let limit = player.segmentLimit
            player.segmentLimit = player.nextSegment + 1
            player.preloadVariant = variant
            player.requestNextIfNeeded(at: now)
            player.preloadVariant = nil
            if player.download.request != nil {
                preloading = item
                preloadedSegments[item] += 1
            } else {
                player.segmentLimit = limit
            }
            player.recordRow(at: now)
        }
    }

    /// Makes item `index` the playing one at `now`: it loads freely at the playing priority and is asked to play,
    /// or ends at once when its viewer watches none of it.
    private func play(_ index: Int, at now: Double) {
        let player = players[index]
        playingSince[index] = now
        if preloading == index { preloading = nil }
        player.segmentLimit = Int.max
        setForwardPlaybackEnd(index)
        guard !player.state.isFinal else { return }
        player.performLocally(.networkResourcePriority(playingPriority), at: now)
        if watchSeconds[index] <= SimulationTime.tolerance {
            player.dropRequestInFlight(at: now)
            player.finish(.ended, at: now)
        } else {
            player.performLocally(.play(rate: player.settings.initialRate), at: now)
            player.requestNextIfNeeded(at: now)
        }
        player.recordRow(at: now)
    }

    private func setForwardPlaybackEnd(_ index: Int) {
        let player = players[index]
        if watchSeconds[index] < player.content.duration - SimulationTime.tolerance {
            player.playhead.forwardPlaybackEndTime = watchSeconds[index]
        }
    }

    /// What the preload policy sees at `now`.
    func view(at now: Double) -> FeedView {
        let last = min(current + window, players.count - 1)
        return FeedView(
            time: now, current: state(current, at: now),
            upcoming: current < last ? (current + 1...last).map { state($0, at: now) } : [], swipe: swipe)
    }

    private func state(_ index: Int, at now: Double) -> FeedItemState {
        let player = players[index]
        return FeedItemState(
            position: index, id: ids[index], content: player.content, segmentsRequested: player.nextSegment,
            isLoading: player.download.request != nil, bufferSeconds: player.playhead.bufferLevel(at: now),
            bytes: player.totals.bytes)
    }
}
