#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sabre's `Bola` (`-a bola`): BOLA with utilities ln(b/b₀) and Vp = (buffer − p)/(u_max + γp). Without `-ab`, the
/// buffer in Vp shrinks near the start and end of the movie (to max(segments left/2, 3) segments) and the
/// abandonment rule is on; a rise above the last quality is held to the throughput rule's quality + 1 (BOLA-U),
/// or with `-ao` to the throughput quality with a delay that brings the buffer down to its threshold (BOLA-O).
/// An abandonment sets `last_quality` to the quality abandoned to.
final class SabreBola: SabreABRRule {
    let utilities: [Double]
    let gp: Double
    let bufferSize: Double
    let abrOsc: Bool
    let abrBasic: Bool
    @exclusivity(unchecked) var vp: Double
    @exclusivity(unchecked) var lastSeekIndex = 0
    @exclusivity(unchecked) var lastQuality = 0
    /// The abandonment rule's per-download values.
    @exclusivity(unchecked) var plan = SabreAbandonPlan()

    init(_ sim: SabreSimulation) {
        let offset = -log(sim.bitrates[0])
        utilities = sim.bitrates.map { log($0) + offset }
        gp = sim.options.gammaP
        bufferSize = sim.maxBufferSize
        abrOsc = sim.options.abrOsc
        abrBasic = sim.options.abrBasic
        vp = (bufferSize - sim.segmentTime) / (utilities[utilities.count - 1] + gp)
        if sim.verbose { sabreBolaTable(sim, utilities: utilities, vp: vp, gp: gp) }
    }

    func qualityFromBuffer(_ sim: SabreSimulation) -> Int {
        sabreBolaQuality(sim, utilities: utilities, vp: vp, gp: gp, level: sim.bufferLevel)
    }

    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) {
        if !abrBasic {
            var t = Double(min(segmentIndex - lastSeekIndex, sim.manifest.segmentCount - segmentIndex))
            t = max(t / 2, 3)
            t = t * sim.segmentTime
            let bufferSize = min(self.bufferSize, t)
            vp = (bufferSize - sim.segmentTime) / (utilities[utilities.count - 1] + gp)
        }
        var quality = qualityFromBuffer(sim)
        var delay = 0.0
        if quality > lastQuality {
            let qualityT = sim.qualityFromThroughput(sim.throughput!)
            if quality <= qualityT {
                delay = 0
            } else if lastQuality > qualityT {
                quality = lastQuality
                delay = 0
            } else if !abrOsc {
                quality = qualityT + 1
                delay = 0
            } else {
                quality = qualityT
                let u = utilities[quality]
                let l = vp * (gp + u)
                delay = max(0, sim.bufferLevel - l)
                if quality == sim.bitrates.count - 1 { delay = 0 }
            }
        }
        lastQuality = quality
        return (quality, delay)
    }

    func reportSeek(_ sim: SabreSimulation, to position: Double) {
        lastSeekIndex = Int((position / sim.segmentTime).rounded(.down))
    }

    // Inlined so that BOLA's and BOLA-E's stepped downloads stay two loops: alike but for this call, they are
    // otherwise merged into one that calls the check through a pointer at every step.
    @inline(__always) func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double)
        -> Int?
    {
        if abrBasic { return nil }
        let remain = progress.size - progress.downloaded
        if progress.downloaded <= 0 || remain <= 0 { return nil }
        plan.prepare(sim, utilities: utilities, vp: vp, gp: gp, quality: progress.quality, size: progress.size)
        if bufferLevel >= plan.quietLevel { return nil }
        var abandonTo: Int? = nil
        var score = (plan.targets[progress.quality] - bufferLevel) / remain
        if score < 0 { return nil }
        for q in 0..<progress.quality {
            let otherSize = plan.otherSizes[q]
            guard otherSize < remain else { continue }
            let otherScore = (plan.targets[q] - bufferLevel) / otherSize
            if otherScore > score {
                score = otherScore
                abandonTo = q
            }
        }
        if let abandonTo { lastQuality = abandonTo }
        return abandonTo
    }
}
