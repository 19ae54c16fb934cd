/// The descriptors of the built-in policies, in the order `abrsim policies` lists them.
enum BuiltInPolicies {
    static var all: [PolicyDescriptor] {
        [
            fixed, throughput, bba, mpc, robustMPC, bola, bolaE, dynamic, festive, exoplayer, hlsjs, shaka, optimal,
            external,
        ]
    }

    static let fixed = PolicyDescriptor(
        name: "fixed", summary: "always the same variant (baseline for hand-checked physics)",
        parameters: [PolicyParameter("variant", default: "0", "variant index, 0 = lowest")]
    ) { arguments, _ in
        FixedPolicy(variant: try arguments.count("variant", default: 0))
    }

    static let throughput = PolicyDescriptor(
        name: "throughput",
        summary: "highest variant ≤ safety × throughput estimate (dash.js ThroughputRule)",
        parameters: [
            PolicyParameter("safety", default: "0.9", "fraction of the estimate a variant may use (dash.js 0.9)"),
            PolicyParameter(
                "estimator", default: "ewma", "ewma (dash.js dual EWMA 3/8 s), harmonic, last, hlsjs, shaka, exoplayer"),
            PolicyParameter("window", default: "5", "samples in the harmonic mean"),
        ]
    ) { arguments, _ in
        let safety = try arguments.positive("safety", default: 0.9)
        let estimator = try EstimatorChoice.make(arguments)
        return ThroughputPolicy(safety: safety, estimator: estimator)
    }
}

/// The `estimator` parameter shared by rate-based policies.
enum EstimatorChoice {
    static let names = ["ewma", "harmonic", "last", "hlsjs", "shaka", "exoplayer"]

    static func make(_ arguments: PolicyArguments, default defaultName: String = "ewma") throws
        -> any ThroughputEstimator
    {
        let name = try arguments.choice("estimator", default: defaultName, among: names)
        switch name {
        case "harmonic": return HarmonicMeanEstimator(window: try max(1, arguments.count("window", default: 5)))
        case "last": return LastSampleEstimator()
        case "hlsjs": return DualEWMAEstimator.hlsjs
        case "shaka": return DualEWMAEstimator.shaka
        case "exoplayer": return SlidingPercentileEstimator()
        default: return DualEWMAEstimator.dashjs
        }
    }
}
