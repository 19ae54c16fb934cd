/// Sabre's main program (`if __name__ == '__main__'` in `sabre.py`): segment 0 at the first quality without
/// abandonment checks, then per segment: an optional seek, a wait while the buffer has no room for another
/// segment (`level + p − max buffer` ms), the ABR's quality and delay (or a replacement), the delay, the download,
/// the buffer drained by the download time, the segment added unless abandoned, the ABR told, the estimate
/// statistics updated (abandoned downloads included) and the estimators fed (abandoned ones left out).
///
/// Sabre's abandonment quirk is kept: the quality an abandonment asks for is stored in `abandon_to_quality`
/// but the loop reads `abandoned_to_quality`, which stays `None`, so after an abandonment the ABR simply
/// decides again for the same segment.
extension SabreSimulation {
    /// Runs sabre with `options` on `network` and `manifest` (already read, `-nm` and `-ml` applied) and returns
    /// what it prints. Throws an ``InputError`` for settings sabre would crash or loop forever on.
    public static func run(options: SabreOptions, network: [SabreNetworkPeriod], manifest: SabreManifest) throws
        -> SabreResult
    {
        try validate(options, manifest: manifest)
        let sim = SabreSimulation(options: options, network: network, manifest: manifest)
        sim.start()
        try sim.play()
        return sim.result()
    }

    static func validate(_ options: SabreOptions, manifest: SabreManifest) throws {
        if options.movingAverage == .sliding, let bad = options.windowSize.first(where: { $0 < 1 }) {
            throw InputError(.option("-ws"), .mustBe("window sizes", rule: "at least 1", found: "\(bad)"))
        }
        if options.movingAverage == .ewma, let bad = options.halfLife.first(where: { !($0 > 0) }) {
            throw InputError(.option("-hl"), .mustBe("half-lives", rule: "> 0", found: formatParameterNumber(bad)))
        }
        let usesBolaE = options.abr == .bolae || options.abr == .dynamicdash
        if usesBolaE && !options.noInsufficientBufferRule && manifest.levelCount < 2 {
            throw InputError(
                .option("-a"),
                .unsupported(
                    by: "sabre's \(options.abr.rawValue)", supports: "movies of at least 2 bitrates",
                    found: "\(manifest.levelCount)", reason: "it divides by zero"))
        }
        // The seek fires at the first segment from 1 whose start is at or after WHEN; a movie too short never seeks.
        if let seek = options.seek, Double(manifest.segmentCount - 1) * manifest.segmentTimeMs >= 1000 * seek.when {
            let target = (1000 * seek.to / manifest.segmentTimeMs).rounded(.down)
            guard seek.to >= 0, target < Double(manifest.segmentCount) else {
                throw InputError(
                    .option("-s"),
                    .outOfRange(
                        what: "a SEEK", bound: "within the movie's \(manifest.segmentCount) segments",
                        found: formatParameterNumber(seek.to), unit: "s"))
            }
        }
    }

    /// Builds the components in sabre's order (ABR, network, replacement, estimator): their printing shows it.
    func start() {
        switch options.abr {
        case .bola: abr = SabreBola(self)
        case .bolae: abr = SabreBolaEnh(self)
        case .throughput: abr = SabreThroughputRule(self)
        case .dynamic: abr = SabreDynamic(self)
        case .dynamicdash: abr = SabreDynamicDash(self)
        }
        nextNetworkPeriod()
        if options.replace != .none { replacer = SabreReplace(options.replace) }
        switch options.movingAverage {
        case .ewma: history = SabreEWMA(halfLifeSeconds: options.halfLife, segmentTime: segmentTime)
        case .sliding: history = SabreSlidingWindow(windowSize: options.windowSize)
        }
    }

    /// Feeds one completed download to the estimator.
    func push(time: Double, throughput t: Double, latency l: Double) {
        let estimate = history.push(time: time, throughput: t, latency: l)
        throughput = estimate.throughput
        latency = estimate.latency
    }

    /// Consecutive abandonments of one segment after which the run is refused: sabre never feeds abandoned
    /// downloads to its estimator, so when the ABR keeps choosing a quality the network cannot bring within the
    /// abandon rule's limit, sabre abandons and asks again forever (it hangs); real runs abandon a segment a few
    /// times at most.
    static let abandonmentLimit = 10_000

