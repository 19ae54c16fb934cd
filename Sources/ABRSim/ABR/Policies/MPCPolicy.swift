/// Model predictive control: MPC and RobustMPC (Yin, Jindal, Sekar, Sinopoli, "A Control-Theoretic Approach for
/// Dynamic Adaptive Video Streaming over HTTP", SIGCOMM 2015), as reimplemented in Pensieve's `test/mpc.py`
/// (hongzimao/pensieve; `reference-simulators.md`).
///
/// After each download the policy records its throughput in MB/s, `bytes / milliseconds / 1000` as mpc.py
/// computes it, where the milliseconds are the transfer's plus, with `timing` `.total` (Pensieve's), the request
/// latency. The prediction is the harmonic mean of the last ≤ `window` samples, `1 / (Σ(1/x) / n)` in that order;
/// RobustMPC divides it by 1 + the largest of the last ≤ `window` relative errors, the error of a sample being
/// |previous harmonic mean − sample| / sample (0 for the first sample). The plan looks `horizon` segments ahead
/// (fewer near the end), predicts each download as `bytes / 10⁶ / prediction` seconds and scores every variant
/// sequence with linear QoE (``MPCPlanner``: exact, pruned, equal to exhaustive search, ties to the sequence last
/// in lexicographic order); the first choice of the best sequence is fetched. Choices are `0...maxVariant`.
///
/// `planningSizeOffset` shifts the segment sizes and durations read while planning (position p reads segment
/// `segmentIndex + p + offset`): 0 is right; Pensieve's code reads one segment ahead, and the `pensieve` profile
/// sets 1 to reproduce it. Before the first sample the policy fetches the content's start variant (Pensieve
/// fetches its first chunk at a default quality without planning).
public final class MPCPolicy: ABRPolicy {
    /// Which interval a throughput sample is measured over.
    public enum Timing: String, Sendable {
        /// First byte to last byte.
        case download
        /// Request to last byte, latency included (Pensieve's and MPC's simulators).
        case total
    }

    /// Segments planned ahead (5).
    public let horizon: Int
    /// Samples in the harmonic mean, and errors in RobustMPC's maximum (5).
    public let window: Int
    /// Whether predictions are discounted by the recent prediction error (RobustMPC).
    public let isRobust: Bool
    /// QoE lost per second of rebuffering (4.3).
    public let rebufferPenalty: Double
    /// Weight of |Δbitrate| in Mbit/s (1).
    public let smoothnessPenalty: Double
    /// Whether samples include the request latency.
    public let timing: Timing
    /// Segments between the one fetched and the first one planned from (0; 1 under the `pensieve` profile).
    public let planningSizeOffset: Int

    private var samplesMBps: [Double] = []
    private var errors: [Double] = []
    private var lastHarmonicMean: Double?
    private let planner = MPCPlanner()

    /// An MPC policy; `horizon` and `window` ≥ 1, penalties ≥ 0, `planningSizeOffset` ≥ 0.
    public init(
        robust: Bool, horizon: Int = 5, window: Int = 5, rebufferPenalty: Double = 4.3,
        smoothnessPenalty: Double = 1, timing: Timing = .total, planningSizeOffset: Int = 0
    ) {
        precondition(horizon >= 1 && window >= 1, "MPC needs a horizon and a window of at least 1")
        precondition(rebufferPenalty >= 0 && smoothnessPenalty >= 0, "MPC penalties must be ≥ 0")
        precondition(planningSizeOffset >= 0, "the planning offset must be ≥ 0")
        self.isRobust = robust
        self.horizon = horizon
        self.window = window
        self.rebufferPenalty = rebufferPenalty
        self.smoothnessPenalty = smoothnessPenalty
        self.timing = timing
        self.planningSizeOffset = planningSizeOffset
    }

    /// The throughput of `sample` in MB/s (10⁶ bytes per second) as mpc.py measures it, or `nil` if it has no
    /// bits or no duration.
    public func megabytesPerSecond(_ sample: ThroughputSample) -> Double? {
        var milliseconds = sample.downloadSeconds * 1000
        if timing == .total { milliseconds += (sample.firstByteTime - sample.requestTime) * 1000 }
        guard sample.bits > 0, milliseconds > 0, milliseconds.isFinite else { return nil }
        return sample.bits / 8 / milliseconds / 1000
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        guard let rate = megabytesPerSecond(sample) else { return }
        let error = lastHarmonicMean.map { abs($0 - rate) / rate } ?? 0
        errors.append(error)
        if errors.count > window { errors.removeFirst() }
        samplesMBps.append(rate)
        if samplesMBps.count > window { samplesMBps.removeFirst() }
        var reciprocalSum = 0.0
        for value in samplesMBps { reciprocalSum += 1 / value }
        lastHarmonicMean = 1 / (reciprocalSum / Double(samplesMBps.count))
    }

