/// The descriptors of the built-in policies, in the order `abrsim policies` lists them. Each policy declares its
/// parameters once, beside its code, as typed ``Parameter`` statics.
enum BuiltInPolicies {
    static var all: [PolicyDescriptor] {
        [
            fixed, throughput, bba, mpc, robustMPC, bola, bolaE, dynamic, l2aLL, lolp, festive, exoplayer, hlsjs, shaka,
            optimal,
            external,
        ]
    }

    static let fixed = PolicyDescriptor(
        name: "fixed", summary: "always the same variant (baseline for hand-checked physics)",
        parameters: [FixedPolicy.Parameters.variant]
    ) { arguments, _ in
        FixedPolicy(variant: try arguments.value(FixedPolicy.Parameters.variant))
    }

    static let throughput = PolicyDescriptor(
        name: "throughput",
        summary: "highest variant ≤ safety × throughput estimate (dash.js ThroughputRule)",
        parameters: [ThroughputPolicy.Parameters.safety, EstimatorKind.parameter, EstimatorKind.window]
    ) { arguments, _ in
        ThroughputPolicy(
            safety: try arguments.value(ThroughputPolicy.Parameters.safety),
            estimator: try EstimatorKind.make(arguments))
    }
}

extension FixedPolicy {
    /// `fixed`'s parameter.
    public enum Parameters {
        public static let variant = Parameter.variant(
            "variant", default: 0, source: "the lowest rung", "the variant of every segment, 0 = lowest")
    }
}

extension ThroughputPolicy {
    /// `throughput`'s parameters.
    public enum Parameters {
        public static let safety = Parameter.number(
            "safety", default: DashDefaults.bandwidthSafetyFactor,
            source: "dash.js abr.throughput.bandwidthSafetyFactor",
            "fraction of the estimate a variant may use")
    }
}

/// The `estimator` parameter of rate-based policies: which ``ThroughputEstimator`` they use.
enum EstimatorKind: String, ParameterChoice {
    /// dash.js's dual EWMA, half-lives 3 and 8 s.
    case ewma
    /// Harmonic mean of the last `window` samples.
    case harmonic
    /// The last sample alone.
    case last
    /// hls.js's dual EWMA, 3/9 s.
    case hlsjs
    /// Shaka's dual EWMA, 2/5 s.
    case shaka
    /// ExoPlayer's sliding weighted median.
    case exoplayer
    /// dash.js's low-latency calculation (moof parsing) under its dual EWMA, for chunked transfer.
    case dashjsLowLatency = "dashjs-ll"
    /// hls.js's TTFB-aware dual EWMA, one LL-HLS part load per chunk.
    case hlsjsLowLatency = "hlsjs-ll"

    static let parameter = Parameter.choice(
        "estimator", default: EstimatorKind.ewma, source: "dash.js abr.throughput.averageCalculationMode (EWMA)",
        "throughput estimator: ewma is dash.js's dual EWMA 3/8 s")
    static let window = Parameter.count(
        "window", default: 5, in: 1...PolicyArguments.maximumCount, unit: "samples",
        source: "MPC's harmonic mean (Yin et al. 2015)",
        "samples in the harmonic mean (estimator=harmonic)")

    /// The estimator the arguments choose.
    static func make(_ arguments: PolicyArguments) throws -> any ThroughputEstimator {
        switch try arguments.value(parameter) {
        case .ewma: DualEWMAEstimator.dashjs
        case .harmonic: HarmonicMeanEstimator(window: try arguments.value(window))
        case .last: LastSampleEstimator()
        case .hlsjs: DualEWMAEstimator.hlsjs
        case .shaka: DualEWMAEstimator.shaka
        case .exoplayer: SlidingPercentileEstimator()
        case .dashjsLowLatency: DashLowLatencyEstimator()
        case .hlsjsLowLatency: HlsJsTTFBEstimator()
        }
    }
}
