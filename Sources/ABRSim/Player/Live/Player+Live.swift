/// The player's live mode: where it starts and where a seek to live lands, when it may request each unit, its
/// latency, the catch-up controller's updates, `automaticallyPreservesTimeOffsetFromLive`, and the latency meter.
/// The state is the player's ``LivePlayback``; every hook does nothing for video on demand.
extension Player {
    /// Latency at `now`: the live edge's media time minus the playhead's (`nil` for video on demand).
    func latency(at now: Double) -> Double? {
        guard isLive, let live else { return nil }
        return now - live.stream.availabilityStartSeconds - playhead.position(at: now)
    }

    /// `seekableTimeRanges` at `now` (`nil` for video on demand).
    public func seekableTimeRange(at now: Double) -> ClosedRange<Double>? {
        live?.stream.seekableRange(at: now, in: content)
    }

    /// `AVPlayerItem.recommendedTimeOffsetFromLive` at `now`: the stream's hold-back plus the latency the player's
    /// stalls have added so far (what it would have needed to play through them), never below the hold-back.
    public func recommendedTimeOffsetFromLive(at now: Double) -> Double? {
        guard let live else { return nil }
        return live.stream.effectiveHoldBackSeconds + totals.longestStallSeconds
    }

    /// Where a player `offset` seconds behind the live edge at `now` plays: the edge − offset, within the seekable
    /// range.
    func livePosition(at now: Double, offset: Double, on stream: LiveStream) -> Double {
        let edge = stream.liveEdge(at: now, duration: content.duration)
        let range = stream.seekableRange(at: now, in: content)
        return max(edge - offset, range.lowerBound)
    }

    /// At the start: the playlist is loaded now and the playhead stands at the live edge − the configured offset.
    func positionAtLive(at now: Double) {
        guard var state = live else { return }
        state.playlistOrigin = now
        live = state
        let start = min(livePosition(at: now, offset: state.offset, on: state.stream), content.duration)
        playhead.mediaTime = start
        playhead.runOrigin = start
        playhead.bufferedEnd = start
        playhead.since = now
        nextSegment = content.segmentIndex(containing: start)
    }

    /// A seek target within what a live player may seek to at `now`: the seekable range, up to the live edge − the
    /// configured offset (`target` itself for video on demand).
    func liveSeekTarget(_ target: Double, at now: Double) -> Double {
        guard let live else { return target }
        let range = live.stream.seekableRange(at: now, in: content)
        return min(max(target, range.lowerBound), livePosition(at: now, offset: live.offset, on: live.stream))
    }

    /// The seek to the live edge: lands at the edge − the configured offset.
    func seekToLive(at now: Double) {
        guard let live else { return }
        seek(to: livePosition(at: now, offset: live.offset, on: live.stream), at: now)
    }

    /// When the next unit's request may be sent, if that is later than `now` (`nil`: now, or video on demand).
    func liveRequestWait(at now: Double) -> Double? {
        guard isLive, let live else { return nil }
        let known = live.stream.requestTime(
            of: nextSegment, in: content, refresh: live.refresh, origin: live.playlistOrigin,
            rttSeconds: link.latency(at: now) ?? 0)
        let time = playlistArrival(of: known, at: now)
        return time > now + SimulationTime.tolerance ? time : nil
    }

    /// When the playlist that lists a unit arrives, for a unit the refresh makes known at `known`: `known` itself
    /// unless the stream gives ``LiveStream/playlistBytes``. With them, a `reload` sent at r = `known` (after the
    /// first load, at the player's start) arrives once its 8 × bytes have crossed the link from r + the round trip;
    /// a `blockingReload`, answered at the unit's availability a = `known`, once they have crossed it from a + half
    /// the round trip. The playlist is not a flow: it takes its bits from the link's capacity c(t), not from the
    /// transfers sharing it. `.infinity` when the link never delivers them.
    func playlistArrival(of known: Double, at now: Double) -> Double {
        guard let live, let bytes = live.stream.playlistBytes else { return known }
        let sent: Double
        switch live.refresh {
        case .reload:
            guard known > live.playlistOrigin + SimulationTime.tolerance else { return known }
            sent = known + (link.latency(at: known) ?? 0)
        case .blockingReload:
            sent = known + (link.latency(at: known) ?? 0) / 2
        case .template, .preloadHint:
            return known
        }
        return link.curve.timeToDeliver(8 * bytes, after: sent)
    }

    // MARK: - Catch-up

    /// Playback state changed at `now`: (re)plans the controller's next update, or drops it when the playhead is
    /// not moving.
    func liveStateChanged(at now: Double) {
        guard isLive, var state = live, state.isCatchingUp else { return }
        defer { live = state }
        guard playhead.isAdvancing, playback.state == .playing else {
            kernel.cancel(&state.updateTimer)
            return
        }
        guard let time = nextCatchUpUpdate(after: now, state: state) else {
            kernel.cancel(&state.updateTimer)
            return
        }
        if let pending = state.updateTimer, let due = kernel.dueTime(of: pending) {
            if due != time { kernel.move(pending, to: time) }
        } else {
            state.updateTimer = kernel.schedule(at: time, .player(index, .catchUpUpdate))
        }
    }

