#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// dash.js's L2A-LL rule (Learn2Adapt-LowLatency; Karagkioules, Mekuria, Griffioen, Wagenaar, "Online learning for
/// low-latency adaptive streaming", MMSys 2020), after dash.js v5.1.1 (`ccf3b95`) `src/streaming/rules/abr/L2ARule.js`:
/// online convex optimisation of a probability vector w over the ladder, with a Lagrangian multiplier Q that tracks
/// the buffer's displacement. Registered as `l2a-ll`.
///
/// Constants: horizon H (4), VL = H^0.99, step α = max(H, VL·√H), REACT (2), target buffer B_target (1.5 s).
/// - STARTUP: before any throughput sample, the current variant (dash.js's initial: highest ≤ 1000 kbit/s). Then the
///   highest variant ≤ safety × the dual-EWMA estimate (`getSafeAverageThroughput`, kbit/s). Once a segment has
///   loaded and the buffer is at least B_target: STEADY, Q = VL, w_prev = one-hot on the variant just chosen.
/// - STEADY, with c the last sample (`getAverageThroughput(ARITHMETIC_MEAN, 1)`, kbit/s, at least 1), V the last
///   segment's duration, ρ the playback rate, r_i the ladder in kbit/s and b_i in bit/s:
///   sign = −1 from the first i with ρ·r_i > c on (it is not reset for higher i, as in dash.js);
///   w_i = w_prev,i + sign·(V / 2α)·(Q + VL)·ρ·r_i / c; w = the Euclidean projection of w on the simplex
///   (Chen & Ye 2011, as `euclideanProjection`); Δ = w − w_prev; w_prev = w;
///   Q = max(0, Q − V + V·ρ·(b·w_prev + b·Δ) / c); the choice is argmin_i |b_i − b·w| (first on ties); a choice above
///   the current variant drops to current + 1 when b_(current+1) ≤ c; if r_choice ≥ c, Q = REACT·max(VL, Q).
///   dash.js divides bit/s by kbit/s in the Q update and the cautious-ascent test (`rep.bandwidth` against a kbit/s
///   throughput); ABRSim keeps dash.js's arithmetic, so that test almost never holds and Q grows by ×1000 of the
///   paper's. A seek goes back to STARTUP.
/// - Live inputs: L2A reads neither latency nor target latency (dash.js's rule does not), so it behaves the same
///   for live and VOD; ρ is ``ABRContext/playbackRate``, 1 while paused (a media element keeps its rate).
/// - Throughput: ``DashLowLatencyEstimator`` (moof-based low-latency calculation for chunked samples, as dash.js
///   with L2A on a low-latency stream). The ladder is the variants up to ``ABRContext/maxVariant``; when that changes,
///   w_prev restarts one-hot on the current variant. Not modelled: dash.js's AbandonRequestsRule (L2A's own rule set
///   has no abandonment here) and audio.
public final class L2ALLPolicy: ABRPolicy {
    /// L2A's states (`L2A_STATE_*`).
    public enum State: Equatable, Sendable { case oneBitrate, startup, steady }

    /// The optimisation horizon H.
    public let horizon: Double
    /// The over-estimation reaction factor REACT.
    public let react: Double
    /// B_target, seconds.
    public let targetBuffer: Double
    /// Safety factor on the startup estimate.
    public let safety: Double
    /// The throughput estimate.
    public private(set) var estimator: DashLowLatencyEstimator
    /// The state.
    public private(set) var state = State.startup
    /// The Lagrangian multiplier Q.
    public private(set) var q = 0.0
    /// The probability vector w after the last STEADY decision (`prev_w`).
    public private(set) var weights: [Double] = []
    /// The variant of the last decision.
    public private(set) var current: Int?
    private var lastSegmentDuration: Double?
    private var requestedSegment = 0

    /// VL = H^0.99, the cautiousness parameter.
    public var vl: Double { pow(horizon, 0.99) }
    /// α = max(H, VL·√H), the step size.
    public var alpha: Double { max(horizon, vl * horizon.squareRoot()) }

