/// One simulated AVPlayer with its item: requests segments one at a time, keeps a forward buffer, plays,
/// stalls, waits to minimise stalling, and records what happens.
///
/// Model (DESIGN §2.4): one request in flight; the ABR policy picks each segment's variant; the player stops
/// requesting while the buffer is at or above its forward-buffer target (an OFF period) and resumes below it.
/// Each request pays the network's RTT before its first byte, then its bits flow over the shared link. The
/// buffer is media time ahead of the playhead and drains at the playback rate. When it runs dry before the
/// end, the player stalls (`buffering`) and resumes when its keep-up predictor says likely (waits to minimise
/// stalling) or as soon as media arrives (does not wait). Startup (play request to first frame) is measured
/// apart from stalls. Driven by ``Simulation``; writes ``SegmentRecord``s, ``TimelineRecord``s and
/// ``PlayerTotals``.
public final class Player {
    /// Index in the scenario.
    public let index: Int
    /// Configuration.
    public let configuration: PlayerConfiguration
    let content: Content
    let settings: PlayerSettings
    let policy: any ABRPolicy
    /// The predictor the player waits on: the policy's own when it decides the start (the offline optimum),
    /// else the settings'.
    let keepUpPredictor: any KeepUpPredictor
    @exclusivity(unchecked) var estimator: any ThroughputEstimator
    /// The estimator's answer for the keep-up predictor, kept until the next sample (whoever adds a sample marks
    /// it stale): the predictor asks at every timeline row, and an EWMA's answer costs two `pow` calls.
    @exclusivity(unchecked) var keepUpEstimate = CachedEstimate.stale
    /// The run's kernel. Held strongly: the kernel holds events, never a player, so there is no cycle, and a
    /// strong `let` is read without the atomic check an `unowned` reference costs on every access.
    let kernel: Kernel<SimulationEvent>
    /// The run's links: 0 is the shared link, the others external playback routes.
    let links: [SharedLink]
    /// The run's count of players still going, told when this one ends.
    let roster: LivePlayerCount?
    /// The run's request-timeout reviews of each link's flows.
    let timeoutReviews: RequestTimeoutReviews?
    /// The run's players whose latest timeline row shows a positive link share (told at every row).
    let rowsWithShare: PlayersWithRecordedShare?
    /// The completed downloads its ABR policy estimates from (a feed's items may share one, `feed.carryEstimate`).
    var history = ThroughputHistory()
    let bufferTarget: Double
    /// What this player's flows ask of the shared link.
    var demand: FlowDemand
    /// The priority weights of the run.
    let priorityWeights: PriorityWeights
    /// Highest variant the settings allow.
    let maxVariant: Int
    /// Whether to record timeline rows (a benchmark may switch them off).
    let recordsTimeline: Bool
    /// The link this player downloads over: 0 (the shared link) unless routed to an external receiver.
    var linkIndex = 0 {
        didSet {
            link = links[linkIndex]
            // An armed timeout counts on the link its player is on.
            if let reviews = timeoutReviews {
                if download.armedTimeout != nil {
                    reviews.armedTimeouts[oldValue] -= 1
                    reviews.armedTimeouts[linkIndex] += 1
                }
                reviews.lowerIdleFloor(link: linkIndex, to: download.idleSince)
            }
        }
    }
    /// The link of `linkIndex`, kept rather than looked up on every use.
    private(set) var link: SharedLink
    /// This run's disk cache instance (shared with other players when the settings say so).
    var cache: SegmentCache?
    /// The coordination group this player plays in, if any.
    var coordinator: PlaybackCoordinator?
    /// The run's ledger of skipped progress checks (`nil`: this player runs every check as an event).
    var skippedChecks: SkippedProgressChecks?

    // The parts. Read and modified at every event (unchecked exclusivity: a player runs on its simulation's one
    // thread and no access to a part spans a call back into the player).
    /// The playback state machine.
    @exclusivity(unchecked) var playback = PlaybackStateMachine()
    /// The playhead and forward buffer.
    @exclusivity(unchecked) var playhead: Playhead
    /// The downloader: the request in flight, its timers, timeout and retry.
    @exclusivity(unchecked) var download: Downloader
    /// The live mode's state (`nil` for video on demand).
    @exclusivity(unchecked) var live: LivePlayback?
    /// Whether ``live`` is set, found once: testing the optional itself copies the whole live state, at every
    /// request and arrival of a video-on-demand player.
    let isLive: Bool

