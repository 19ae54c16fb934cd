/// Who sabre asks, between the steps of a download, whether to abandon it: an ABR rule (``SabreABRRule``) or the
/// replacement strategy (``SabreReplace``). ``SabreSimulation/download(size:index:quality:bufferLevel:check:)``
/// runs the stepped download through ``steppedDownload(_:size:index:quality:bufferLevel:)``, so that the loop is
/// compiled for each rule's own type with its ``checkAbandon(_:_:bufferLevel:)`` inline.
protocol SabreAbandonRule: AnyObject {
    /// `check_abandon(progress, buffer_level)`: a lower quality to abandon to (`-1` for a replacement that is too
    /// late), or `nil`. `bufferLevel` is the buffer left at this step, ms. Called only between the steps of one
    /// download, so a rule may keep what is the same at every step of it (see ``SabreAbandonPlan``).
    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int?
    /// The download of `size` bits of segment `index` at `quality`, in steps with this rule's checks between them.
    func steppedDownload(_ sim: SabreSimulation, size: Double, index: Int, quality: Int, bufferLevel: Double)
        -> SabreDownloadProgress
}

extension SabreAbandonRule {
    func steppedDownload(_ sim: SabreSimulation, size: Double, index: Int, quality: Int, bufferLevel: Double)
        -> SabreDownloadProgress
    {
        sim.steppedDownload(size: size, index: index, quality: quality, bufferLevel: bufferLevel, rule: self)
    }
}

/// One of sabre's ABR rules (its `Abr` class), called by ``SabreSimulation``'s main loop: before each request
/// (``qualityDelay(_:segmentIndex:)``: a quality and a delay in ms to wait first), after each wait and download,
/// between the steps of a download (``SabreAbandonRule/checkAbandon(_:_:bufferLevel:)``), and on a seek. The rules
/// read the simulation's buffer and estimates as sabre's read its globals.
protocol SabreABRRule: SabreAbandonRule {
    /// `get_first_quality()`: the quality of segment 0.
    func firstQuality() -> Int
    /// `get_quality_delay(segment_index)`: (quality, delay ms).
    func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double)
    /// `report_delay(delay)`: the main loop waited `delay` ms for room in the buffer.
    func reportDelay(_ delay: Double)
    /// `report_download(metrics, is_replacment)`.
    func reportDownload(_ sim: SabreSimulation, _ metrics: SabreDownloadProgress, isReplacement: Bool)
    /// `report_seek(where)`, `where` in ms.
    func reportSeek(_ sim: SabreSimulation, to position: Double)
}

extension SabreABRRule {
    func firstQuality() -> Int { 0 }
    func reportDelay(_ delay: Double) {}
    func reportDownload(_ sim: SabreSimulation, _ metrics: SabreDownloadProgress, isReplacement: Bool) {}
    func reportSeek(_ sim: SabreSimulation, to position: Double) {}
    func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? { nil }
}

/// BOLA's choice at buffer `level` (ms): the quality maximising (Vp·(u + γp) − level) / bitrate, the first of
/// equals (sabre's `quality_from_buffer` in both BOLA rules).
func sabreBolaQuality(_ sim: SabreSimulation, utilities: [Double], vp: Double, gp: Double, level: Double) -> Int {
    var quality = 0
    var best = -Double.infinity
    for q in sim.bitrates.indices {
        let score = (vp * (utilities[q] + gp) - level) / sim.bitrates[q]
        if q == 0 || score > best {
            quality = q
            best = score
        }
    }
    return quality
}

/// The BOLA threshold table sabre prints with `-v` when a BOLA rule starts: per quality the buffer level
/// Vp·(γp + u) and, from the second, the level where it overtakes the one below.
func sabreBolaTable(_ sim: SabreSimulation, utilities: [Double], vp: Double, gp: Double) {
    for q in sim.bitrates.indices {
        let b = sim.bitrates[q]
        let u = utilities[q]
        let l = vp * (gp + u)
        if q == 0 {
            sim.say("\(q) \(PythonFormat.percentD(l))")
        } else {
            let qq = q - 1
            let bb = sim.bitrates[qq]
            let uu = utilities[qq]
            let ll = vp * (gp + (b * uu - bb * u) / (b - bb))
            sim.say("\(q) \(PythonFormat.percentD(l))    <- \(qq) \(PythonFormat.percentD(ll))")
        }
    }
}
