#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sabre's `BolaEnh` (`-a bolae`, sabre's default): BOLA-E. Utilities 1 + ln(b/b₀); the first decision after
/// segment 0 comes from throughput and sets a placeholder buffer that later waits are taken from; rises are held
/// to the throughput quality (+1 without `-ao`); the insufficient-buffer rule caps the quality to what
/// ibr·(buffer − latency)·throughput bits can hold, its safety ibr starting at 0.9 and decaying by 0.9 per
/// decision to 0.5 (`-noibr` turns it off and uses basic BOLA's γp − 1 and Vp instead). Its constructor prints the
/// buffer it sizes Vp for (the stray `30000` line of sabre's output).
final class SabreBolaEnh: SabreABRRule {
    /// `BolaEnh.minimum_buffer`, ms.
    static let minimumBuffer = 10000.0
    /// `BolaEnh.minimum_buffer_per_level`, ms.
    static let minimumBufferPerLevel = 2000.0
    /// `BolaEnh.low_buffer_safety_factor`.
    static let lowBufferSafetyFactor = 0.5
    /// `BolaEnh.low_buffer_safety_factor_init`.
    static let lowBufferSafetyFactorInit = 0.9

    let utilities: [Double]
    let abrOsc: Bool
    let noIBR: Bool
    let gp: Double
    let vp: Double
    @exclusivity(unchecked) var isStartup = true
    @exclusivity(unchecked) var placeholder = 0.0
    @exclusivity(unchecked) var lastQuality = 0
    @exclusivity(unchecked) var ibrSafety = 0.0
    /// The abandonment rule's per-download values.
    @exclusivity(unchecked) var plan = SabreAbandonPlan()

    init(_ sim: SabreSimulation) {
        abrOsc = sim.options.abrOsc
        noIBR = sim.options.noInsufficientBufferRule
        let offset = 1 - log(sim.bitrates[0])
        utilities = sim.bitrates.map { log($0) + offset }
        let top = utilities[utilities.count - 1]
        if noIBR {
            gp = sim.options.gammaP - 1
            vp = (sim.maxBufferSize - sim.segmentTime) / (top + gp)
        } else {
            let levels = Self.minimumBuffer + Self.minimumBufferPerLevel * Double(sim.bitrates.count)
            // max(int, float): the configured buffer only when strictly larger, printed as Python prints it.
            let buffer: Double
            if sim.maxBufferSize > levels {
                buffer = sim.maxBufferSize
                sim.say(
                    sim.options.maxBufferGiven ? PythonFormat.repr(buffer) : PythonFormat.percentD(buffer))
            } else {
                buffer = levels
                sim.say(PythonFormat.percentD(levels))
            }
            gp = (top - 1) / (buffer / Self.minimumBuffer - 1)
            vp = Self.minimumBuffer / gp
        }
        if sim.verbose { sabreBolaTable(sim, utilities: utilities, vp: vp, gp: gp) }
    }

    func qualityFromBuffer(_ sim: SabreSimulation, level: Double) -> Int {
        sabreBolaQuality(sim, utilities: utilities, vp: vp, gp: gp, level: level)
    }

    /// The buffer level above which BOLA prefers `quality` to every lower one.
    func minBufferForQuality(_ sim: SabreSimulation, _ quality: Int) -> Double {
        let bitrate = sim.bitrates[quality]
        let utility = utilities[quality]
        var level = 0.0
        for q in 0..<quality where utilities[q] < utilities[quality] {
            let b = sim.bitrates[q]
            let u = utilities[q]
            let l = vp * (gp + (bitrate * u - b * utility) / (bitrate - b))
            level = max(level, l)
        }
        return level
    }