    /// Where the player is in its life (`AVPlayerItem.status` and `AVPlayer.timeControlStatus` together).
    public var state: PlaybackState { playback.state }

    // Loading. Read at every request and arrival (unchecked exclusivity, as the parts).
    @exclusivity(unchecked) var nextSegment = 0
    @exclusivity(unchecked) var lastVariant: Int?
    @exclusivity(unchecked) var isAfterSeek = false
    /// Whether the policy's last answer was a wait (loading suspended by the policy until the wake).
    @exclusivity(unchecked) var isPolicyWaiting = false
    /// Segments at or past this index are not requested (`Int.max`: no limit). A feed's preload policy moves it for
    /// an item not yet playing (``FeedSession``); other players never change it.
    var segmentLimit = Int.max
    /// The variant of the next request when a preload policy chose it (used once, instead of asking the ABR policy).
    var preloadVariant: Int?

    // Pending timed events of playback and loading, each cancelled when it no longer applies. Read and written at
    // most events (unchecked exclusivity, as the parts).
    /// The wake that tries the next request.
    @exclusivity(unchecked) var wakeTimer: TimerHandle?
    /// The instant the buffer runs out if nothing changes; moved later by every arrival.
    @exclusivity(unchecked) var runOutTimer: TimerHandle?
    /// The re-evaluation of the keep-up verdict at the instant the predictor named.
    @exclusivity(unchecked) var keepUpTimer: TimerHandle?

    // Records.
    // Appended to at every download and state change; each append calls nothing that reaches the same array, and
    // a player runs on its simulation's one thread, so the run-time exclusivity check is dropped.
    @exclusivity(unchecked) public internal(set) var segments: [SegmentRecord] = []
    /// The tally of the records when they are not kept (``keepsSegmentRecords`` false), else `nil`.
    @exclusivity(unchecked) public internal(set) var segmentTally: SegmentTally?
    /// Whether every segment record is kept in ``segments``; without them only ``segmentTally`` grows (not at
    /// all: it is a fixed set of sums), so a long run that writes no `segments.csv` holds nothing per segment.
    public var keepsSegmentRecords: Bool { segmentTally == nil }
    @exclusivity(unchecked) public internal(set) var timeline: [TimelineRecord] = []
    @exclusivity(unchecked) public internal(set) var totals = PlayerTotals()
    @exclusivity(unchecked) var stallSecondsAtLastArrival = 0.0
    @exclusivity(unchecked) var lastRow: TimelineRecord?
    /// Where the records go as they are made instead of ``segments`` and ``timeline`` (`nil`: they are kept here).
    /// With a sink the player keeps only ``segmentTally`` and its last timeline row.
    let recordSink: (any RunRecordSink)?

