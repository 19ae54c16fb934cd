#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sabre's buffer: a list of segment qualities plus the played part of the head one, drained only when the main
/// loop lets time pass (a download, a full-buffer wait, an ABR delay). Playing a segment credits its utility,
/// bitrate and bitrate change when it starts; running dry while time is left counts one rebuffer event (float
/// residues included), while time passing with the buffer already empty adds stall time without an event.
extension SabreSimulation {
    /// `deplete_buffer(time)`: plays `time` ms.
    func depleteBuffer(_ time: Double) {
        var time = time
        if bufferContents.isEmpty {
            rebufferTime += time
            totalPlayTime += time
            return
        }
        if bufferFcc > 0 {
            // First play any partial segment left.
            if time + bufferFcc < segmentTime {
                bufferFcc += time
                totalPlayTime += time
                return
            }
            time -= segmentTime - bufferFcc
            totalPlayTime += segmentTime - bufferFcc
            bufferContents.removeFirst()
            bufferFcc = 0
        }
        while time > 0 && !bufferContents.isEmpty {
            let quality = bufferContents[0]
            playedUtility += manifest.utilities[quality]
            playedBitrate += bitrates[quality]
            if let last = lastPlayed, quality != last {
                totalBitrateChange += abs(bitrates[quality] - bitrates[last])
                totalLogBitrateChange += abs(log(bitrates[quality] / bitrates[last]))
            }
            lastPlayed = quality
            if rampupTime == nil {
                let threshold = rampupThreshold ?? sustainableQuality!
                if quality >= threshold { rampupTime = totalPlayTime - rampupOrigin }
            }
            // Reaction time to increased bandwidth.
            for i in pendingQualityUp.indices
            where pendingQualityUp[i].end == nil && quality >= pendingQualityUp[i].quality {
                pendingQualityUp[i].end = totalPlayTime
            }
            if time >= segmentTime {
                bufferContents.removeFirst()
                totalPlayTime += segmentTime
                time -= segmentTime
            } else {
                bufferFcc = time
                totalPlayTime += time
                time = 0
            }
        }
        if time > 0 {
            rebufferTime += time
            totalPlayTime += time
            rebufferEventCount += 1
        }
        processQualityUp(now: totalPlayTime)
    }

    /// `playout_buffer()`: plays what is left, then empties the buffer exactly.
    func playoutBuffer() {
        depleteBuffer(bufferLevel)
        bufferContents.removeAll()
        bufferFcc = 0
    }

    /// `process_quality_up(now)`: settles the rises older than the maximum buffer: the time until a segment at
    /// the new quality played (or the network fell back), at most the maximum buffer.
    func processQualityUp(now: Double) {
        let cutoff = now - maxBufferSize
        while let first = pendingQualityUp.first, first.start < cutoff {
            pendingQualityUp.removeFirst()
            let reaction: Double
            if let end = first.end {
                reaction = min(maxBufferSize, end - first.start)
            } else {
                reaction = maxBufferSize
            }
            totalReactionTime += reaction
        }
    }

    /// `advertize_new_network_quality`: a change of the sustainable quality. Settles matured rises, closes those
    /// above the new quality, and opens a new rise when the quality went up above everything buffered and pending.
    func advertizeNewNetworkQuality(_ quality: Int, previous: Int) {
        processQualityUp(now: networkTotalTime)
        for i in pendingQualityUp.indices
        where pendingQualityUp[i].end == nil && pendingQualityUp[i].quality > quality {
            pendingQualityUp[i].end = networkTotalTime
        }
        if quality <= previous { return }
        for q in bufferContents where quality <= q { return }
        for p in pendingQualityUp where quality <= p.quality { return }
        pendingQualityUp.append(SabrePendingQualityUp(start: networkTotalTime, quality: quality, end: nil))
    }
}
