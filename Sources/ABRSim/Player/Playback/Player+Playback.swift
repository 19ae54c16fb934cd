/// The player's playback: play requests, waits (startup, stall, seek refill, for the coordination group), the
/// start of playback, the buffer running dry, and the end. The state is the player's ``PlaybackStateMachine`` and
/// ``Playhead``.
extension Player {
    /// Stops the playhead at `now`, crediting the media played since it last moved.
    func freezePlayhead(at now: Double) {
        if playhead.freeze(at: now) { totals.playedSeconds = playhead.playedSeconds }
    }

    /// Moves the (frozen) playhead to `target` by a seek, accounting the media jumped over as skipped.
    func jumpPlayhead(to target: Double) {
        totals.skippedSeconds += playhead.jump(to: target)
        totals.playedSeconds = playhead.playedSeconds
    }

    /// Stall seconds so far, counting a stall in progress up to `now`.
    func stallSeconds(at now: Double) -> Double { playback.stallSeconds(at: now, totals: totals) }

    /// Sets the run-out timer to the instant the buffer runs dry at the current rate (moving a pending one).
    func scheduleRunOut(at now: Double) {
        let runOut = playhead.runOutTime(from: now)
        if let pending = runOutTimer, kernel.move(pending, to: runOut) { return }
        runOutTimer = kernel.schedule(at: runOut, .player(index, .bufferRunsOut))
    }

    /// The user asked to play at `rate`.
    func requestPlay(rate newRate: Double, at now: Double) {
        guard !playback.state.isFinal, newRate > 0 else { return }
        if playhead.isAdvancing {
            freezePlayhead(at: now)
            playhead.rate = newRate
            scheduleRunOut(at: now)
            liveStateChanged(at: now)
            requestNextIfNeeded(at: now)
            return
        }
        playhead.rate = newRate
        if playback.isPlayRequested { return }
        playback.isPlayRequested = true
        if !playback.hasStarted {
            playback.playRequestTime = now
            beginWait(.startup, at: now)
            playback.state = .loading
        } else {
            beginWait(playhead.hasMedia(at: now) ? .refill : .stall, at: now)
            playback.state = .buffering
            if leaveRemovedMedia(at: now) { return }
        }
        startIfReady(at: now)
    }

    func beginWait(_ kind: PlaybackStateMachine.WaitKind, at now: Double) {
        playback.beginWait(kind, at: now, hasSamples: history.count > 0, totals: &totals)
    }

    /// Closes the current wait's accounting at `now`.
    func endWait(at now: Double) { playback.endWait(at: now, totals: &totals) }

    /// While waiting to play: start now if allowed (with the whole coordination group, if any), otherwise
    /// arrange to ask again.
    func startIfReady(at now: Double) {
        guard playback.waitKind != .none, playback.isPlayRequested else { return }
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
        if !playhead.hasMedia(at: now) {
            playback.waitingReason = history.count == 0 ? .evaluatingBufferingRate : .toMinimizeStalls
            return false
        }
        guard settings.automaticallyWaitsToMinimizeStalling else { return true }
        switch predictKeepUp(at: now) {
        case .likely:
            return true
        case .unlikely(let recheckAt):
            playback.waitingReason = .toMinimizeStalls
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
        guard playhead.isAdvancing else { return }
        freezePlayhead(at: now)
        playhead.isAdvancing = false
        kernel.cancel(&runOutTimer)
        playback.state = .buffering
        beginWait(.coordinated, at: now)
        playback.waitingReason = .waitingForCoordinatedPlayback
        liveStateChanged(at: now)
    }

    func beginPlaying(at now: Double) {
        if isLive, !liveResumes(after: playback.waitKind, at: now) { return }
        playback.beginPlaying(at: now, totals: &totals)
        playhead.isAdvancing = true
        playhead.since = now
        scheduleRunOut(at: now)
        requestNextIfNeeded(at: now)
        liveStateChanged(at: now)
    }

    /// The buffer ran dry while playing.
    func bufferRanOut(at now: Double) {
        freezePlayhead(at: now)
        playhead.mediaTime = min(playhead.bufferedEnd, playhead.forwardPlaybackEndTime)
        totals.playedSeconds = playhead.playedSeconds
        playhead.isAdvancing = false
        if playhead.isAtForwardPlaybackEnd(duration: content.duration) {
            // The viewer swiped: what is in flight is dropped (its partial bytes get a `cancelled` row).
            dropRequestInFlight(at: now)
            finish(.ended, at: now)
            return
        }
        if playhead.bufferedEnd >= content.duration - SimulationTime.tolerance {
            finish(.ended, at: now)
            return
        }
        // A download landing within rounding of this instant is not a stall.
        if download.request != nil, link.projectedFinish(owner: index) <= now + SimulationTime.tolerance {
            playhead.isAdvancing = true
            kernel.cancel(&runOutTimer)
            return
        }
        playback.state = .buffering
        beginWait(.stall, at: now)
        liveRebuffered(at: now)
        coordinator?.memberWaits(self, at: now)
        if leaveRemovedMedia(at: now) { return }
        requestNextIfNeeded(at: now)
    }

    /// Ends the player's run in `final` state.
    func finish(_ final: PlaybackState, at now: Double) {
        let wasFinal = playback.state.isFinal
        freezePlayhead(at: now)
        endWait(at: now)
        playhead.isAdvancing = false
        playback.state = final
        playback.timeControlStatus = .paused
        playback.waitingReason = nil
        totals.endTime = now
        if !wasFinal { closeLive(at: now) }
        coordinator?.memberFinished(self, at: now)
        download.pendingRetry = nil
        kernel.cancel(&download.timeoutTimer)
        kernel.cancel(&wakeTimer)
        kernel.cancel(&runOutTimer)
        kernel.cancel(&keepUpTimer)
        download.cancelRequestTimers(on: kernel)
        if download.request != nil {
            link.cancelFlow(owner: index, at: now)
            download.request = nil
        }
        if !wasFinal { roster?.playerEnded() }
    }

    /// Closes open intervals when the run stops at `now` with this player still going.
    func close(at now: Double) {
        if playback.state.isFinal { return }
        freezePlayhead(at: now)
        endWait(at: now)
        closeLive(at: now)
    }
}