    /// A player of `configuration` scheduling on `kernel` and downloading over `links` (the shared link first);
    /// `roster` is told when it ends, `timeoutReviews` reviews its request timeouts, `rowsWithShare` is told the
    /// share of each timeline row; `recordsTimeline` false skips timeline rows; `recordSink` takes every record
    /// as it is made (the player then keeps none of them).
    init(
        index: Int, configuration: PlayerConfiguration, kernel: Kernel<SimulationEvent>, links: [SharedLink],
        roster: LivePlayerCount? = nil, timeoutReviews: RequestTimeoutReviews? = nil,
        rowsWithShare: PlayersWithRecordedShare? = nil, priorityWeights: PriorityWeights, recordsTimeline: Bool = true,
        keepsSegmentRecords: Bool = true, recordSink: (any RunRecordSink)? = nil
    ) {
        self.index = index
        self.configuration = configuration
        content = configuration.content
        settings = configuration.settings
        policy = configuration.policy
        keepUpPredictor = configuration.policy.keepUpPredictor ?? configuration.settings.keepUpPredictor
        estimator = configuration.estimator
        self.kernel = kernel
        self.links = links
        self.roster = roster
        self.timeoutReviews = timeoutReviews
        self.rowsWithShare = rowsWithShare
        link = links[0]
        self.recordsTimeline = recordsTimeline
        bufferTarget = configuration.settings.forwardBufferTarget
        playhead = Playhead(rate: configuration.settings.initialRate)
        self.priorityWeights = priorityWeights
        let priority = configuration.settings.networkResourcePriority
        demand = FlowDemand(
            priority: priority, weight: priorityWeights.weight(priority),
            rateLimitBps: configuration.settings.rateLimitBps)
        maxVariant = configuration.settings.maximumVariant(of: configuration.content)
        download = Downloader(model: configuration.settings.downloadModel ?? FluidModel())
        if let stream = configuration.content.live {
            live = LivePlayback(stream: stream, settings: configuration.settings.live ?? LivePlaybackSettings())
        }
        isLive = configuration.content.live != nil
        self.recordSink = recordSink
        if keepsSegmentRecords && recordSink == nil {
            segments.reserveCapacity(content.segmentCount)
        } else {
            segmentTally = SegmentTally(ladderBps: content.variants.map(\.bitrateBps))
        }
    }

    /// Keeps `record` (or adds it to the tally when records are not kept, and hands it to the record sink).
    @inline(__always) func keep(_ record: SegmentRecord) {
        if segmentTally == nil {
            segments.append(record)
        } else {
            segmentTally?.add(record)
            recordSink?.take(segment: record)
        }
    }

    /// Schedules the player's start and its actions.
    func scheduleStart() {
        kernel.schedule(at: settings.startSeconds, .player(index, .start))
        for (position, action) in settings.actions.enumerated() {
            kernel.schedule(at: action.time, .player(index, .action(position)))
        }
    }

    // MARK: - Event handling

    /// Handles one of this player's events at the kernel's current time.
    func handle(_ event: PlayerEvent) {
        let now = kernel.now
        // Checks skipped before this instant run first; the event may change what the next ones would see.
        var replansChecks = false
        if download.nextCheck != nil {
            runSkippedChecks(before: now)
            if case .progressCheck = event {} else { replansChecks = true }
        }
        switch event {
        case .start:
            start(at: now)
        case .wake:
            wakeTimer = nil
            requestNextIfNeeded(at: now)
            if playback.waitKind != .none { startIfReady(at: now) }
        case .firstByte:
            download.firstByteTimer = nil
            guard download.request != nil else { return }
            download.request!.firstByteTime = now
            if download.isChunked {
                startNextChunk(at: now)
            } else {
                startDownload(at: now)
            }
            scheduleProgressCheck(at: now)
        case .bufferRunsOut:
            runOutTimer = nil
            bufferRanOut(at: now)
        case .keepUpCheck:
            keepUpTimer = nil
            guard playback.waitKind != .none else { return }
            startIfReady(at: now)
        case .cacheRead:
            download.cacheReadTimer = nil
            guard download.request?.fromCache == true else { return }
            downloadFinished(at: now)
        case .progressCheck:
            download.progressTimer = nil
            download.nextCheck = nil
            guard download.request?.firstByteTime != nil else { return }
            checkProgress(at: now)
        case .action(let position):
            perform(settings.actions[position].action, at: now)
        case .requestTimeout:
            download.timeoutTimer = nil
            guard download.request != nil else { return }
            requestTimeoutFired(at: now)
        case .retry:
            download.retryTimer = nil
            guard download.pendingRetry != nil, !playback.state.isFinal else { return }
            sendRetry(at: now)
        case .catchUpUpdate:
            catchUpUpdate(at: now)
        case .chunkAvailable:
            download.chunkTimer = nil
            guard download.request != nil, download.isChunked else { return }
            startNextChunk(at: now)
        }
        if replansChecks, let next = download.nextCheck { planProgressChecks(from: next) }
        recordRow(at: now)
    }

    func start(at now: Double) {
        guard playback.state == .idle else { return }
        playback.state = .loading
        playback.waitingReason = nil
        playback.timeControlStatus = .paused
        positionAtLive(at: now)
        if settings.autoplay {
            requestPlay(rate: playhead.rate, at: now)
        }
        requestNextIfNeeded(at: now)
    }

