/// The live player's LL-DASH chunked transfer: a segment's CMAF chunks flow on the shared link one after another as
/// ordinary transfers do, each once it is encoded and the previous one has arrived (``ChunkedTransfer``'s model:
/// firstₖ = max(aₖ, lastₖ₋₁)), each under the player's download model as a request on the same connection (its
/// window from the chunk's first byte; the connection carries each chunk to the next). A chunk not yet encoded
/// waits on one kernel timer at its encode time; each arrived chunk extends the forward buffer. The request's
/// ``ThroughputSample`` carries the chunk timings, which also go into the player's records (`chunks.csv`).
extension Player {
    /// The CMAF chunks of `segment` at `bits` when the content is chunked (empty otherwise).
    func chunksToRequest(segment: Int, bits: Double) -> [CMAFChunk] {
        guard isLive, let stream = live?.stream, stream.chunkDurationSeconds != nil else { return [] }
        return stream.chunks(of: segment, in: content, bits: bits)
    }

    /// Starts the next chunk of the chunked request in flight at `now`, or waits for its encode time.
    func startNextChunk(at now: Double) {
        guard download.isChunked, let requestTime = download.request?.requestTime else { return }
        let chunk = download.transfer.chunks[download.transfer.chunkTimings.count]
        if chunk.availableTime > now + SimulationTime.tolerance {
            download.transfer.isChunkFlowing = false
            kernel.cancel(&download.chunkTimer)
            download.chunkTimer = kernel.schedule(at: chunk.availableTime, .player(index, .chunkAvailable))
            return
        }
        link.startFlow(
            owner: index, bits: chunk.bits, demand: demand, at: now, minimumDataRateBps: minimumDataRateBps)
        if download.transfer.chunkTimings.isEmpty {
            download.request!.firstByteTime = now
            download.request!.fairShare = link.fairShare(owner: index)
            download.request!.bitsAtFirstByte = link.lastCumulativeBits
            download.request!.firstByteLink = linkIndex
        }
        download.transfer.chunkPlan = planFlow(bits: chunk.bits, requestTime: requestTime, at: now)?.1
        download.transfer.chunkFirstByte = now
        download.transfer.isChunkFlowing = true
    }

    /// The chunk in flight of the chunked request arrived in full at `now`: records its timing and starts the next
    /// one. Returns the request when that was its last chunk (it is then complete), `nil` while chunks remain.
    func chunkArrived(at now: Double) -> InFlightRequest? {
        guard let current = download.request else { return nil }
        let index = download.transfer.chunkTimings.count
        let chunk = download.transfer.chunks[index]
        download.transfer.chunkTimings.append(
            ChunkTiming(
                segment: current.segment, chunk: index, bits: chunk.bits, availableTime: chunk.availableTime,
                firstByteTime: download.transfer.chunkFirstByte, lastByteTime: now))
        download.transfer.isChunkFlowing = false
        if let plan = download.transfer.chunkPlan {
            connectionCarried(plan, bits: chunk.bits, from: download.transfer.chunkFirstByte, to: now)
            download.transfer.chunkPlan = nil
        }
        guard download.transfer.chunkTimings.count == download.transfer.chunks.count else {
            startNextChunk(at: now)
            chunkBuffered(segment: current.segment, at: now)
            return nil
        }
        return download.request
    }

    /// An arrived chunk of the request in flight for `segment` (not its last) extends the forward buffer to the end
    /// of its media, as a low-latency player appends each chunk to its source buffer when it arrives.
    func chunkBuffered(segment: Int, at now: Double) {
        let duration = content.segmentDurations[segment]
        let count = Double(download.transfer.chunks.count)
        let end = content.segmentStarts[segment] + duration * Double(download.transfer.chunkTimings.count) / count
        guard end > playhead.bufferedEnd else { return }
        freezePlayhead(at: now)
        playhead.bufferedEnd = end
        if playback.waitKind != .none {
            startIfReady(at: now)
        } else if playhead.isAdvancing {
            scheduleRunOut(at: now)
        } else if playback.state == .loading && !playback.isPlayRequested && playhead.hasMedia(at: now) {
            playback.state = .readyToPlay
        }
        liveArrived(at: now, addedSeconds: duration / count)
        recordRow(at: now)
    }

    /// Bits the chunked request in flight has received (as of the link's last update): its arrived chunks and the
    /// flowing one's part.
    func chunkedReceivedBits() -> Double {
        let transfer = download.transfer
        let flowing =
            transfer.isChunkFlowing
            ? transfer.chunks[transfer.chunkTimings.count].bits - (link.remainingBits(owner: index) ?? 0) : 0
        return transfer.arrivedChunkBits + flowing
    }

    /// Stops `current`'s transfer at `now` (abandoned, timed out or cancelled) and returns the bits it received;
    /// the timings of its arrived chunks go into the records.
    func cancelTransfer(_ current: InFlightRequest, at now: Double) -> Double {
        guard !current.fromCache else { return 0 }
        let flowing = link.cancelFlow(owner: index, at: now)
        guard download.isChunked else { return flowing }
        totals.chunks.append(contentsOf: download.transfer.chunkTimings)
        return download.transfer.arrivedChunkBits + (download.transfer.isChunkFlowing ? flowing : 0)
    }
}