    /// The first update instant after `now` at which the controller's answer may change the rate (`nil`: the buffer
    /// runs out first, and the run-out event replans).
    func nextCatchUpUpdate(after now: Double, state: LivePlayback) -> Double? {
        let step = state.interval
        let elapsed = ((now - state.cadenceOrigin) / step).rounded(.down)
        var time = state.cadenceOrigin + (elapsed + 1) * step
        if time <= now + SimulationTime.tolerance { time += step }
        if !state.changesOnEveryCall {
            // The decision depends on the clock, latency and buffer only, which move linearly until the next event:
            // ask a copy at each update instant and wake only at the first whose answer changes the rate.
            var probe = state.controller
            for _ in 0..<512 {
                let buffer = playhead.bufferedEnd - playhead.position(at: time)
                guard buffer > SimulationTime.tolerance else { return nil }
                let decision = probe.decide(catchUpInput(at: time, buffer: buffer, state: state))
                if decision.seeksToLiveEdge || decision.playbackRate != playhead.rate { break }
                time += step
            }
        }
        return time
    }

    /// What the controller reads at `time`.
    func catchUpInput(at time: Double, buffer: Double, state: LivePlayback) -> LiveCatchUpState {
        LiveCatchUpState(
            nowSeconds: time,
            latencySeconds: time - state.stream.availabilityStartSeconds - playhead.position(at: time),
            targetLatencySeconds: state.targetLatency, bufferSeconds: buffer, currentRate: playhead.rate,
            playbackStalled: false)
    }

    /// The controller's update came due: its rate drives the playhead; past its maximum drift it seeks to the live
    /// edge − the target latency.
    func catchUpUpdate(at now: Double) {
        guard var state = live else { return }
        state.updateTimer = nil
        state.cadenceOrigin = now
        guard playhead.isAdvancing, playback.state == .playing else {
            live = state
            return
        }
        let decision = state.controller.decide(
            catchUpInput(at: now, buffer: playhead.bufferLevel(at: now), state: state))
        if decision.seeksToLiveEdge {
            state.catchUpSeeks += 1
            state.isCatchUpSeekPending = true
            live = state
            seek(to: livePosition(at: now, offset: state.targetLatency, on: state.stream), at: now)
            return
        }
        live = state
        if decision.playbackRate > 0, decision.playbackRate != playhead.rate {
            freezePlayhead(at: now)
            playhead.rate = decision.playbackRate
            scheduleRunOut(at: now)
            requestNextIfNeeded(at: now)
        }
        liveStateChanged(at: now)
    }

    /// The buffer ran dry at `now`: the controller hears of the rebuffer.
    func liveRebuffered(at now: Double) {
        guard isLive, live != nil else { return }
        live!.controller.notifyRebuffer(nowSeconds: now)
        liveStateChanged(at: now)
    }

    /// A unit of `addedSeconds` arrived at `now`: dash.js's controller clears its stall flag once the buffer exceeds
    /// half the live delay (`BUFFER_LEVEL_UPDATED`). The next update is planned again when the answer may depend on
    /// the new buffer (that flag changed, or LoL+'s buffer rule applied before the arrival) or none is pending (the
    /// buffer was to run out first).
    func liveArrived(at now: Double, addedSeconds: Double) {
        guard isLive, var state = live, state.isCatchingUp else { return }
        var dependsOnBuffer = false
        if var dash = state.controller as? DashCatchupController {
            let wasStalled = dash.catchupStalled
            dash.bufferLevelUpdated(bufferSeconds: playhead.bufferLevel(at: now), liveDelaySeconds: state.targetLatency)
            let before = playhead.bufferLevel(at: now) - addedSeconds
            dependsOnBuffer =
                dash.catchupStalled != wasStalled
                || (dash.settings.effectiveMode == .liveCatchupModeLoLP && before < dash.settings.playbackBufferMin)
            state.controller = dash
            live = state
        }
        if dependsOnBuffer || state.updateTimer.map({ !kernel.isPending($0) }) ?? true { liveStateChanged(at: now) }
    }

    /// Playback is about to resume at `now` after a wait of `kind`. Returns `false` when the player seeks instead
    /// (`automaticallyPreservesTimeOffsetFromLive` after a stall, beyond the buffer).
    func liveResumes(after kind: PlaybackStateMachine.WaitKind, at now: Double) -> Bool {
        guard var state = live else { return true }
        if kind == .stall { state.controller.notifyRebufferEnded(nowSeconds: now) }
        if state.isCatchUpSeekPending {
            state.isCatchUpSeekPending = false
            state.controller.notifySeeked()
        }
        live = state
        guard kind == .stall, state.preservesOffset else { return true }
        let target = livePosition(at: now, offset: state.offset, on: state.stream)
        guard target > playhead.mediaTime + SimulationTime.tolerance else { return true }
        if target < playhead.bufferedEnd - SimulationTime.tolerance {
            jumpPlayhead(to: target)
            return true
        }
        seek(to: target, at: now)
        return false
    }

    // MARK: - Latency meter

    /// Records the latency at `now` and its slope until the next event (from the first frame until the end).
    func observeLatency(at now: Double) {
        guard isLive, live != nil, playback.hasStarted, !playback.state.isFinal, let value = latency(at: now) else {
            return
        }
        let slope = 1 - (playhead.isAdvancing ? playhead.rate : 0)
        live!.meter.observe(time: now, latency: value, slope: slope)
    }

    /// The player ended or the run stopped at `now`: closes the meter and puts its figures in the totals.
    func closeLive(at now: Double) {
        guard var state = live else { return }
        kernel.cancel(&state.updateTimer)
        state.meter.close(at: now)
        totals.live = state.meter.summary(targetSeconds: state.targetLatency, catchUpSeeks: state.catchUpSeeks)
        live = state
    }
}
