/// Sabre's `NetworkModel`: the trace's periods one after another, looping; each request first waits its latency
/// (split pro rata across period boundaries), then bits flow at each period's bandwidth. With abandonment on,
/// a download goes in steps of at least 12 000 bits and 50 ms (the first step shortened by the latency), and the
/// ABR may abandon it between steps.
extension SabreSimulation {
    /// `NetworkModel.min_progress_size`, bits.
    static let minProgressSize = 12000.0
    /// `NetworkModel.min_progress_time`, ms.
    static let minProgressTime = 50.0

    /// `next_network_period`: moves to the next period (looping), updates the sustainable quality and the
    /// reaction-time bookkeeping, and logs the period.
    func nextNetworkPeriod() {
        networkIndex += 1
        if networkIndex == periods.count { networkIndex = 0 }
        let period = periods[networkIndex]
        timeToNext = period.durationMs
        let latencyFactor = 1 - period.latencyMs / segmentTime
        let effectiveBandwidth = period.bandwidthKbps * latencyFactor
        let previous = sustainableQuality
        var quality = 0
        var i = 1
        while i < bitrates.count {
            if bitrates[i] > effectiveBandwidth { break }
            quality = i
            i += 1
        }
        sustainableQuality = quality
        if let previous, quality != previous {
            advertizeNewNetworkQuality(quality, previous: previous)
        }
        if verbose {
            say(
                "[\(PythonFormat.percentD(PythonFormat.round(networkTotalTime)))] Network: "
                    + "\(PythonFormat.percentD(period.bandwidthKbps)),\(PythonFormat.percentD(period.latencyMs))  "
                    + "(q=\(quality): bitrate=\(PythonFormat.percentD(bitrates[quality])))")
        }
    }

    /// `do_latency_delay(1)`: waits one request's latency, returns the time taken, ms.
    func latencyDelay() -> Double {
        var delayUnits = 1.0
        var totalDelay = 0.0
        while delayUnits > 0 {
            let currentLatency = periods[networkIndex].latencyMs
            let time = delayUnits * currentLatency
            if time <= timeToNext {
                totalDelay += time
                networkTotalTime += time
                timeToNext -= time
                delayUnits = 0
            } else {
                totalDelay += timeToNext
                networkTotalTime += timeToNext
                delayUnits -= timeToNext / currentLatency
                nextNetworkPeriod()
            }
        }
        return totalDelay
    }

    /// `do_download(size)`: transfers `size` bits, returns the time taken, ms.
    func transfer(_ size: Double) -> Double {
        var size = size
        var totalDownloadTime = 0.0
        while size > 0 {
            let currentBandwidth = periods[networkIndex].bandwidthKbps
            if size <= timeToNext * currentBandwidth {
                let time = size / currentBandwidth
                totalDownloadTime += time
                networkTotalTime += time
                timeToNext -= time
                size = 0
            } else {
                totalDownloadTime += timeToNext
                networkTotalTime += timeToNext
                size -= timeToNext * currentBandwidth
                nextNetworkPeriod()
            }
        }
        return totalDownloadTime
    }

    /// `do_minimal_download`: transfers up to `size` bits, stopping once at least `minSize` bits and `minTime`
    /// ms have gone; returns (bits, ms).
    func minimalTransfer(_ size: Double, minSize: Double, minTime: Double) -> (bits: Double, time: Double) {
        var size = size
        var minSize = minSize
        var minTime = minTime
        var totalSize = 0.0
        var totalTime = 0.0
        while size > 0 && (minSize > 0 || minTime > 0) {
            let currentBandwidth = periods[networkIndex].bandwidthKbps
            let bits: Double
            let time: Double
            if currentBandwidth > 0 {
                let minBits = max(minSize, minTime * currentBandwidth)
                let bitsToNext = timeToNext * currentBandwidth
                if size <= minBits && size <= bitsToNext {
                    bits = size
                    time = bits / currentBandwidth
                    timeToNext -= time
                    networkTotalTime += time
                } else if minBits <= bitsToNext {
                    bits = minBits
                    time = bits / currentBandwidth
                    minSize = 0
                    minTime = 0
                    timeToNext -= time
                    networkTotalTime += time
                } else {
                    bits = bitsToNext
                    time = timeToNext
                    networkTotalTime += time
                    nextNetworkPeriod()
                }
            } else {
                bits = 0
                if minSize > 0 || minTime > timeToNext {
                    time = timeToNext
                    networkTotalTime += time
                    nextNetworkPeriod()
                } else {
                    time = minTime
                    timeToNext -= time
                    networkTotalTime += time
                }
            }
            totalSize += bits
            totalTime += time
            size -= bits
            minSize -= bits
            minTime -= time
        }
        return (totalSize, totalTime)
    }

