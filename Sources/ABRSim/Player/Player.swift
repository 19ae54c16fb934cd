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
    /// What kind of wait the player is in, for accounting.
    enum WaitKind {
        case none, startup, stall, refill, coordinated
    }

    /// The request in flight.
    struct Request {
        var segment: Int
        var variant: Int
        var bits: Double
        var requestTime: Double
        var firstByteTime: Double?
        var bufferBefore: Double
        var fromCache = false
        /// 1 for the first request of the segment, 2 for its first retry after a timeout, …
        var attempt = 1
        /// The flow's share of the capacity at its first byte without a window (`nil` before it, or from the
        /// cache).
        var fairShare: Double?
        /// The link's S(t) at the first byte and the link it was read on, for the mean capacity over the download.
        var bitsAtFirstByte = 0.0
        var firstByteLink = 0
        /// What the download model was asked, and its plan (`nil` for the fluid model).
        var modelRequest: DownloadRequest?
        var plan: DownloadPlan?
    }

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
    var estimator: any ThroughputEstimator
    /// The estimator's answer for the keep-up predictor (`.some(nil)`: not enough data yet), kept until the next
    /// sample (whoever adds a sample clears it): the predictor asks at every timeline row, and an EWMA's answer
    /// costs two `pow` calls.
    var keepUpEstimate: Double??
    /// The run's kernel. Held strongly: the kernel holds events, never a player, so there is no cycle, and a
    /// strong `let` is read without the atomic check an `unowned` reference costs on every access.
    let kernel: Kernel<SimulationEvent>
    /// The run's links: 0 is the shared link, the others external playback routes.
    let links: [SharedLink]
    /// The run's count of players still going, told when this one ends.
    let roster: LivePlayerCount?
    /// The run's request-timeout reviews of each link's flows.
    let timeoutReviews: RequestTimeoutReviews?
    let history = ThroughputHistory()
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
        didSet { link = links[linkIndex] }
    }
    /// The link of `linkIndex`, kept rather than looked up on every use.
    private(set) var link: SharedLink
    /// This run's disk cache instance (shared with other players when the settings say so).
    var cache: SegmentCache?
    /// The coordination group this player plays in, if any.
    var coordinator: PlaybackCoordinator?
    /// How the bytes of its requests arrive (Player+Download.swift).
    let downloadModel: any DownloadModel
    /// Whether that is the fluid model (found once: a dynamic cast per request costs on the hot path).
    let isFluidDownload: Bool
    /// What the player's connection carries from one request to the next.
    var connection = ConnectionState()
    /// When the connection last carried data (seconds; `-.infinity`: never).
    var connectionBusyUntil = -Double.infinity

    // Playback.
    /// Read by the run loop after every event (unchecked exclusivity: a player runs on its simulation's one thread
    /// and no access to it spans a call back into the player).
    @exclusivity(unchecked) public internal(set) var state: PlaybackState = .idle
    var timeControlStatus: TimeControlStatus = .paused
    var waitingReason: WaitingReason? = .noItemToPlay
    var rate: Double
    var isPlayRequested = false
    var isAdvancing = false
    var playhead = 0.0
    var playheadTime = 0.0
    var bufferedEnd = 0.0
    var waitKind = WaitKind.none
    var waitStart = 0.0
    var playRequestTime: Double?
    var hasStarted = false
    /// Media seconds played before the last seek, and where the playhead landed then: played time is
    /// `playedBeforeJump + playhead − runOrigin`, computed from positions rather than summed step by step, so
    /// it does not drift over a long session.
    var playedBeforeJump = 0.0
    var runOrigin = 0.0

    // Loading.
    var nextSegment = 0
    /// Read and replaced at every download event (unchecked exclusivity, as ``state``).
    @exclusivity(unchecked) var request: Request?
    var lastVariant: Int?
    var isAfterSeek = false
    /// Whether the policy's last answer was a wait (loading suspended by the policy until the wake).
    var isPolicyWaiting = false

    // Pending timed events, each cancelled when it no longer applies.
    /// The wake that tries the next request.
    var wakeTimer: TimerHandle?
    /// The instant the buffer runs out if nothing changes; moved later by every arrival.
    var runOutTimer: TimerHandle?
    /// The re-evaluation of the keep-up verdict at the instant the predictor named.
    var keepUpTimer: TimerHandle?
    /// The request in flight's first byte, cache read and progress report, and the retry after a timeout.
    var firstByteTimer: TimerHandle?
    var cacheReadTimer: TimerHandle?
    var progressTimer: TimerHandle?
    var retryTimer: TimerHandle?
    /// The request in flight's timeout check.
    var timeoutTimer: TimerHandle?

    // Request timeout (see Player+RequestTimeout.swift).
    /// Start of the request in flight's current stretch without data, as known at ``timeoutReviewedAt``.
    var idleSince = 0.0
    /// Bits the request in flight had received at the last review.
    var receivedAtReview = 0.0
    var timeoutReviewedAt = 0.0
    /// The link's next completion at the last review: no timeout event is needed beyond it.
    var timeoutHorizon = Double.infinity
    /// When the armed timeout event fires (`nil`: none armed).
    var armedTimeout: Double?
    /// The timed-out request waiting for its back-off delay before it is sent again.
    var pendingRetry: Request?
    /// The long zero-capacity stretches this player's timeout last used, with its link (the index itself is kept
    /// with the link's curve, built on first use).
    var zeroCapacityIndex: (link: Int, index: ZeroCapacityIndex)?

    // Records.
    // Appended to at every download and state change; each append calls nothing that reaches the same array, and
    // a player runs on its simulation's one thread, so the run-time exclusivity check is dropped.
    @exclusivity(unchecked) public internal(set) var segments: [SegmentRecord] = []
    /// The tally of the records when they are not kept (``keepsSegmentRecords`` false), else `nil`.
    public internal(set) var segmentTally: SegmentTally?
    /// Whether every segment record is kept in ``segments``; without them only ``segmentTally`` grows (not at
    /// all: it is a fixed set of sums), so a long run that writes no `segments.csv` holds nothing per segment.
    public var keepsSegmentRecords: Bool { segmentTally == nil }
    @exclusivity(unchecked) public internal(set) var timeline: [TimelineRecord] = []
    public internal(set) var totals = PlayerTotals()
    var stallSecondsAtLastArrival = 0.0
    var lastRow: TimelineRecord?

    /// A player of `configuration` scheduling on `kernel` and downloading over `links` (the shared link first);
    /// `roster` is told when it ends, `timeoutReviews` reviews its request timeouts; `recordsTimeline` false skips
    /// timeline rows.
    init(
        index: Int, configuration: PlayerConfiguration, kernel: Kernel<SimulationEvent>, links: [SharedLink],
        roster: LivePlayerCount? = nil, timeoutReviews: RequestTimeoutReviews? = nil,
        priorityWeights: PriorityWeights, recordsTimeline: Bool = true, keepsSegmentRecords: Bool = true
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
        link = links[0]
        self.recordsTimeline = recordsTimeline
        bufferTarget = configuration.settings.forwardBufferTarget
        rate = configuration.settings.initialRate
        self.priorityWeights = priorityWeights
        let priority = configuration.settings.networkResourcePriority
        demand = FlowDemand(
            priority: priority, weight: priorityWeights.weight(priority),
            rateLimitBps: configuration.settings.rateLimitBps)
        maxVariant = configuration.settings.maximumVariant(of: configuration.content)
        downloadModel = configuration.settings.downloadModel ?? FluidModel()
        isFluidDownload = downloadModel is FluidModel
        if keepsSegmentRecords {
            segments.reserveCapacity(content.segmentCount)
        } else {
            segmentTally = SegmentTally(ladderBps: content.variants.map(\.bitrateBps))
        }
    }

    /// Keeps `record` (or adds it to the tally when records are not kept).
    @inline(__always) func keep(_ record: SegmentRecord) {
        if segmentTally == nil {
            segments.append(record)
        } else {
            segmentTally?.add(record)
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
        switch event {
        case .start:
            start(at: now)
        case .wake:
            wakeTimer = nil
            requestNextIfNeeded(at: now)
            if waitKind != .none { startIfReady(at: now) }
        case .firstByte:
            firstByteTimer = nil
            guard var current = request else { return }
            current.firstByteTime = now
            request = startDownload(current, at: now)
            scheduleProgressCheck(at: now)
        case .bufferRunsOut:
            runOutTimer = nil
            bufferRanOut(at: now)
        case .keepUpCheck:
            keepUpTimer = nil
            guard waitKind != .none else { return }
            startIfReady(at: now)
        case .cacheRead:
            cacheReadTimer = nil
            guard request?.fromCache == true else { return }
            downloadFinished(at: now)
        case .progressCheck:
            progressTimer = nil
            guard request?.firstByteTime != nil else { return }
            checkProgress(at: now)
        case .action(let position):
            perform(settings.actions[position].action, at: now)
        case .requestTimeout:
            timeoutTimer = nil
            guard request != nil else { return }
            requestTimeoutFired(at: now)
        case .retry:
            retryTimer = nil
            guard pendingRetry != nil, !state.isFinal else { return }
            sendRetry(at: now)
        }
        recordRow(at: now)
    }

    func start(at now: Double) {
        guard state == .idle else { return }
        state = .loading
        waitingReason = nil
        timeControlStatus = .paused
        if settings.autoplay {
            requestPlay(rate: rate, at: now)
        }
        requestNextIfNeeded(at: now)
    }

    // MARK: - Loading

    /// Media seconds buffered ahead of the playhead at `time`.
    func bufferLevel(at time: Double) -> Double {
        max(bufferedEnd - playheadPosition(at: time), 0)
    }

    /// The playhead's media time at `time`.
    func playheadPosition(at time: Double) -> Double {
        isAdvancing ? min(playhead + rate * (time - playheadTime), bufferedEnd) : playhead
    }

    var isFullyLoaded: Bool { nextSegment >= content.segmentCount && request == nil }

    /// `isPlaybackBufferFull`: further loading is suspended — everything is loaded, the buffer is above its
    /// target, or the policy chose to wait with media buffered (BOLA's "no positive utility") — which, as
    /// Apple documents for `toMinimizeStalls`, also lets a waiting player resume.
    func isBufferFull(at time: Double) -> Bool {
        if isFullyLoaded { return true }
        guard request == nil else { return false }
        let buffer = bufferLevel(at: time)
        return isAboveTarget(buffer) || (isPolicyWaiting && buffer > SimulationTime.tolerance)
    }

    /// The OFF condition: the player requests while the buffer is at or below its target.
    func isAboveTarget(_ buffer: Double) -> Bool { buffer > bufferTarget + SimulationTime.tolerance }

    /// Requests the next segment unless the buffer is above its target; otherwise arranges to be woken when it
    /// has drained to the target.
    func requestNextIfNeeded(at now: Double) {
        guard request == nil, pendingRetry == nil, !state.isFinal, state != .idle, nextSegment < content.segmentCount
        else { return }
        let buffer = bufferLevel(at: now)
        if isAboveTarget(buffer) {
            kernel.cancel(&wakeTimer)
            if isAdvancing {
                wakeTimer = kernel.schedule(at: now + (buffer - bufferTarget) / rate, .player(index, .wake))
            }
            return
        }
        let context = makeContext(at: now, buffer: buffer)
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

    /// Sends the request for `segment` at `variant` (its first byte comes one RTT later).
    func send(segment: Int, variant: Int, buffer: Double, at now: Double, attempt: Int = 1) {
        isPolicyWaiting = false
        let bits = content.sizeBits(segment: segment, variant: variant)
        request = Request(
            segment: segment, variant: variant, bits: bits, requestTime: now, firstByteTime: nil, bufferBefore: buffer,
            attempt: attempt)
        lastVariant = variant
        cancelRequestTimers()
        resetRequestTimeout(at: now)
        if let cache, cache.lookUp(content: content, segment: segment, variant: variant) {
            request!.fromCache = true
            request!.firstByteTime = now
            cacheReadTimer = kernel.schedule(at: now + bits / cache.diskBitsPerSecond, .player(index, .cacheRead))
            return
        }
        let rtt = link.latency(at: now) ?? 0
        if rtt > 0 {
            firstByteTimer = kernel.schedule(at: now + rtt, .player(index, .firstByte))
        } else {
            request!.firstByteTime = now
            request = startDownload(request!, at: now)
            scheduleProgressCheck(at: now)
        }
    }

    func scheduleProgressCheck(at now: Double) {
        guard let interval = policy.progressCheckInterval, interval > 0 else { return }
        progressTimer = kernel.schedule(at: now + max(interval, 0.001), .player(index, .progressCheck))
    }

    /// Reports the request in flight to the policy; abandons it if the policy says so.
    func checkProgress(at now: Double) {
        guard let current = request, let firstByte = current.firstByteTime else { return }
        link.advance(to: now)
        let remaining = link.remainingBits(owner: index) ?? 0
        let progress = DownloadProgress(
            segment: current.segment, variant: current.variant, totalBits: current.bits,
            receivedBits: current.bits - remaining, requestTime: current.requestTime, firstByteTime: firstByte,
            time: now)
        let buffer = bufferLevel(at: now)
        switch policy.downloadProgress(progress, context: makeContext(at: now, buffer: buffer)) {
        case .keepGoing:
            scheduleProgressCheck(at: now)
        case .abandon(let chosen):
            let received = link.cancelFlow(owner: index, at: now)
            let row = record(
                current, bits: received, firstByte: firstByte, at: now, bufferAfter: buffer, stallSeconds: 0,
                abandoned: true)
            totals.bytes += row.bytes
            keep(row)
            request = nil
            let variant = min(max(chosen, 0), maxVariant)
            send(segment: current.segment, variant: variant, buffer: buffer, at: now)
        }
    }

    func makeContext(at now: Double, buffer: Double) -> ABRContext {
        ABRContext(
            time: now, segmentIndex: nextSegment, content: content, bufferSeconds: buffer,
            bufferTargetSeconds: bufferTarget, playbackState: state, playbackRate: isPlayRequested ? rate : 0,
            lastVariant: lastVariant, maxVariant: maxVariant, startVariant: content.startVariantIndex,
            history: history, isAfterSeek: isAfterSeek, stallSeconds: stallSeconds(at: now))
    }

    /// The link finished this player's transfer at `now`.
    func downloadFinished(at now: Double) {
        guard let finished = request else { return }
        request = nil
        let firstByte = finished.firstByteTime ?? now
        let sample = ThroughputSample(
            bits: finished.bits, requestTime: finished.requestTime, firstByteTime: firstByte, doneTime: now)
        if finished.fromCache {
            totals.cacheHits += 1
        } else {
            connectionFinished(finished, at: now)
            history.append(sample, variant: finished.variant)
            estimator.add(sample)
            keepUpEstimate = nil
            totals.bytes += SegmentRecord.wholeBytes(bits: finished.bits)
            cache?.store(
                content: content, segment: finished.segment, variant: finished.variant, bytes: finished.bits / 8)
        }
        // The playhead keeps moving until the buffer runs dry; bring it to now before adding media.
        freezePlayhead(at: now)
        bufferedEnd = content.segmentStarts[finished.segment + 1]
        let stallTotal = stallSeconds(at: now)
        keep(
            record(
                finished, bits: finished.bits, firstByte: firstByte, at: now, bufferAfter: bufferedEnd - playhead,
                stallSeconds: stallTotal - stallSecondsAtLastArrival, cacheHit: finished.fromCache))
        stallSecondsAtLastArrival = stallTotal
        if !finished.fromCache {
            policy.downloadFinished(sample, context: makeContext(at: now, buffer: bufferedEnd - playhead))
        }
        requestNextIfNeeded(at: now)
        if waitKind != .none {
            startIfReady(at: now)
        } else if isAdvancing {
            scheduleRunOut(at: now)
        } else if state == .loading && !isPlayRequested && hasMedia(at: now) {
            state = .readyToPlay
        }
        recordRow(at: now)
    }

    /// The `segments.csv` row of `request`, ended at `now` with `bits` received.
    func record(
        _ request: Request, bits: Double, firstByte: Double, at now: Double, bufferAfter: Double, stallSeconds: Double,
        abandoned: Bool = false, cacheHit: Bool = false, timedOut: Bool = false, cancelled: Bool = false
    ) -> SegmentRecord {
        let view = modelView(of: request, firstByte: firstByte, at: now)
        return SegmentRecord(
            player: index, segment: request.segment, variant: request.variant,
            bitrateBps: content.variants[request.variant].bitrateBps,
            durationSeconds: content.segmentDurations[request.segment], bytes: SegmentRecord.wholeBytes(bits: bits),
            requestTime: request.requestTime, firstByteTime: firstByte, doneTime: now,
            throughputBps: now > firstByte ? bits / (now - firstByte) : (bits > 0 ? .infinity : 0),
            bufferBeforeSeconds: request.bufferBefore, bufferAfterSeconds: bufferAfter, stallSeconds: stallSeconds,
            abandoned: abandoned, cacheHit: cacheHit, timedOut: timedOut, attempt: request.attempt,
            cancelled: cancelled, availableBps: view.availableBps, modelThroughputBps: view.modelThroughputBps)
    }

    func hasMedia(at now: Double) -> Bool { bufferLevel(at: now) > SimulationTime.tolerance }

    // MARK: - Playback

    /// Stops the playhead at `now`, crediting the media played since it last moved.
    func freezePlayhead(at now: Double) {
        if isAdvancing {
            playhead = playheadPosition(at: now)
            creditPlayed()
        }
        playheadTime = now
    }

    /// Brings `totals.playedSeconds` up to the playhead.
    func creditPlayed() {
        totals.playedSeconds = playedBeforeJump + (playhead - runOrigin)
    }

    /// Moves the (frozen) playhead to `target` by a seek, accounting the media jumped over as skipped.
    func jumpPlayhead(to target: Double) {
        playedBeforeJump += playhead - runOrigin
        totals.skippedSeconds += target - playhead
        playhead = target
        runOrigin = target
        creditPlayed()
    }

    /// Stall seconds so far, counting a stall in progress up to `now`.
    func stallSeconds(at now: Double) -> Double {
        totals.stallSeconds + (waitKind == .stall ? now - waitStart : 0)
    }

    /// Sets the run-out timer to the instant the buffer runs dry at the current rate (moving a pending one).
    func scheduleRunOut(at now: Double) {
        let runOut = now + (bufferedEnd - playhead) / rate
        if let pending = runOutTimer, kernel.move(pending, to: runOut) { return }
        runOutTimer = kernel.schedule(at: runOut, .player(index, .bufferRunsOut))
    }

    /// Cancels the timers of the request in flight (its first byte, cache read and progress report) and of a
    /// pending retry.
    func cancelRequestTimers() {
        kernel.cancel(&firstByteTimer)
        kernel.cancel(&cacheReadTimer)
        kernel.cancel(&progressTimer)
        kernel.cancel(&retryTimer)
    }

    /// The user asked to play at `rate`.
    func requestPlay(rate newRate: Double, at now: Double) {
        guard !state.isFinal, newRate > 0 else { return }
        if isAdvancing {
            freezePlayhead(at: now)
            rate = newRate
            scheduleRunOut(at: now)
            requestNextIfNeeded(at: now)
            return
        }
        rate = newRate
        if isPlayRequested { return }
        isPlayRequested = true
        if !hasStarted {
            playRequestTime = now
            beginWait(.startup, at: now)
            state = .loading
        } else {
            beginWait(hasMedia(at: now) ? .refill : .stall, at: now)
            state = .buffering
        }
        startIfReady(at: now)
    }

    func beginWait(_ kind: WaitKind, at now: Double) {
        waitKind = kind
        waitStart = now
        if kind == .stall {
            totals.stallCount += 1
            totals.stalls.append(StallPeriod(start: now, end: now))
        }
        timeControlStatus = .waitingToPlayAtSpecifiedRate
        waitingReason = history.count == 0 ? .evaluatingBufferingRate : .toMinimizeStalls
    }

    /// Adds the stall in progress, ending at `now`, to the totals.
    func closeStall(at now: Double) {
        totals.stallSeconds += now - waitStart
        if !totals.stalls.isEmpty { totals.stalls[totals.stalls.count - 1].end = now }
        totals.longestStallSeconds = max(totals.longestStallSeconds, now - waitStart)
    }

    /// Closes the current wait's accounting at `now`.
    func endWait(at now: Double) {
        switch waitKind {
        case .none: break
        case .startup: break
        case .stall: closeStall(at: now)
        case .refill: totals.seekWaitSeconds += now - waitStart
        case .coordinated: totals.coordinatedWaitSeconds += now - waitStart
        }
        waitKind = .none
    }

    /// While waiting to play: start now if allowed (with the whole coordination group, if any), otherwise
    /// arrange to ask again.
    func startIfReady(at now: Double) {
        guard waitKind != .none, isPlayRequested else { return }
        guard isReadyToPlay(at: now) else { return }
        if let coordinator {
            coordinator.memberIsReady(self, at: now)
        } else {
            beginPlaying(at: now)
        }
    }

    /// Whether this player's own conditions to start hold now; if not, sets its waiting reason and arranges to
    /// ask again when the predictor says it will hold.
    func isReadyToPlay(at now: Double) -> Bool {
        if !hasMedia(at: now) {
            waitingReason = history.count == 0 ? .evaluatingBufferingRate : .toMinimizeStalls
            return false
        }
        guard settings.automaticallyWaitsToMinimizeStalling else { return true }
        switch predictKeepUp(at: now) {
        case .likely:
            return true
        case .unlikely(let recheckAt):
            waitingReason = .toMinimizeStalls
            kernel.cancel(&keepUpTimer)
            guard let recheckAt else { return false }
            if recheckAt > now + SimulationTime.tolerance {
                keepUpTimer = kernel.schedule(at: recheckAt, .player(index, .keepUpCheck))
                return false
            }
            return true  // Within rounding of now: likely.
        }
    }

    /// Stops the playhead because another member of the coordination group waits.
    func waitForCoordinatedPlayback(at now: Double) {
        guard isAdvancing else { return }
        freezePlayhead(at: now)
        isAdvancing = false
        kernel.cancel(&runOutTimer)
        state = .buffering
        beginWait(.coordinated, at: now)
        waitingReason = .waitingForCoordinatedPlayback
    }

    func beginPlaying(at now: Double) {
        if waitKind == .startup, let requested = playRequestTime {
            totals.startupSeconds = now - requested
        }
        endWait(at: now)
        hasStarted = true
        state = .playing
        timeControlStatus = .playing
        waitingReason = nil
        isAdvancing = true
        playheadTime = now
        scheduleRunOut(at: now)
        requestNextIfNeeded(at: now)
    }

    /// The buffer ran dry while playing.
    func bufferRanOut(at now: Double) {
        freezePlayhead(at: now)
        playhead = bufferedEnd
        creditPlayed()
        isAdvancing = false
        if bufferedEnd >= content.duration - SimulationTime.tolerance {
            finish(.ended, at: now)
            return
        }
        // A download landing within rounding of this instant is not a stall.
        if request != nil, link.projectedFinish(owner: index) <= now + SimulationTime.tolerance {
            isAdvancing = true
            kernel.cancel(&runOutTimer)
            return
        }
        state = .buffering
        beginWait(.stall, at: now)
        coordinator?.memberWaits(self, at: now)
        requestNextIfNeeded(at: now)
    }

    /// Ends the player's run in `final` state.
    func finish(_ final: PlaybackState, at now: Double) {
        let wasFinal = state.isFinal
        freezePlayhead(at: now)
        endWait(at: now)
        isAdvancing = false
        state = final
        timeControlStatus = .paused
        waitingReason = nil
        totals.endTime = now
        coordinator?.memberFinished(self, at: now)
        pendingRetry = nil
        kernel.cancel(&timeoutTimer)
        kernel.cancel(&wakeTimer)
        kernel.cancel(&runOutTimer)
        kernel.cancel(&keepUpTimer)
        cancelRequestTimers()
        if request != nil {
            link.cancelFlow(owner: index, at: now)
            request = nil
        }
        if !wasFinal { roster?.playerEnded() }
    }

    /// Closes open intervals when the run stops at `now` with this player still going.
    func close(at now: Double) {
        if state.isFinal { return }
        freezePlayhead(at: now)
        if waitKind == .stall { closeStall(at: now) }
        if waitKind == .refill { totals.seekWaitSeconds += now - waitStart }
        if waitKind == .coordinated { totals.coordinatedWaitSeconds += now - waitStart }
        waitKind = .none
    }
}
