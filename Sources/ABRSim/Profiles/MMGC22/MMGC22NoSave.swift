/// `baseline/no_save.py`: the playing clip is downloaded to its end first; then the next clips are preloaded in
/// rounds of 800 kB each (the first clip in the window below 800 kB · round gets the next chunk); when nothing is
/// left it sleeps 500 ms. Levels come from the challenge's robust MPC (``MMGC22RobustMPC``) over the clip's next
/// ≤ 5 chunks. Its bandwidth history (MB/s of each download, the last five) and the estimate and error lists
/// that `estimate_bw` and `mpc` both append to are kept as the Python keeps them.
public struct MMGC22NoSave: MMGC22PreloadPolicy {
    static let horizon = 5
    static let sleepMilliseconds = 500.0
    static let preloadBytes = 800_000.0
    private var pastBandwidth = [Double](repeating: 0, count: 5)
    private var pastEstimates: [Double] = []
    private var pastErrors: [Double] = []
    private var sleepTime = 0.0

    public init() {}

    public mutating func firstDecision(players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        sleepTime = 0
        return MMGC22Decision(video: 0, level: 2, sleepMilliseconds: 0)
    }

    public mutating func decide(after outcome: MMGC22StepOutcome, players: [MMGC22ClipPlayer]) -> MMGC22Decision {
        if sleepTime == 0 {
            pastBandwidth.removeFirst()
            pastBandwidth.append((outcome.chunkBytes / 1_000_000.0) / (outcome.delayMilliseconds / 1000.0))
        }
        let window = min(players.count, MMGC22Model.windowSize)
        let playing = outcome.playVideoId
        var video = -1
        if players[0].remainingChunks > 0 {
            video = playing
        } else {
            var needLoop = (1..<max(1, window)).contains(where: { players[$0].remainingChunks != 0 })
            var round = 1.0
            while needLoop {
                var remainingSum = 0
                if window == 1 {
                    needLoop = false
                } else {
                    for seq in 1..<window {
                        if players[seq].preloadBytes < Self.preloadBytes * round && players[seq].remainingChunks > 0 {
                            video = playing + seq
                            needLoop = false
                            break
                        }
                        remainingSum += players[seq].remainingChunks
                        if seq == window - 1 {
                            if remainingSum > 0 { round += 1 } else { needLoop = false }
                        }
                    }
                }
            }
        }
        if video == -1 {
            sleepTime = Self.sleepMilliseconds
            return MMGC22Decision(video: playing, level: 0, sleepMilliseconds: sleepTime)
        }
        let seq = video - playing
        estimateBandwidth()
        let player = players[seq]
        let lastLevel = player.downloadedLevels.last ?? 0
        // The Python sizes the next ≤ 5 chunks of every clip in the window; only the chosen clip's are read.
        let horizon = min(Self.horizon, player.remainingChunks)
        let level = MMGC22RobustMPC.level(
            pastBandwidth: pastBandwidth, pastEstimates: &pastEstimates, pastErrors: &pastErrors,
            futureSizes: player.undownloadedChunkBytes(count: horizon), horizon: horizon,
            bufferMilliseconds: player.bufferMilliseconds,
            lastLevel: lastLevel)
        sleepTime = 0
        return MMGC22Decision(video: video, level: level, sleepMilliseconds: 0)
    }

    /// `estimate_bw`: appends the last relative error and the harmonic mean of the non-zero history.
    private mutating func estimateBandwidth() {
        var error = 0.0
        if !pastEstimates.isEmpty && pastBandwidth[4] != 0 {
            error = abs(pastEstimates[pastEstimates.count - 1] - pastBandwidth[4]) / pastBandwidth[4]
        }
        pastErrors.append(error)
        pastEstimates.append(MMGC22RobustMPC.harmonicMean(pastBandwidth))
    }
}

/// The challenge's `mpc_module.mpc`: robust MPC over every level combination of the next `horizon` chunks
/// (`itertools.product` order, ties to the later combination; the previous level carried over from one
/// combination to the next, as the Python's `last_quality` is), reward Σq/1000 − 4.3·rebuffer_s − Σ|Δq|/1000,
/// throughput the harmonic mean of the history over 1 + the largest of the last five errors. Like the
/// Python, it appends to the caller's estimate and error lists.
enum MMGC22RobustMPC {
    static let rebufferPenalty = 4.3