    func maxBufferForQuality(_ quality: Int) -> Double { vp * (utilities[quality] + gp) }

    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) {
        let bufferLevel = sim.bufferLevel
        guard let throughput = sim.throughput else { return (lastQuality, 0) }
        if isStartup {
            isStartup = false
            ibrSafety = Self.lowBufferSafetyFactorInit
            let quality = sim.qualityFromThroughput(throughput)
            placeholder = minBufferForQuality(sim, quality) - bufferLevel
            placeholder = max(0, placeholder)
            return (quality, 0)
        }
        var quality = qualityFromBuffer(sim, level: sim.bufferLevel + placeholder)
        let qualityT = sim.qualityFromThroughput(throughput)
        if quality > lastQuality && quality > qualityT {
            quality = max(lastQuality, qualityT)
            if !abrOsc { quality += 1 }
        }
        let maxLevel = maxBufferForQuality(quality)
        var delay = bufferLevel + placeholder - maxLevel
        if delay > 0 {
            if delay <= placeholder {
                placeholder -= delay
                delay = 0
            } else {
                delay -= placeholder
                placeholder = 0
            }
        } else {
            delay = 0
        }
        if quality == sim.bitrates.count - 1 { delay = 0 }
        if !noIBR {
            // Insufficient buffer rule.
            let safeSize = ibrSafety * (bufferLevel - sim.latency!) * throughput
            ibrSafety *= Self.lowBufferSafetyFactorInit
            ibrSafety = max(ibrSafety, Self.lowBufferSafetyFactor)
            for q in 0..<quality where sim.bitrates[q + 1] * sim.segmentTime > safeSize {
                quality = q
                delay = 0
                let minLevel = minBufferForQuality(sim, quality)
                let maxPlaceholder = max(0, minLevel - bufferLevel)
                placeholder = min(maxPlaceholder, placeholder)
                break
            }
        }
        return (quality, delay)
    }

    func reportDelay(_ delay: Double) { placeholder += delay }

    func reportDownload(_ sim: SabreSimulation, _ metrics: SabreDownloadProgress, isReplacement: Bool) {
        lastQuality = metrics.quality
        let level = sim.bufferLevel
        if let abandonTo = metrics.abandonToQuality {
            // An abandonment says something went wrong: lower the placeholder to a conservative level.
            guard !isReplacement else { return }
            let wantLevel = abandonTo > 0 ? minBufferForQuality(sim, abandonTo) : Self.minimumBuffer
            let maxPlaceholder = max(0, wantLevel - level)
            placeholder = min(placeholder, maxPlaceholder)
        } else if isReplacement {
            placeholder += sim.segmentTime
        } else {
            // Keep the placeholder from being too large relative to the download...
            let levelWas = level + metrics.time
            let maxEffectiveLevel = maxBufferForQuality(metrics.quality)
            let maxPlaceholder = max(0, maxEffectiveLevel - levelWas)
            placeholder = min(placeholder, maxPlaceholder)
            // ...or too small (a decision BOLA did not take), unless rebuffering.
            if level > 0 {
                let minEffectiveLevel = minBufferForQuality(sim, metrics.quality)
                let minPlaceholder = minEffectiveLevel - levelWas
                placeholder = max(placeholder, minPlaceholder)
            }
        }
    }

    func reportSeek(_ sim: SabreSimulation, to position: Double) { isStartup = true }

    // Inlined so that BOLA's and BOLA-E's stepped downloads stay two loops: alike but for this call, they are
    // otherwise merged into one that calls the check through a pointer at every step.
    @inline(__always) func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double)
        -> Int?
    {
        let remain = progress.size - progress.downloaded
        if progress.downloaded <= 0 || remain <= 0 { return nil }
        // An abandonment costs a new latency: estimate the state after it.
        let bl = max(0, bufferLevel + placeholder - progress.timeToFirstBit)
        plan.prepare(sim, utilities: utilities, vp: vp, gp: gp, quality: progress.quality, size: progress.size)
        if bl >= plan.quietLevel { return nil }
        let tp = progress.downloaded / (progress.time - progress.timeToFirstBit)
        let sz = remain - progress.timeToFirstBit * tp
        if sz <= 0 { return nil }
        var abandonTo: Int? = nil
        var score = (plan.targets[progress.quality] - bl) / sz
        for q in 0..<progress.quality {
            let otherSize = plan.otherSizes[q]
            guard otherSize < sz else { continue }
            let otherScore = (plan.targets[q] - bl) / otherSize
            if otherScore > score {
                score = otherScore
                abandonTo = q
            }
        }
        return abandonTo
    }
}
