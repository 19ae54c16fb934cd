/// dash.js's LoL+ rule (Bentaleb, Akcay, Lim, Begen, Zimmermann, "Catching the Moment with LoL+ in Twitch-Like
/// Low-Latency Live Streaming Platforms", IEEE TMM 2021), after dash.js v5.1.1 (`ccf3b95`)
/// `src/streaming/rules/abr/lolp/LoLpRule.js` with its QoE evaluator, weight selector and learning controller.
/// Registered as `lolp`.
///
/// Per decision: c = safety × the dual-EWMA estimate (`getSafeAverageThroughput`, kbit/s; before any sample the
/// current variant, initially the highest ≤ 1000 kbit/s); D the segment's duration; the per-segment NQoE
/// (``LiveNQoE``, set up afresh with D and the ladder's extremes, as dash.js does at every call) logs the current
/// bitrate with rebuffer max(0, TTFB of the last request − D) — dash.js's `tresponse − trequest` is the time to
/// the first byte — the latency and the rate; a new ``LoLpWeightSelector`` (target latency 1.5 s, minimum buffer
/// 0.3 s); then ``LoLpLearningController/nextVariant(throughputBps:latency:buffer:playbackRate:current:selector:)``.
///
/// Live inputs: the latency is ``ABRContext/liveLatencySeconds``, 0 when `nil` (VOD), which is what dash.js does
/// when `getCurrentLiveLatency` gives nothing; with latency 0 the latency terms vanish and LoL+ runs on throughput,
/// buffer and switches alone. The target latency of the selector is the rule's own constant (dash.js ignores the
/// player's live delay here), so ``ABRContext/targetLatencySeconds`` is not read. The rate is
/// ``ABRContext/playbackRate``, 1 while paused. Throughput: ``DashLowLatencyEstimator``. The neurons are the
/// variants up to ``ABRContext/maxVariant`` at the first decision. Not modelled: the abandonment hold-off
/// (`ABANDON_LOAD`) and audio.
public final class LoLpPolicy: ABRPolicy {
    /// The selector's latency target, seconds.
    public let targetLatency: Double
    /// The selector's minimum buffer, seconds.
    public let bufferMin: Double
    /// Safety factor on the estimate.
    public let safety: Double
    /// The throughput estimate.
    public private(set) var estimator: DashLowLatencyEstimator
    /// The learning controller.
    public private(set) var controller: LoLpLearningController
    /// The NQoE logged at the last decision (one segment: dash.js sets the evaluator up afresh each time).
    public private(set) var qoe: LiveNQoE?
    /// The variant of the last decision.
    public private(set) var current: Int?

    /// LoL+ with dash.js's defaults unless given; `random` draws the initial k-means++ centres.
    public init(
        random: RandomSource, targetLatency: Double = Parameters.targetLatency.defaultValue,
        bufferMin: Double = Parameters.bufferMin.defaultValue, safety: Double = DashDefaults.bandwidthSafetyFactor,
        throughputMode: DashLowLatencyThroughput.Mode = LowLatencyParameters.throughputMode.defaultValue
    ) {
        self.targetLatency = targetLatency
        self.bufferMin = bufferMin
        self.safety = safety
        estimator = DashLowLatencyEstimator(calculation: DashLowLatencyThroughput(mode: throughputMode))
        controller = LoLpLearningController(random: random)
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let top = context.maxVariant
        let start = min(current ?? DashDefaults.initialVariant(context), top)
        guard estimator.hasEnoughData, let last = context.history.samples.last else {
            current = start
            return .variant(start)
        }
        let throughputKbps = estimator.estimate / 1000 * safety
        let bitrates = context.content.variants[0...top].map(\.bitrateBps)
        let segmentDuration = context.content.segmentDurations[context.segmentIndex]
        let maxKbps = bitrates.max()! / 1000
        let minKbps = bitrates.min()! / 1000
        let latency = context.liveLatencySeconds ?? 0
        let rate = context.playbackRate > 0 ? context.playbackRate : 1
        let ttfb = last.firstByteTime - last.requestTime
        var evaluator = LiveNQoE(
            segmentDurationSeconds: segmentDuration, maxBitrateKbps: maxKbps, minBitrateKbps: minKbps)
        evaluator.logSegmentMetrics(
            bitrateKbps: context.content.variants[start].bitrateBps / 1000,
            rebufferSeconds: ttfb > segmentDuration ? ttfb - segmentDuration : 0, latencySeconds: latency,
            playbackSpeed: rate)
        qoe = evaluator
        var selector = LoLpWeightSelector(
            targetLatency: targetLatency, bufferMin: bufferMin, segmentDuration: segmentDuration,
            maxBitrateKbps: maxKbps, minBitrateKbps: minKbps)
        controller.prepare(bitratesBps: bitrates)
        let choice = controller.nextVariant(
            throughputBps: throughputKbps * 1000, latency: latency, buffer: context.bufferSeconds, playbackRate: rate,
            current: start, selector: &selector)
        current = min(choice, top)
        return .variant(current!)
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) { estimator.add(sample) }
}

extension LoLpPolicy {
    /// `lolp`'s parameters (`safety` and `throughputMode` are shared with the other dash.js rules).
    public enum Parameters {
        public static let targetLatency = Parameter.number(
            "targetLatency", default: 1.5, unit: "s", source: "dash.js LoLpRule.js DWS_TARGET_LATENCY",
            "latency target of the weight selector's constraint")
        public static let bufferMin = Parameter.number(
            "bufferMin", default: 0.3, in: .nonNegative, unit: "s", source: "dash.js LoLpRule.js DWS_BUFFER_MIN",
            "least buffer after a download: below it LoL+ shifts down and raises throughput weights")
    }
}

extension BuiltInPolicies {
    static let lolp = PolicyDescriptor(
        name: "lolp",
        summary: "dash.js LoL+ (self-organising map with dynamic NQoE weight selection) on the low-latency "
            + "throughput calculation",
        parameters: [
            LoLpPolicy.Parameters.targetLatency, LoLpPolicy.Parameters.bufferMin, DashParameters.safety,
            LowLatencyParameters.throughputMode,
        ]
    ) { arguments, environment in
        LoLpPolicy(
            random: RandomSource(seed: environment.seed, stream: .policy(0x101F, player: environment.playerIndex)),
            targetLatency: try arguments.value(LoLpPolicy.Parameters.targetLatency),
            bufferMin: try arguments.value(LoLpPolicy.Parameters.bufferMin),
            safety: try arguments.value(DashParameters.safety),
            throughputMode: try arguments.value(LowLatencyParameters.throughputMode))
    }
}
