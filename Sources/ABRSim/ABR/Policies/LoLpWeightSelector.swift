/// LoL+'s dynamic weight selector (dash.js v5.1.1 `src/streaming/rules/abr/lolp/LoLpWeightSelector.js`): picks the
/// SOM's distance weights (throughput, latency, buffer, switch) that maximise a one-segment NQoE over every neuron
/// and every weight vector in {0.2, 0.4, 0.6, 0.8, 1}⁴ (625, in lexicographic order), subject to the constraints.
///
/// For neuron n (bitrate b_n in bit/s) and weights (w_t, w_l, w_b, w_s): download time d = b_n·D / c (D the segment
/// duration, c the throughput in bit/s); next buffer B' = B − D when d > D, else B + D − d; rebuffer
/// max(10⁻⁵, d − B'); QoE = ``LiveNQoE/singleUseQoe(segmentDurationSeconds:maxBitrateKbps:minBitrateKbps:bitrateKbps:rebufferSeconds:latencySeconds:playbackSpeed:)``
/// of bitrate b_n (bit/s where the evaluator expects kbit/s, as dash.js passes it), rebuffer rebuffer / w_b, latency
/// (the neuron's latency state) / w_l, and the playback rate. The first strictly better QoE that meets the
/// constraints wins: latency ≤ target + |latency − previous latency| and B' ≥ the minimum buffer. dash.js makes a
/// new selector for every decision, so the previous latency is always 0 and the latency constraint always holds.
/// A value made by ``LoLpPolicy`` per decision; times in seconds.
public struct LoLpWeightSelector: Sendable {
    /// The weight values each of the four weights takes.
    public static let values: [Double] = [0.2, 0.4, 0.6, 0.8, 1]
    /// Every weight vector, in dash.js's `_getPermutations` order.
    public static let weightOptions: [[Double]] = {
        var options: [[Double]] = values.map { [$0] }
        for _ in 1..<4 { options = options.flatMap { option in values.map { option + [$0] } } }
        return options
    }()

    /// The latency target (`DWS_TARGET_LATENCY`), seconds.
    public var targetLatency: Double
    /// The minimum buffer (`DWS_BUFFER_MIN`), seconds.
    public var bufferMin: Double
    /// The segment duration, seconds.
    public var segmentDuration: Double
    /// The ladder's extremes for the NQoE weights, kbit/s.
    public var maxBitrateKbps: Double
    public var minBitrateKbps: Double
    /// The latency of the previous call (0 for a new selector).
    public var previousLatency = 0.0

    /// A selector for one decision.
    public init(
        targetLatency: Double, bufferMin: Double, segmentDuration: Double, maxBitrateKbps: Double,
        minBitrateKbps: Double
    ) {
        self.targetLatency = targetLatency
        self.bufferMin = bufferMin
        self.segmentDuration = segmentDuration
        self.maxBitrateKbps = maxBitrateKbps
        self.minBitrateKbps = minBitrateKbps
    }

    /// `getNextBuffer`: the buffer after downloading for `downloadTime` seconds.
    public func nextBuffer(_ buffer: Double, downloadTime: Double) -> Double {
        downloadTime > segmentDuration ? buffer - segmentDuration : buffer + segmentDuration - downloadTime
    }

    /// `getNextBufferWithBitrate`.
    public func nextBuffer(bitrateBps: Double, buffer: Double, throughputBps: Double) -> Double {
        nextBuffer(buffer, downloadTime: bitrateBps * segmentDuration / throughputBps)
    }

    /// `findWeightVector`: the winning weights, or `nil` when no candidate meets the constraints (dash.js's −1).
    ///
    /// The QoE of a candidate depends on its neuron and on two of its four weights only (latency w_l and buffer
    /// w_b), and the constraints on its neuron only. So among a neuron's 625 vectors, the first 125 (w_t = 0.2)
    /// already hold every QoE the neuron can give, and within them each (w_l, w_b) first with w_s = 0.2; a later
    /// vector repeats a QoE already seen, which cannot be strictly better than the maximum by then. The search
    /// visits just those 25 vectors per neuron, in dash.js's order, and returns the same winner as the full one.
    public mutating func findWeightVector(
        neurons: [LoLpNeuron], latency: Double, buffer: Double, throughputBps: Double, playbackRate: Double
    ) -> [Double]? {
        var maxQoE: Double?
        var winner: [Double]?
        let deltaLatency = abs(latency - previousLatency)
        let options = Self.weightOptions
        let n = Self.values.count
        for neuron in neurons {
            for index in 0..<n * n {
                // (w_t, w_l, w_b, w_s) = (0.2, values[index / n], values[index % n], 0.2)
                let weights = options[index * n]
                let downloadTime = neuron.bitrateBps * segmentDuration / throughputBps
                let next = nextBuffer(buffer, downloadTime: downloadTime)
                let rebuffer = max(0.00001, downloadTime - next)
                let weightedRebuffer = (weights[2] == 0 ? 10 : 1 / weights[2]) * rebuffer
                let weightedLatency = (weights[1] == 0 ? 10 : 1 / weights[1]) * neuron.latency
                let qoe = LiveNQoE.singleUseQoe(
                    segmentDurationSeconds: segmentDuration, maxBitrateKbps: maxBitrateKbps,
                    minBitrateKbps: minBitrateKbps, bitrateKbps: neuron.bitrateBps, rebufferSeconds: weightedRebuffer,
                    latencySeconds: weightedLatency, playbackSpeed: playbackRate)
                if maxQoE.map({ qoe > $0 }) ?? true,
                    latency <= targetLatency + deltaLatency, next >= bufferMin
                {
                    maxQoE = qoe
                    winner = weights
                }
            }
        }
        previousLatency = latency
        return winner
    }
}
