/// The downloader's requests: sending one (through the cache, or paying the RTT before its first byte), reporting
/// its progress to the policy and abandoning it on the policy's word, and its arrival, which extends the forward
/// buffer and records its `segments.csv` row. The state is the player's ``Downloader``.
extension Player {
    /// Sends the request for `segment` at `variant` (its first byte comes one RTT later).
    func send(segment: Int, variant: Int, buffer: Double, at now: Double, attempt: Int = 1) {
        isPolicyWaiting = false
        let bits = content.sizeBits(segment: segment, variant: variant)
        var sent = InFlightRequest(
            segment: segment, variant: variant, bits: bits, requestTime: now, firstByteTime: nil, bufferBefore: buffer,
            attempt: attempt)
        download.transfer = RequestTransfer(chunks: chunksToRequest(segment: segment, bits: bits))
        lastVariant = variant
        download.cancelRequestTimers(on: kernel)
        resetRequestTimeout(at: now)
        if let cache, cache.lookUp(content: content, segment: segment, variant: variant) {
            sent.fromCache = true
            sent.firstByteTime = now
            download.request = sent
            download.cacheReadTimer = kernel.schedule(
                at: now + bits / cache.diskBitsPerSecond, .player(index, .cacheRead))
            return
        }
        let rtt = link.latency(at: now) ?? 0
        if rtt > 0 {
            download.request = sent
            download.firstByteTimer = kernel.schedule(at: now + rtt, .player(index, .firstByte))
        } else if download.isChunked {
            sent.firstByteTime = now
            download.request = sent
            startNextChunk(at: now)
            scheduleProgressCheck(at: now)
        } else {
            sent.firstByteTime = now
            download.request = sent
            startDownload(at: now)
            scheduleProgressCheck(at: now)
        }
    }

    func scheduleProgressCheck(at now: Double) {
        guard let interval = policy.progressCheckInterval, interval > 0 else { return }
        let step = max(interval, 0.001)
        if skippedChecks != nil, canSkipProgressChecks {
            download.checkInterval = step
            planProgressChecks(from: now + step)
        } else {
            download.progressTimer = kernel.schedule(at: now + step, .player(index, .progressCheck))
        }
    }

    /// Reports the request in flight to the policy; abandons it if the policy says so.
    func checkProgress(at now: Double) {
        guard let current = download.request, current.firstByteTime != nil else { return }
        switch progressDecision(at: now) {
        case .keepGoing:
            scheduleProgressCheck(at: now)
        case .abandon(let chosen):
            abandon(current, switchingTo: chosen, at: now)
        }
    }

    /// The policy's answer to the progress of the request in flight at `now` (the link brought up to `now` first).
    func progressDecision(at now: Double) -> ProgressDecision {
        guard let current = download.request, let firstByte = current.firstByteTime else { return .keepGoing }
        link.advance(to: now)
        let received: Double
        if download.isChunked {
            received = chunkedReceivedBits()
        } else {
            received = current.bits - (link.remainingBits(owner: index) ?? 0)
        }
        let progress = DownloadProgress(
            segment: current.segment, variant: current.variant, totalBits: current.bits, receivedBits: received,
            requestTime: current.requestTime, firstByteTime: firstByte, time: now)
        let buffer = playhead.bufferLevel(at: now)
        return policy.downloadProgress(progress, context: makeContext(at: now, buffer: buffer))
    }

    /// Abandons `current` at `now` and requests its segment again at the policy's `chosen` variant.
    func abandon(_ current: InFlightRequest, switchingTo chosen: Int, at now: Double) {
        let buffer = playhead.bufferLevel(at: now)
        let received = cancelTransfer(current, at: now)
        let row = record(
            current, bits: received, firstByte: current.firstByteTime ?? now, at: now, bufferAfter: buffer,
            stallSeconds: 0, abandoned: true)
        totals.bytes += row.bytes
        keep(row)
        download.request = nil
        let variant = min(max(chosen, 0), maxVariant)
        send(segment: current.segment, variant: variant, buffer: buffer, at: now)
    }

