/// The NQoE of the ACM MMSys 2020 Twitch low-latency grand challenge as a QoE model (`nqoe`): LoL's per-segment
/// score (``LiveNQoE``; NUStreaming/LoL `dc7b58c`, `LoL_qoeEvaluator.js`; the same arithmetic as dash.js's
/// `LoLpQoEEvaluator.js`) — Σ D·R − Σ|ΔR| − R_max·Σ rebuffer − Σ latency penalty·L − R_min·Σ|1 − rate|, bitrates
/// R in kbit/s, D the segment duration, the latency penalty R_min × 0.05 per second up to 1.1 s and R_max × 0.1
/// above.
///
/// Two ways in:
/// - Per segment (``score(segments:ladderBps:startupSeconds:weights:)``, every term): a ``LiveNQoE`` set up with the
///   first segment's duration and the ladder's lowest and top rungs logs each segment's bitrate, rebuffering,
///   latency (0 when `nil`, i.e. VOD: no latency term) and playback rate; minus μₛ × startup (0 by default).
/// - From a tally (summaries, the offline optimum, which know bitrates and total stalls only): q = R in kbit/s and the
///   challenge's scoring set-up, 1 s per segment on the 200/600/1000 kbit/s ladder (μ = 1000 per stall second,
///   λ = 1), which is the NQoE of that set-up at zero latency and rate 1. Give the per-segment path the ladder and
///   durations of another set-up.
public struct MMSysNQoE: QoEFunction {
    /// The challenge's scoring ladder (`normal` set), kbit/s.
    public static let challengeLadderKbps: [Double] = [200, 600, 1000]

    /// The model.
    public init() {}

    public var name: String { "nqoe" }

    /// μ = the challenge ladder's top rung (1000 per stall second), λ = 1 (the switch penalty), μₛ = 0.
    public var defaultWeights: QoEWeights { QoEWeights(rebufferPenalty: Self.challengeLadderKbps.last!) }

    /// q = R in kbit/s.
    public func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] { ladderBps.map { $0 / 1000 } }

    /// q = R in kbit/s.
    public func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double { bitrateBps / 1000 }

    /// Every NQoE term, weights derived from the first segment's duration and the ladder (``LiveNQoE``); `weights`
    /// contributes its startup penalty only.
    public func score(segments: [QoESegment], ladderBps: [Double], startupSeconds: Double, weights: QoEWeights)
        -> Double
    {
        var session = LiveNQoE(
            segmentDurationSeconds: segments.first?.durationSeconds ?? 0,
            maxBitrateKbps: (ladderBps.last ?? 0) / 1000, minBitrateKbps: (ladderBps.first ?? 0) / 1000)
        for segment in segments {
            session.logSegmentMetrics(
                bitrateKbps: segment.bitrateBps / 1000, rebufferSeconds: segment.rebufferSeconds,
                latencySeconds: segment.latencySeconds ?? 0, playbackSpeed: segment.playbackRate)
        }
        return session.totalQoe - weights.cost(startupSeconds: startupSeconds)
    }
}