    /// `NetworkModel.delay(time)`: lets `time` ms of the trace pass with nothing downloading.
    func networkDelay(_ time: Double) {
        var time = time
        while time > timeToNext {
            time -= timeToNext
            networkTotalTime += timeToNext
            nextNetworkPeriod()
        }
        timeToNext -= time
        networkTotalTime += time
    }

    /// Who may abandon a download: nobody (segment 0, `-noa`), the ABR, or the replacement strategy.
    enum AbandonCheck {
        case none, abr, replacer
    }

    /// `NetworkModel.download`: downloads `size` bits of segment `index` at `quality`; with a `check`, in steps
    /// after each of which it may abandon (`bufferLevel` is the buffer at the request, ms).
    func download(size: Double, index: Int, quality: Int, bufferLevel: Double, check: AbandonCheck)
        -> SabreDownloadProgress
    {
        if size <= 0 {
            return SabreDownloadProgress(
                index: index, quality: quality, size: 0, downloaded: 0, time: 0, timeToFirstBit: 0,
                abandonToQuality: nil)
        }
        switch check {
        case .none:
            let latency = latencyDelay()
            let time = latency + transfer(size)
            return SabreDownloadProgress(
                index: index, quality: quality, size: size, downloaded: size, time: time, timeToFirstBit: latency,
                abandonToQuality: nil)
        case .abr:
            return abr.steppedDownload(self, size: size, index: index, quality: quality, bufferLevel: bufferLevel)
        case .replacer:
            return replacer!.steppedDownload(
                self, size: size, index: index, quality: quality, bufferLevel: bufferLevel)
        }
    }

    /// The stepped part of `NetworkModel.download` (``download(size:index:quality:bufferLevel:check:)`` with a
    /// check): the latency, then steps of ``minimalTransfer(_:minSize:minTime:)``, `rule` asked after each step
    /// that leaves bits to download. Generic so that each rule gets its own copy with its check inline.
    @inline(__always)
    func steppedDownload<Rule: SabreAbandonRule>(
        size: Double, index: Int, quality: Int, bufferLevel: Double, rule: Rule
    ) -> SabreDownloadProgress {
        var totalDownloadTime = 0.0
        var totalDownloadSize = 0.0
        var minTimeToProgress = Self.minProgressTime
        var minSizeToProgress = Self.minProgressSize
        let latency = latencyDelay()
        totalDownloadTime += latency
        minTimeToProgress -= totalDownloadTime
        var abandonQuality: Int? = nil
        while totalDownloadSize < size && abandonQuality == nil {
            let step = minimalTransfer(
                size - totalDownloadSize, minSize: minSizeToProgress, minTime: minTimeToProgress)
            totalDownloadTime += step.time
            totalDownloadSize += step.bits
            let progress = SabreDownloadProgress(
                index: index, quality: quality, size: size, downloaded: totalDownloadSize,
                time: totalDownloadTime, timeToFirstBit: latency, abandonToQuality: nil)
            if totalDownloadSize < size {
                let level = max(0, bufferLevel - totalDownloadTime)
                abandonQuality = rule.checkAbandon(self, progress, bufferLevel: level)
                if let to = abandonQuality, verbose {
                    say("\(index) abandoning \(quality)->\(to)")
                    say(
                        "\(PythonFormat.percentD(progress.downloaded))/\(PythonFormat.percentD(progress.size)) "
                            + "\(PythonFormat.percentD(progress.time))(\(PythonFormat.percentD(progress.timeToFirstBit)))"
                    )
                }
                minTimeToProgress = Self.minProgressTime
                minSizeToProgress = Self.minProgressSize
            }
        }
        return SabreDownloadProgress(
            index: index, quality: quality, size: size, downloaded: totalDownloadSize, time: totalDownloadTime,
            timeToFirstBit: latency, abandonToQuality: abandonQuality)
    }
}