    /// The link finished this player's transfer at `now`.
    func downloadFinished(at now: Double) {
        guard download.request != nil else { return }
        download.nextCheck = nil
        let finished: InFlightRequest
        let isChunked = download.isChunked
        if isChunked {
            guard let complete = chunkArrived(at: now) else { return }
            finished = complete
            totals.chunks.append(contentsOf: download.transfer.chunkTimings)
            download.request = nil
        } else {
            finished = download.request.take()!
        }
        let firstByte = finished.firstByteTime ?? now
        let sample =
            isChunked
            ? ChunkedTransfer.sample(requestTime: finished.requestTime, timings: download.transfer.chunkTimings)
            : ThroughputSample(
                bits: finished.bits, requestTime: finished.requestTime, firstByteTime: firstByte, doneTime: now)
        if finished.fromCache {
            totals.cacheHits += 1
        } else {
            connectionFinished(finished, at: now)
            history.append(sample, variant: finished.variant)
            estimator.add(sample)
            keepUpEstimate = .stale
            totals.bytes += SegmentRecord.wholeBytes(bits: finished.bits)
            cache?.store(
                content: content, segment: finished.segment, variant: finished.variant, bytes: finished.bits / 8)
        }
        // The playhead keeps moving until the buffer runs dry; bring it to now before adding media.
        freezePlayhead(at: now)
        let segmentEnd = content.segmentStarts[finished.segment + 1]
        // A chunked request's earlier chunks extended the buffer already (Player+ChunkedTransfer.swift).
        let addedSeconds =
            isChunked
            ? max(0, segmentEnd - playhead.bufferedEnd) : content.segmentDurations[finished.segment]
        playhead.bufferedEnd = isChunked ? max(playhead.bufferedEnd, segmentEnd) : segmentEnd
        let stallTotal = stallSeconds(at: now)
        keep(
            record(
                finished, bits: finished.bits, firstByte: firstByte, at: now,
                bufferAfter: playhead.bufferedEnd - playhead.mediaTime,
                stallSeconds: stallTotal - stallSecondsAtLastArrival, cacheHit: finished.fromCache))
        stallSecondsAtLastArrival = stallTotal
        if !finished.fromCache {
            policy.downloadFinished(
                sample, context: makeContext(at: now, buffer: playhead.bufferedEnd - playhead.mediaTime))
        }
        requestNextIfNeeded(at: now)
        if playback.waitKind != .none {
            startIfReady(at: now)
        } else if playhead.isAdvancing {
            scheduleRunOut(at: now)
        } else if playback.state == .loading && !playback.isPlayRequested && playhead.hasMedia(at: now) {
            playback.state = .readyToPlay
        }
        liveArrived(at: now, addedSeconds: addedSeconds)
        recordRow(at: now)
    }

    /// The `segments.csv` row of `sent`, ended at `now` with `bits` received.
    func record(
        _ sent: InFlightRequest, bits: Double, firstByte: Double, at now: Double, bufferAfter: Double,
        stallSeconds: Double,
        abandoned: Bool = false, cacheHit: Bool = false, timedOut: Bool = false, cancelled: Bool = false
    ) -> SegmentRecord {
        let view = modelView(of: sent, firstByte: firstByte, at: now)
        return SegmentRecord(
            player: index, segment: sent.segment, variant: sent.variant,
            bitrateBps: content.variants[sent.variant].bitrateBps,
            durationSeconds: content.segmentDurations[sent.segment], bytes: SegmentRecord.wholeBytes(bits: bits),
            requestTime: sent.requestTime, firstByteTime: firstByte, doneTime: now,
            throughputBps: now > firstByte ? bits / (now - firstByte) : (bits > 0 ? .infinity : 0),
            bufferBeforeSeconds: sent.bufferBefore, bufferAfterSeconds: bufferAfter, stallSeconds: stallSeconds,
            abandoned: abandoned, cacheHit: cacheHit, timedOut: timedOut, attempt: sent.attempt,
            cancelled: cancelled, availableBps: view.availableBps, modelThroughputBps: view.modelThroughputBps)
    }
}
