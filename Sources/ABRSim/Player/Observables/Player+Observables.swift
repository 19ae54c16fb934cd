extension Player {
    /// The keep-up predictor's verdict at `now`.
    func predictKeepUp(at now: Double) -> KeepUpVerdict {
        link.advance(to: now)
        let remaining = download.request.map { link.remainingBits(owner: index) ?? $0.bits } ?? 0
        let rtt = link.latency(at: now) ?? 0
        let variant = lastVariant ?? content.startVariantIndex
        let context = KeepUpContext(
            time: now, bufferSeconds: playhead.bufferLevel(at: now), isBufferFull: isBufferFull(at: now),
            isFullyLoaded: isFullyLoaded, isRecoveringFromStall: playback.waitKind == .stall,
            throughputEstimate: currentKeepUpEstimate(), rate: playhead.rate,
            playhead: playhead.position(at: now), nextSegment: nextSegment, inFlightRemainingBits: remaining,
            inFlightSegment: download.request?.segment, variant: variant, rttSeconds: rtt, content: content,
            lowestVariant: policy.isAdaptive ? 0 : variant)
        return keepUpPredictor.evaluate(context)
    }

    /// The estimate the keep-up predictor sees (`nil` before the estimator has enough data), computed once per
    /// sample.
    func currentKeepUpEstimate() -> Double? {
        if case .known(let estimate) = keepUpEstimate { return estimate }
        let estimate = estimator.hasEnoughData ? estimator.estimate : nil
        keepUpEstimate = .known(estimate)
        return estimate
    }

    /// `isPlaybackLikelyToKeepUp` at `now`.
    func isLikelyToKeepUp(at now: Double) -> Bool {
        if playback.state == .idle || playback.state.isFinal { return false }
        return predictKeepUp(at: now) == .likely
    }

    /// Appends a timeline row if anything observable (other than the buffer level) changed.
    func recordRow(at now: Double) {
        guard recordsTimeline else { return }
        recordRow(at: now, linkShare: link.share(owner: index))
    }

    /// ``recordRow(at:)`` with the player's share of its link already known (`linkShare`, as
    /// ``SharedLink/share(owner:)`` gives it).
    func recordRow(at now: Double, linkShare: Double) {
        guard recordsTimeline else { return }
        let buffer = playhead.bufferLevel(at: now)
        let row = TimelineRecord(
            time: now, player: index, state: playback.state, timeControlStatus: playback.timeControlStatus,
            waitingReason: playback.timeControlStatus == .waitingToPlayAtSpecifiedRate ? playback.waitingReason : nil,
            bufferSeconds: buffer, playheadSeconds: playhead.position(at: now),
            bitrateBps: lastVariant.map { content.variants[$0].bitrateBps } ?? 0,
            linkShare: linkShare, isPlaybackLikelyToKeepUp: isLikelyToKeepUp(at: now),
            isPlaybackBufferEmpty: playback.state != .idle && !playback.state.isFinal
                && buffer <= SimulationTime.tolerance,
            isPlaybackBufferFull: playback.state != .idle && !playback.state.isFinal && isBufferFull(at: now),
            latencySeconds: isLive && playback.hasStarted ? latency(at: now) : nil,
            rate: isLive ? (playhead.isAdvancing ? playhead.rate : 0) : nil)
        if let last = lastRow, last.state == row.state, last.timeControlStatus == row.timeControlStatus,
            last.waitingReason == row.waitingReason, last.bitrateBps == row.bitrateBps, last.linkShare == row.linkShare,
            last.isPlaybackLikelyToKeepUp == row.isPlaybackLikelyToKeepUp,
            last.isPlaybackBufferEmpty == row.isPlaybackBufferEmpty,
            last.isPlaybackBufferFull == row.isPlaybackBufferFull, last.rate == row.rate
        {
            return
        }
        let replacing = lastRow?.time == now
        if let recordSink {
            recordSink.take(row: row, replacing: replacing)
        } else if replacing {
            timeline[timeline.count - 1] = row
        } else {
            timeline.append(row)
        }
        lastRow = row
        rowsWithShare?.note(player: index, share: row.linkShare)
    }
}

/// The throughput estimate the keep-up predictor sees, kept between two samples.
enum CachedEstimate {
    /// A sample came since it was computed.
    case stale
    /// The estimate (`nil`: the estimator has not enough data yet).
    case known(Double?)
}
