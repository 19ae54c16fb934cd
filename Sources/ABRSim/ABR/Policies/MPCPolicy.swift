/// Model predictive control: MPC and RobustMPC (Yin, Jindal, Sekar, Sinopoli, "A Control-Theoretic Approach for
/// Dynamic Adaptive Video Streaming over HTTP", SIGCOMM 2015), as reimplemented in Pensieve's `test/mpc.py`
/// (hongzimao/pensieve; `reference-simulators.md`).
///
/// After each download the policy records its throughput in MB/s, `bytes / milliseconds / 1000` as mpc.py
/// computes it, where the milliseconds are the transfer's plus, with `timing` `.includingLatency` (Pensieve's), the request
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
    /// Whether samples include the request latency (`.includingLatency`, Pensieve's and MPC's simulators).
    public let timing: SampleTiming
    /// Segments between the one fetched and the first one planned from (0; 1 under the `pensieve` profile).
    public let planningSizeOffset: Int

    private var samplesMBps: [Double] = []
    private var errors: [Double] = []
    private var lastHarmonicMean: Double?
    private let planner = MPCPlanner()

    /// An MPC policy; `horizon` and `window` ≥ 1, penalties ≥ 0, `planningSizeOffset` ≥ 0.
    public init(
        robust: Bool, horizon: Int = Parameters.horizon.defaultValue,
        window: Int = Parameters.window.defaultValue,
        rebufferPenalty: Double = Parameters.rebufferPenalty.defaultValue,
        smoothnessPenalty: Double = Parameters.smoothnessPenalty.defaultValue,
        timing: SampleTiming = Parameters.timing.defaultValue,
        planningSizeOffset: Int = Parameters.planningSizeOffset.defaultValue
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
        if timing == .includingLatency { milliseconds += (sample.firstByteTime - sample.requestTime) * 1000 }
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

extension MPCPolicy {
    /// The parameters of `mpc` and `robust-mpc`, with the defaults of Yin et al. 2015 and Pensieve's `test/mpc.py`.
    public enum Parameters {
        public static let horizon = Parameter.count(
            "horizon", default: 5, in: 1...10, unit: "segments", source: "Yin et al. 2015 (MPC_FUTURE_CHUNK_COUNT)",
            "segments planned ahead")
        public static let window = Parameter.count(
            "window", default: 5, in: 1...PolicyArguments.maximumCount, unit: "samples",
            source: "Pensieve mpc.py (past 5)",
            "samples in the harmonic mean (and errors in robust's max)")
        public static let rebufferPenalty = Parameter.number(
            "rebufferPenalty", default: 4.3, in: .nonNegative, source: "Pensieve mpc.py REBUF_PENALTY",
            "QoE lost per second of rebuffering")
        public static let smoothnessPenalty = Parameter.number(
            "smoothnessPenalty", default: 1, in: .nonNegative, source: "Pensieve mpc.py SMOOTH_PENALTY",
            "weight of |Δbitrate| in Mbit/s")
        public static let timing = Parameter.choice(
            "timing", default: SampleTiming.includingLatency, source: "Pensieve's simulator (delay includes latency)",
            "sample over total (latency included) or download")
        public static let planningSizeOffset = Parameter.count(
            "planningSizeOffset", default: 0, unit: "segments", source: "0 = right; Pensieve's code reads 1 ahead",
            "plan from sizes this many segments ahead")

        public static let all: [any DeclaredParameter] = [
            horizon, window, rebufferPenalty, smoothnessPenalty, timing, planningSizeOffset,
        ]
    }
}

extension BuiltInPolicies {
    static let mpc = PolicyDescriptor(
        name: "mpc", summary: "MPC: 5-segment look-ahead on the harmonic-mean throughput (Yin et al. 2015)",
        parameters: MPCPolicy.Parameters.all
    ) { arguments, _ in try makeMPC(arguments, robust: false) }

    static let robustMPC = PolicyDescriptor(
        name: "robust-mpc",
        summary: "RobustMPC: MPC with the prediction divided by 1 + max recent error (Yin et al. 2015)",
        parameters: MPCPolicy.Parameters.all
    ) { arguments, _ in try makeMPC(arguments, robust: true) }

    static func makeMPC(_ arguments: PolicyArguments, robust: Bool) throws -> MPCPolicy {
        typealias P = MPCPolicy.Parameters
        return MPCPolicy(
            robust: robust, horizon: try arguments.value(P.horizon), window: try arguments.value(P.window),
            rebufferPenalty: try arguments.value(P.rebufferPenalty),
            smoothnessPenalty: try arguments.value(P.smoothnessPenalty), timing: try arguments.value(P.timing),
            planningSizeOffset: try arguments.value(P.planningSizeOffset))
    }
}
