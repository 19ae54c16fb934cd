extension Player {
    /// Carries out a user action at `now`; playback actions of a coordinated player apply to its whole group.
    func perform(_ action: PlayerAction, at now: Double) {
        guard !playback.state.isFinal, playback.state != .idle else { return }
        if let coordinator, action.isCoordinated {
            coordinator.perform(action, from: self, at: now)
        } else {
            performLocally(action, at: now)
        }
    }

    /// Carries out `action` on this player alone.
    func performLocally(_ action: PlayerAction, at now: Double) {
        guard !playback.state.isFinal, playback.state != .idle else { return }
        switch action {
        case .play(let newRate):
            requestPlay(rate: newRate, at: now)
        case .rate(let newRate):
            if newRate > 0 { requestPlay(rate: newRate, at: now) } else { pause(at: now) }
        case .pause:
            pause(at: now)
        case .seek(let target):
            seek(to: target, at: now)
        case .skip(let offset):
            seek(to: playhead.position(at: now) + offset, at: now)
        case .networkResourcePriority(let priority):
            demand.priority = priority
            demand.weight = priorityWeights.weight(priority)
            link.setDemand(owner: index, demand, at: now)
        case .route(let route):
            moveToLink(route, at: now)
        case .seekToLive:
            seekToLive(at: now)
        }
    }

    /// Moves the player's downloads to link `target` (an external route, or 0 for the shared link); a
    /// transfer in flight continues there with the bits it still needs.
    func moveToLink(_ target: Int, at now: Double) {
        guard target != linkIndex else { return }
        if let current = download.request, current.firstByteTime != nil, !current.fromCache,
            !download.isChunked || download.transfer.isChunkFlowing
        {
            link.advance(to: now)
            let remaining = link.remainingBits(owner: index) ?? 0
            let lastData = link.lastDataTime(owner: index)
            link.cancelFlow(owner: index, at: now)
            linkIndex = target
            link.startFlow(
                owner: index, bits: remaining, demand: demand, at: now, minimumDataRateBps: minimumDataRateBps,
                lastData: lastData)
        } else {
            linkIndex = target
        }
    }

    /// Rate to 0: the playhead stops, loading goes on up to the target.
    func pause(at now: Double) {
        guard playback.isPlayRequested else { return }
        freezePlayhead(at: now)
        endWait(at: now)
        playback.isPlayRequested = false
        playhead.isAdvancing = false
        kernel.cancel(&runOutTimer)
        kernel.cancel(&keepUpTimer)
        playback.state = playback.hasStarted ? .paused : (playhead.hasMedia(at: now) ? .readyToPlay : .loading)
        playback.timeControlStatus = .paused
        playback.waitingReason = nil
        liveStateChanged(at: now)
        requestNextIfNeeded(at: now)
    }

    /// Moves the playhead to `target` (clamped to the content), dropping the forward buffer and any request
    /// in flight; playback (if requested) waits for the buffer to refill.
    func seek(to target: Double, at now: Double) {
        freezePlayhead(at: now)
        let wasPlaying = playback.isPlayRequested
        endWait(at: now)
        let clamped = min(max(liveSeekTarget(target, at: now), 0), content.duration)
        if clamped >= content.duration - SimulationTime.tolerance {
            jumpPlayhead(to: content.duration)
            playhead.bufferedEnd = content.duration
            finish(.ended, at: now)
            return
        }
        dropRequestInFlight(at: now)
        // A seek also drops a retry waiting for its back-off delay.
        download.pendingRetry = nil
        download.cancelRequestTimers(on: kernel)
        kernel.cancel(&download.timeoutTimer)
        jumpPlayhead(to: clamped)
        playhead.bufferedEnd = clamped
        nextSegment = content.segmentIndex(containing: clamped)
        playhead.isAdvancing = false
        isAfterSeek = true
        kernel.cancel(&runOutTimer)
        kernel.cancel(&keepUpTimer)
        kernel.cancel(&wakeTimer)
        liveStateChanged(at: now)
        if wasPlaying {
            if playback.hasStarted {
                playback.state = .buffering
                beginWait(.refill, at: now)
            } else {
                beginWait(.startup, at: now)
            }
        }
        requestNextIfNeeded(at: now)
        startIfReady(at: now)
    }
}

extension Player {
    /// Cancels the request in flight, if any, giving it a `cancelled` row: its partial bytes were transferred.
    func dropRequestInFlight(at now: Double) {
        guard let current = download.request else { return }
        let received = cancelTransfer(current, at: now)
        let row = record(
            current, bits: received, firstByte: current.firstByteTime ?? now, at: now,
            bufferAfter: playhead.bufferLevel(at: now), stallSeconds: 0, abandoned: true,
            cacheHit: current.fromCache,
            cancelled: true)
        if !current.fromCache { totals.bytes += row.bytes }
        keep(row)
        download.request = nil
    }
}

extension PlayerAction {
    /// Whether the action is one a coordination group applies to every member (play, pause, seek, rate).
    var isCoordinated: Bool {
        switch self {
        case .play, .pause, .seek, .skip, .rate, .seekToLive: true
        case .networkResourcePriority, .route: false
        }
    }
}