    /// `1 / (Σ 1/x / n)` over the history after its leading zeros.
    static func harmonicMean(_ history: [Double]) -> Double {
        let values = history.drop(while: { $0 == 0.0 })
        var sum = 0.0
        for value in values { sum += 1 / value }
        return 1.0 / (sum / Double(values.count))
    }

    static func level(
        pastBandwidth: [Double], pastEstimates: inout [Double], pastErrors: inout [Double], futureSizes: [[Double]],
        horizon: Int, bufferMilliseconds: Double, lastLevel: Int
    ) -> Int {
        let latest = pastBandwidth[pastBandwidth.count - 1]
        var error = 0.0
        if !pastEstimates.isEmpty { error = abs(pastEstimates[pastEstimates.count - 1] - latest) / latest }
        pastErrors.append(error)
        let harmonic = harmonicMean(pastBandwidth)
        let recentErrors = pastErrors.suffix(5)
        let futureBandwidth = harmonic / (1 + recentErrors.max()!)
        pastEstimates.append(harmonic)

        let rates = MMGC22Model.bitratesKbps
        // Each (level, position) download time is the same double in every combination: computed once.
        var downloadTimes = [Double](repeating: 0, count: 3 * horizon)
        for level in 0..<3 {
            for position in 0..<horizon {
                downloadTimes[level * horizon + position] =
                    1000.0 * (futureSizes[level][position] / 1_000_000.0) / futureBandwidth
            }
        }
        var maxReward = -Double.infinity
        var chosen = 0
        // Combinations in itertools.product order (the last position varies fastest). The state after each prefix
        // (buffer, rebuffer, bitrate sum and the smoothness between its own positions) is the same sequence of
        // operations in every combination sharing that prefix, so it is kept per depth and only the positions
        // from the first one that changed are recomputed: the same doubles as evaluating each combination whole.
        // Per depth d (the state after positions 0..<d): buffer, rebuffer (ms), bitrate sum and the smoothness
        // between the prefix's own positions (kbit/s); then the combination itself.
        let stride = horizon + 1
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * stride) { doubles in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * stride) { integers in
                let buffers = doubles.baseAddress!
                let rebuffers = buffers + stride
                let bitrateSums = integers.baseAddress!
                let innerSmoothness = bitrateSums + stride
                let combination = innerSmoothness + stride
                buffers[0] = bufferMilliseconds
                rebuffers[0] = 0
                bitrateSums[0] = 0
                innerSmoothness[0] = 0
                for position in 0..<stride { combination[position] = 0 }
                downloadTimes.withUnsafeBufferPointer { times in
                    rates.withUnsafeBufferPointer { rates in
                        // The Python never resets `last_quality` between combinations: each one's first smoothness
                        // term is measured from the previous combination's last level (only the first starts from
                        // the clip's last).
                        var last = lastLevel
                        let total = (0..<horizon).reduce(1, { product, _ in product * 3 })
                        var changed = 0
                        for _ in 0..<total {
                            for position in changed..<horizon {
                                let level = combination[position]
                                let downloadTime = times[level * horizon + position]
                                var buffer = buffers[position]
                                var rebuffer = rebuffers[position]
                                if buffer < downloadTime {
                                    rebuffer += downloadTime - buffer
                                    buffer = 0
                                } else {
                                    buffer -= downloadTime
                                }
                                buffers[position + 1] = buffer + MMGC22Model.chunkMilliseconds
                                rebuffers[position + 1] = rebuffer
                                bitrateSums[position + 1] = bitrateSums[position] + rates[level]
                                innerSmoothness[position + 1] =
                                    innerSmoothness[position]
                                    + (position == 0 ? 0 : abs(rates[level] - rates[combination[position - 1]]))
                            }
                            let smoothness = abs(rates[combination[0]] - rates[last]) + innerSmoothness[horizon]
                            last = combination[horizon - 1]
                            let reward =
                                Double(bitrateSums[horizon]) / 1000.0 - rebufferPenalty * rebuffers[horizon] / 1000.0
                                - Double(smoothness) / 1000.0
                            if reward >= maxReward {
                                maxReward = reward
                                chosen = combination[0]
                            }
                            var position = horizon - 1
                            while position >= 0 {
                                combination[position] += 1
                                if combination[position] < 3 { break }
                                combination[position] = 0
                                position -= 1
                            }
                            changed = max(position, 0)
                        }
                    }
                }
            }
        }
        return chosen
    }
}