    /// The throughput the plan assumes, MB/s, or `nil` before the first sample.
    public var predictionMBps: Double? {
        guard let harmonic = lastHarmonicMean else { return nil }
        guard isRobust else { return harmonic }
        return harmonic / (1 + (errors.max() ?? 0))
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let top = max(0, min(context.maxVariant, context.content.variantCount - 1))
        guard let prediction = predictionMBps, prediction > 0, prediction.isFinite else {
            return .variant(min(context.startVariant, top))
        }
        let content = context.content
        let firstRow = context.segmentIndex + planningSizeOffset
        let length = min(horizon, content.segmentCount - firstRow)
        guard length >= 1 else { return .variant(0) }
        let choices = top + 1
        planner.reset(horizon: length, choices: choices)
        for position in 0..<length {
            let row = firstRow + position
            planner.segmentSeconds[position] = content.segmentDurations[row]
            for variant in 0..<choices {
                let megabytes = content.sizeBytes(segment: row, variant: variant) / 1_000_000
                planner.downloadSeconds[position * choices + variant] = megabytes / prediction
            }
        }
        if planner.bitratesKbps.count != content.variantCount {
            planner.bitratesKbps = [Double](repeating: 0, count: content.variantCount)
        }
        for (index, variant) in content.variants.enumerated() {
            planner.bitratesKbps[index] = variant.bitrateBps / 1000
        }
        planner.startBuffer = context.bufferSeconds
        planner.lastVariant = context.lastVariant.map { min(max($0, 0), content.variantCount - 1) }
        planner.rebufferPenalty = rebufferPenalty
        planner.smoothnessPenalty = smoothnessPenalty
        return .variant(planner.firstChoice())
    }
}

extension BuiltInPolicies {
    static let mpcParameters = [
        PolicyParameter("horizon", default: "5", "segments planned ahead (MPC 5)"),
        PolicyParameter("window", default: "5", "samples in the harmonic mean (and errors in robust's max)"),
        PolicyParameter("rebufferPenalty", default: "4.3", "QoE lost per second of rebuffering"),
        PolicyParameter("smoothnessPenalty", default: "1", "weight of |Δbitrate| in Mbit/s"),
        PolicyParameter("timing", default: "total", "sample over total (latency included, Pensieve) or download"),
        PolicyParameter("planningSizeOffset", default: "0", "plan from sizes this many segments ahead (Pensieve 1)"),
    ]

    static let mpc = PolicyDescriptor(
        name: "mpc", summary: "MPC: 5-segment look-ahead on the harmonic-mean throughput (Yin et al. 2015)",
        parameters: mpcParameters
    ) { arguments, _ in try makeMPC(arguments, robust: false) }

    static let robustMPC = PolicyDescriptor(
        name: "robust-mpc",
        summary: "RobustMPC: MPC with the prediction divided by 1 + max recent error (Yin et al. 2015)",
        parameters: mpcParameters
    ) { arguments, _ in try makeMPC(arguments, robust: true) }

    static func makeMPC(_ arguments: PolicyArguments, robust: Bool) throws -> MPCPolicy {
        let horizon = try arguments.count("horizon", default: 5)
        guard (1...10).contains(horizon) else { throw arguments.error("horizon must be 1 to 10 segments") }
        let window = try arguments.count("window", default: 5)
        guard window >= 1 else { throw arguments.error("window must be at least 1 sample") }
        let rebuffer = try arguments.number("rebufferPenalty", default: 4.3)
        let smoothness = try arguments.number("smoothnessPenalty", default: 1)
        guard rebuffer >= 0, smoothness >= 0 else { throw arguments.error("penalties must be ≥ 0") }
        let timingName = try arguments.choice("timing", default: "total", among: ["total", "download"])
        return MPCPolicy(
            robust: robust, horizon: horizon, window: window, rebufferPenalty: rebuffer, smoothnessPenalty: smoothness,
            timing: MPCPolicy.Timing(rawValue: timingName) ?? .total,
            planningSizeOffset: try arguments.count("planningSizeOffset", default: 0))
    }
}
