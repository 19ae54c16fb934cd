/// Sabre's `ThroughputRule` (`-a throughput`): the throughput quality at 0.9 × the estimate, capped by the
/// insufficient-buffer rule (safety 0.9 decaying by 0.9 per decision to 0.5, even when the cap does not bite;
/// `-noibr` turns it off). A download is abandoned after 500 ms when it is on course to take over 1.8 segment
/// times and the quality its own throughput affords is lower and smaller than what is left.
final class SabreThroughputRule: SabreABRRule {
    static let safetyFactor = 0.9
    static let lowBufferSafetyFactor = 0.5
    static let lowBufferSafetyFactorInit = 0.9
    static let abandonMultiplier = 1.8
    /// `abandon_grace_time`, ms.
    static let abandonGraceTime = 500.0

    @exclusivity(unchecked) var ibrSafety = SabreThroughputRule.lowBufferSafetyFactorInit
    let noIBR: Bool

    init(_ sim: SabreSimulation) { noIBR = sim.options.noInsufficientBufferRule }

    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) {
        let throughput = sim.throughput!
        var quality = sim.qualityFromThroughput(throughput * Self.safetyFactor)
        if !noIBR {
            let safeSize = ibrSafety * (sim.bufferLevel - sim.latency!) * throughput
            ibrSafety *= Self.lowBufferSafetyFactorInit
            ibrSafety = max(ibrSafety, Self.lowBufferSafetyFactor)
            for q in 0..<quality where sim.bitrates[q + 1] * sim.segmentTime > safeSize {
                quality = q
                break
            }
        }
        return (quality, 0)
    }

    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? {
        let downloadTime = progress.time - progress.timeToFirstBit
        // At quality 0 there is nothing lower to abandon to.
        guard progress.quality > 0 && progress.time >= Self.abandonGraceTime && downloadTime > 0 else { return nil }
        let tput = progress.downloaded / downloadTime
        let sizeLeft = progress.size - progress.downloaded
        let estimateTimeLeft = sizeLeft / tput
        guard progress.time + estimateTimeLeft > Self.abandonMultiplier * sim.segmentTime else { return nil }
        // Counting stops at the download's own quality: from there on the answer is no abandonment.
        let quality = sim.qualityFromThroughput(tput * Self.safetyFactor, atMost: progress.quality)
        let estimateSize = progress.size * sim.bitrates[quality] / sim.bitrates[progress.quality]
        if quality >= progress.quality || estimateSize >= sizeLeft { return nil }
        return quality
    }
}

/// Sabre's `Dynamic` (`-a dynamic`): asks both ``SabreBola`` and ``SabreThroughputRule`` every time (so both keep
/// their state: BOLA's `last_quality` and Vp, the throughput rule's decaying safety) and follows BOLA once the
/// buffer is above 10 s and BOLA's choice is at least the throughput rule's, the throughput rule again once the
/// buffer is below 10 s and BOLA's is lower. Abandonment is always the throughput rule's; seeks reach neither.
final class SabreDynamic: SabreABRRule {
    /// `Dynamic.low_buffer_threshold`, ms.
    static let lowBufferThreshold = 10000.0
    let bola: SabreBola
    let tput: SabreThroughputRule
    @exclusivity(unchecked) var isBola = false

    init(_ sim: SabreSimulation) {
        bola = SabreBola(sim)
        tput = SabreThroughputRule(sim)
    }

    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) {
        let level = sim.bufferLevel
        let b = bola.qualityDelay(sim, segmentIndex: segmentIndex)
        let t = tput.qualityDelay(sim, segmentIndex: segmentIndex)
        if isBola {
            if level < Self.lowBufferThreshold && b.quality < t.quality { isBola = false }
        } else {
            if level > Self.lowBufferThreshold && b.quality >= t.quality { isBola = true }
        }
        return isBola ? b : t
    }

    func reportDownload(_ sim: SabreSimulation, _ metrics: SabreDownloadProgress, isReplacement: Bool) {
        if isReplacement { isBola = false }
    }

    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? {
        tput.checkAbandon(sim, progress, bufferLevel: bufferLevel)
    }
}

/// Sabre's `DynamicDash` (`-a dynamicdash`): ``SabreBolaEnh`` above 10 s of buffer until it falls below 5 s, the
/// throughput rule otherwise; only the active rule decides and abandons, both hear of waits and downloads.
final class SabreDynamicDash: SabreABRRule {
    static let lowThreshold = 5000.0
    static let highThreshold = 10000.0
    let bola: SabreBolaEnh
    let tput: SabreThroughputRule
    @exclusivity(unchecked) var isBola = false

    init(_ sim: SabreSimulation) {
        bola = SabreBolaEnh(sim)
        tput = SabreThroughputRule(sim)
    }

    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) {
        let level = sim.bufferLevel
        if isBola && level < Self.lowThreshold {
            isBola = false
        } else if !isBola && level > Self.highThreshold {
            isBola = true
        }
        return isBola
            ? bola.qualityDelay(sim, segmentIndex: segmentIndex) : tput.qualityDelay(sim, segmentIndex: segmentIndex)
    }

    func reportDelay(_ delay: Double) { bola.reportDelay(delay) }

    func reportDownload(_ sim: SabreSimulation, _ metrics: SabreDownloadProgress, isReplacement: Bool) {
        bola.reportDownload(sim, metrics, isReplacement: isReplacement)
    }

    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? {
        isBola
            ? bola.checkAbandon(sim, progress, bufferLevel: bufferLevel)
            : tput.checkAbandon(sim, progress, bufferLevel: bufferLevel)
    }
}