    // MARK: - Loading

    var isFullyLoaded: Bool { nextSegment >= content.segmentCount && download.request == nil }

    /// `isPlaybackBufferFull`: further loading is suspended — everything is loaded, the buffer is above its
    /// target, or the policy chose to wait with media buffered (BOLA's "no positive utility") — which, as
    /// Apple documents for `toMinimizeStalls`, also lets a waiting player resume.
    func isBufferFull(at time: Double) -> Bool {
        if isFullyLoaded { return true }
        guard download.request == nil else { return false }
        let buffer = playhead.bufferLevel(at: time)
        return isAboveTarget(buffer) || (isPolicyWaiting && buffer > SimulationTime.tolerance)
    }

    /// The OFF condition: the player requests while the buffer is at or below its target.
    func isAboveTarget(_ buffer: Double) -> Bool { buffer > bufferTarget + SimulationTime.tolerance }

    /// Requests the next segment unless the buffer is above its target; otherwise arranges to be woken when it
    /// has drained to the target.
    func requestNextIfNeeded(at now: Double) {
        guard download.request == nil, download.pendingRetry == nil, !playback.state.isFinal, playback.state != .idle,
            nextSegment < content.segmentCount, nextSegment < segmentLimit
        else { return }
        let buffer = playhead.bufferLevel(at: now)
        if isAboveTarget(buffer) {
            kernel.cancel(&wakeTimer)
            if playhead.isAdvancing {
                wakeTimer = kernel.schedule(at: now + (buffer - bufferTarget) / playhead.rate, .player(index, .wake))
            }
            return
        }
        // Live: a segment that has left the DVR window is no longer listed; the buffer runs out, then the playhead
        // moves to the window's start (Player+DVRWindow.swift).
        if hasLeftDVRWindow(nextSegment, at: now) { return }
        if let available = liveRequestWait(at: now) {
            guard available.isFinite else { return }
            // Live: the next unit is not known yet; ask again the moment it is (the pending wake may be that one).
            if let pending = wakeTimer, kernel.dueTime(of: pending) == available { return }
            kernel.cancel(&wakeTimer)
            wakeTimer = kernel.schedule(at: available, .player(index, .wake))
            return
        }
        let context = makeContext(at: now, buffer: buffer)
        if let chosen = preloadVariant {
            preloadVariant = nil
            let segment = nextSegment
            nextSegment += 1
            send(segment: segment, variant: min(max(chosen, 0), context.maxVariant), buffer: buffer, at: now)
            return
        }
        let decision = policy.decide(context)
        if let reason = policy.failureReason {
            finish(.failed(reason: reason), at: now)
            return
        }
        switch decision {
        case .wait(let seconds):
            isPolicyWaiting = true
            kernel.cancel(&wakeTimer)
            // At least 1 ms, so a policy that keeps answering "wait 0" cannot stall simulated time.
            wakeTimer = kernel.schedule(at: now + max(seconds, 0.001), .player(index, .wake))
        case .variant(let chosen):
            let variant = min(max(chosen, 0), context.maxVariant)
            let segment = nextSegment
            nextSegment += 1
            isAfterSeek = false
            send(segment: segment, variant: variant, buffer: buffer, at: now)
        }
    }

    /// What the policy sees at `now` with `buffer` seconds ahead: the rate in effect (a catch-up controller's
    /// included; 0 unless playing is requested) and, for a live player, its latency and target latency.
    func makeContext(at now: Double, buffer: Double) -> ABRContext {
        ABRContext(
            time: now, segmentIndex: nextSegment, content: content, bufferSeconds: buffer,
            bufferTargetSeconds: bufferTarget, playbackState: playback.state,
            playbackRate: playback.isPlayRequested ? playhead.rate : 0,
            lastVariant: lastVariant, maxVariant: maxVariant, startVariant: content.startVariantIndex,
            history: history, isAfterSeek: isAfterSeek, stallSeconds: stallSeconds(at: now),
            liveLatencySeconds: latency(at: now), targetLatencySeconds: isLive ? live?.targetLatency : nil)
    }
}
