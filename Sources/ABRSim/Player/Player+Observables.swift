extension Player {
    /// The keep-up predictor's verdict at `now`.
    func predictKeepUp(at now: Double) -> KeepUpVerdict {
        link.advance(to: now)
        let remaining = request.map { link.remainingBits(owner: index) ?? $0.bits } ?? 0
        let rtt = link.latency(at: now) ?? 0
        let variant = lastVariant ?? content.startVariantIndex
        let context = KeepUpContext(
            time: now, bufferSeconds: bufferLevel(at: now), isBufferFull: isBufferFull(at: now),
            isFullyLoaded: isFullyLoaded, isRecoveringFromStall: waitKind == .stall,
            throughputEstimate: currentKeepUpEstimate(), rate: rate,
            playhead: playheadPosition(at: now), nextSegment: nextSegment, inFlightRemainingBits: remaining,
            inFlightSegment: request?.segment, variant: variant, rttSeconds: rtt, content: content,
            lowestVariant: policy.isAdaptive ? 0 : variant)
        return keepUpPredictor.evaluate(context)
    }

    /// The estimate the keep-up predictor sees (`nil` before the estimator has enough data), computed once per
    /// sample.
    func currentKeepUpEstimate() -> Double? {
        if let known = keepUpEstimate { return known }
        let estimate = estimator.hasEnoughData ? estimator.estimate : nil
        keepUpEstimate = .some(estimate)
        return estimate
    }

    /// `isPlaybackLikelyToKeepUp` at `now`.
    func isLikelyToKeepUp(at now: Double) -> Bool {
        if state == .idle || state.isFinal { return false }
        return predictKeepUp(at: now) == .likely
    }

    /// Appends a timeline row if anything observable (other than the buffer level) changed.
    func recordRow(at now: Double) {
        guard recordsTimeline else { return }
        let buffer = bufferLevel(at: now)
        let row = TimelineRecord(
            time: now, player: index, state: state, timeControlStatus: timeControlStatus,
            waitingReason: timeControlStatus == .waitingToPlayAtSpecifiedRate ? waitingReason : nil,
            bufferSeconds: buffer, playheadSeconds: playheadPosition(at: now),
            bitrateBps: lastVariant.map { content.variants[$0].bitrateBps } ?? 0,
            linkShare: link.share(owner: index), isPlaybackLikelyToKeepUp: isLikelyToKeepUp(at: now),
            isPlaybackBufferEmpty: state != .idle && !state.isFinal && buffer <= SimulationTime.tolerance,
            isPlaybackBufferFull: state != .idle && !state.isFinal && isBufferFull(at: now))
        if let last = lastRow, last.state == row.state, last.timeControlStatus == row.timeControlStatus,
            last.waitingReason == row.waitingReason, last.bitrateBps == row.bitrateBps, last.linkShare == row.linkShare,
            last.isPlaybackLikelyToKeepUp == row.isPlaybackLikelyToKeepUp,
            last.isPlaybackBufferEmpty == row.isPlaybackBufferEmpty,
            last.isPlaybackBufferFull == row.isPlaybackBufferFull
        {
            return
        }
        if let last = lastRow, last.time == now {
            timeline[timeline.count - 1] = row
        } else {
            timeline.append(row)
        }
        lastRow = row
    }
}