    func play() throws {
        // Segment 0.
        var quality = abr.firstQuality()
        var metric = download(
            size: manifest.size(segment: 0, level: quality), index: 0, quality: quality, bufferLevel: 0, check: .none)
        var downloadTime = metric.time - metric.timeToFirstBit
        bufferContents.append(metric.quality)
        push(time: downloadTime, throughput: metric.size / downloadTime, latency: metric.timeToFirstBit)
        totalPlayTime += metric.time
        if verbose {
            say(
                "[0-\(PythonFormat.percentD(PythonFormat.round(metric.time)))]  0: q=\(metric.quality) "
                    + "s=\(PythonFormat.percentD(metric.downloaded))/\(PythonFormat.percentD(metric.size)) "
                    + "t=\(PythonFormat.percentD(metric.time))=\(PythonFormat.percentD(metric.timeToFirstBit))"
                    + "+\(PythonFormat.percentD(metric.time - metric.timeToFirstBit)) "
                    + "bl=0->0->\(PythonFormat.percentD(bufferLevel))")
        }

        var seek = options.seek
        var nextSegment = 1
        var abandonmentsInARow = 0
        let segmentCount = manifest.segmentCount
        while nextSegment < segmentCount {
            if let target = seek, Double(nextSegment) * segmentTime >= 1000 * target.when {
                // Sabre's proof-of-concept seek: jump, drop the buffer, restart the rampup clock.
                nextSegment = Int((1000 * target.to / segmentTime).rounded(.down))
                bufferContents.removeAll()
                bufferFcc = 0
                abr.reportSeek(self, to: 1000 * target.to)
                seek = nil
                rampupOrigin = totalPlayTime
                rampupTime = nil
            }

            // Room for another segment?
            let fullDelay = bufferLevel + segmentTime - maxBufferSize
            if fullDelay > 0 {
                depleteBuffer(fullDelay)
                networkDelay(fullDelay)
                abr.reportDelay(fullDelay)
                if verbose {
                    say(
                        "full buffer delay \(PythonFormat.percentD(fullDelay)) bl=\(PythonFormat.percentD(bufferLevel))"
                    )
                }
            }

            var delay: Double
            (quality, delay) = abr.qualityDelay(self, segmentIndex: nextSegment)
            let replace = replacer?.checkReplace(self, quality: quality)
            let currentSegment: Int
            var check: AbandonCheck
            if let replace {
                delay = 0
                currentSegment = nextSegment + replace
                check = .replacer
            } else {
                currentSegment = nextSegment
                check = .abr
            }
            if options.noAbandon { check = .none }
            let size = manifest.size(segment: currentSegment, level: quality)
            if delay > 0 {
                depleteBuffer(delay)
                networkDelay(delay)
                if verbose {
                    say("abr delay \(PythonFormat.percentD(delay)) bl=\(PythonFormat.percentD(bufferLevel))")
                }
            }

            metric = download(
                size: size, index: currentSegment, quality: quality, bufferLevel: bufferLevel, check: check)
            if verbose { logDownload(metric, segment: currentSegment, isReplacement: replace != nil) }

            depleteBuffer(metric.time)
            if verbose { output += "->\(PythonFormat.percentD(bufferLevel))" }

            if let replace {
                if metric.abandonToQuality == nil {
                    if bufferLevel + segmentTime * Double(replace) >= 0 {
                        bufferContents[bufferContents.count + replace] = quality
                    } else {
                        say("WARNING: too late to replace")
                    }
                }
            } else if metric.abandonToQuality == nil {
                bufferContents.append(quality)
                nextSegment += 1
                abandonmentsInARow = 0
            } else {
                abandonmentsInARow += 1
                if abandonmentsInARow == Self.abandonmentLimit {
                    throw InputError(
                        .file(options.network),
                        .invalid(
                            "sabre never finishes this run: \(options.abr.rawValue) abandoned segment \(currentSegment) "
                                + "\(abandonmentsInARow) times in a row (its estimator never sees abandoned downloads, so it "
                                + "asks for the same quality again; src/sabre.py loops forever here)"))
                }
            }
            if verbose { say("->\(PythonFormat.percentD(bufferLevel))") }

            abr.reportDownload(self, metric, isReplacement: replace != nil)

            downloadTime = metric.time - metric.timeToFirstBit
            let t = metric.downloaded / downloadTime
            let l = metric.timeToFirstBit
            let estimate = throughput!
            if estimate > t {
                overestimateCount += 1
                overestimateAverage += (estimate - t - overestimateAverage) / Double(overestimateCount)
            } else {
                goodestimateCount += 1
                goodestimateAverage += (t - estimate - goodestimateAverage) / Double(goodestimateCount)
            }
            estimateAverage += (estimate - t - estimateAverage) / Double(overestimateCount + goodestimateCount)
            if metric.abandonToQuality == nil { push(time: downloadTime, throughput: t, latency: l) }
        }
        playoutBuffer()
    }

    /// The `-v` line of a download, up to the buffer levels that follow it.
    func logDownload(_ metric: SabreDownloadProgress, segment: Int, isReplacement: Bool) {
        let d = PythonFormat.percentD as (Double) -> String
        let r = PythonFormat.round
        let times =
            "\(d(metric.time))=\(d(metric.timeToFirstBit))+\(d(metric.time - metric.timeToFirstBit))"
        output +=
            "[\(d(r(totalPlayTime)))-\(d(r(totalPlayTime + metric.time)))]  \(segment): q=\(metric.quality) "
            + "s=\(d(metric.downloaded))/\(d(metric.size)) t=\(times) "
        let level = d(bufferLevel)
        switch (isReplacement, metric.abandonToQuality) {
        case (false, nil): output += "bl=\(level)"
        case (false, let to?):
            output +=
                " ABANDONED to \(to) - \(d(metric.downloaded))/\(d(metric.size)) bits in \(times) ttfb+ttdl  bl=\(level)"
        case (true, nil): output += " REPLACEMENT  bl=\(level)"
        case (true, _): output += " REPLACMENT ABANDONED after \(times) ttfb+ttdl  bl=\(level)"
        }
    }
}