    /// L2A-LL with dash.js's defaults unless given.
    public init(
        horizon: Double = Parameters.horizon.defaultValue, react: Double = Parameters.react.defaultValue,
        targetBuffer: Double = Parameters.targetBuffer.defaultValue,
        safety: Double = DashDefaults.bandwidthSafetyFactor,
        throughputMode: DashLowLatencyThroughput.Mode = LowLatencyParameters.throughputMode.defaultValue
    ) {
        self.horizon = horizon
        self.react = react
        self.targetBuffer = targetBuffer
        self.safety = safety
        estimator = DashLowLatencyEstimator(calculation: DashLowLatencyThroughput(mode: throughputMode))
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let top = context.maxVariant
        if context.content.variantCount == 1 { state = .oneBitrate }
        if context.isAfterSeek, state != .oneBitrate {
            state = .startup
            lastSegmentDuration = nil
        }
        requestedSegment = context.segmentIndex
        let choice: Int
        switch state {
        case .oneBitrate:
            choice = 0
        case .startup:
            choice = startup(context)
        case .steady:
            choice = steady(context, top: top)
        }
        current = min(choice, top)
        return .variant(current!)
    }

    /// `_handleStartupState`.
    private func startup(_ context: ABRContext) -> Int {
        guard estimator.hasEnoughData else {
            return min(current ?? DashDefaults.initialVariant(context), context.maxVariant)
        }
        let choice = LowLatencyParameters.optimalVariant(
            forKbps: estimator.estimate / 1000 * safety, context: context)
        if lastSegmentDuration != nil, context.bufferSeconds >= targetBuffer {
            state = .steady
            q = vl
            weights = (0...context.maxVariant).map { $0 == choice ? 1 : 0 }
        }
        return choice
    }

    /// `_handleSteadyState`.
    private func steady(_ context: ABRContext, top: Int) -> Int {
        let variants = context.content.variants[0...top]
        let kbps = variants.map { $0.bitrateBps / 1000 }
        let bps = variants.map(\.bitrateBps)
        let currentVariant = min(current ?? 0, top)
        if weights.count != bps.count { weights = (0...top).map { $0 == currentVariant ? 1 : 0 } }
        let throughput = max(estimator.lastSampleKbps ?? 1, 1)
        let v = lastSegmentDuration ?? context.content.segmentDurations[context.segmentIndex]
        let rate = context.playbackRate > 0 ? context.playbackRate : 1
        let step = L2AStep(
            kbps: kbps, bps: bps, previous: weights, q: q, throughputKbps: throughput, segmentDuration: v,
            playbackRate: rate, current: currentVariant, vl: vl, alpha: alpha, react: react)
        weights = step.weights
        q = step.q
        return step.choice
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        estimator.add(sample)
        let segments = context.content.segmentDurations
        lastSegmentDuration = segments[min(requestedSegment, segments.count - 1)]
    }
}

extension L2ALLPolicy {
    /// `l2a-ll`'s parameters (`throughputMode` is shared with `lolp`: ``LowLatencyParameters``).
    public enum Parameters {
        public static let horizon = Parameter.number(
            "horizon", default: 4, source: "dash.js L2ARule.js HORIZON",
            "optimisation horizon H: VL = H^0.99, step α = max(H, VL·√H)")
        public static let react = Parameter.number(
            "react", default: 2, source: "dash.js L2ARule.js REACT",
            "Q is set to this × max(VL, Q) after over-estimation")
        public static let targetBuffer = Parameter.number(
            "targetBuffer", default: 1.5, unit: "s", source: "dash.js L2ARule.js B_target",
            "buffer level at which the startup phase ends")
    }
}

extension BuiltInPolicies {
    static let l2aLL = PolicyDescriptor(
        name: "l2a-ll",
        summary: "dash.js L2A-LL (Learn2Adapt-LowLatency: online learning of a bitrate distribution, Lagrangian buffer "
            + "control) on the low-latency throughput calculation",
        parameters: [
            L2ALLPolicy.Parameters.horizon, L2ALLPolicy.Parameters.react, L2ALLPolicy.Parameters.targetBuffer,
            DashParameters.safety, LowLatencyParameters.throughputMode,
        ]
    ) { arguments, _ in
        L2ALLPolicy(
            horizon: try arguments.value(L2ALLPolicy.Parameters.horizon),
            react: try arguments.value(L2ALLPolicy.Parameters.react),
            targetBuffer: try arguments.value(L2ALLPolicy.Parameters.targetBuffer),
            safety: try arguments.value(DashParameters.safety),
            throughputMode: try arguments.value(LowLatencyParameters.throughputMode))
    }
}
