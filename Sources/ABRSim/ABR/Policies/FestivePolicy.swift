#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// FESTIVE (Jiang, Sekar, Zhang, "Improving Fairness, Efficiency, and Stability in HTTP-based Adaptive Video
/// Streaming with FESTIVE", CoNEXT 2012), as the widely copied port in Pensieve's dash.js player (and the
/// TypeScript ports of it) runs it, with the paper's time-based stability window and randomised scheduling added
/// (reference-literature.md §1.1).
///
/// Per segment:
/// 1. Estimate w = harmonic mean of the last `window` download throughputs (5 in the port; the paper uses 20).
/// 2. Target b_target = highest variant ≤ `safety` (0.85, the port's "diminuation factor") × w.
/// 3. Gradual switching to a reference b_ref: if b_target > b_cur, count one more "wants up" segment and step up
///    one level once that count exceeds b_cur's index (level i needs i + 1 consecutive such segments; the port's
///    `switchUpThreshold[i] = i`); if b_target < b_cur, step down one level at once (no waiting; one level per
///    segment, as the port — the paper's pseudo-code is the same); otherwise stay and reset the count.
/// 4. Delayed update: if b_ref ≠ b_cur, score each as stability + α·efficiency with
///    stability = 2^n (n = switches in the last `stabilitySeconds` = 20 s of decisions, the paper's k; the port
///    counts the last 5 segments, the same span for its 4 s segments), plus one for the candidate that switches,
///    and efficiency = |b / min(w, b_ref) − 1| (bitrates of the candidate and of b_ref); α = 12. Switch to b_ref
///    only if its score is strictly lower (ties keep b_cur).
/// 5. Randomised scheduling: before each segment, draw a target buffer uniformly in [T − δ, T] (T = `targetBuffer`,
///    default the player's forward-buffer target; δ = `spread`, default one segment duration), and wait until the
///    buffer has drained to it. The draw desynchronises the ON-OFF periods of players sharing a link; the paper
///    randomises around a nominal target, the range here stays under the player's own cap so no draw is wasted.
/// The first segment (no throughput sample yet) is fetched at the lowest variant, as in the port.
public final class FestivePolicy: ABRPolicy {
    /// Harmonic-mean window (samples).
    public let window: Int
    /// Fraction of the estimate the target may use.
    public let safety: Double
    /// Weight of the efficiency cost against the stability cost.
    public let alpha: Double
    /// Seconds of recent decisions whose switches count in the stability cost.
    public let stabilitySeconds: Double
    /// Nominal target buffer (seconds); `nil` = the player's forward-buffer target.
    public let targetBuffer: Double?
    /// Width (seconds) of the randomised target's range below the nominal; `nil` = one segment duration.
    public let spread: Double?
    private var estimator: HarmonicMeanEstimator
    private let random: RandomSource
    private var current: Int?
    private var switchUpCount = 0
    private var decisions: [(time: Double, variant: Int)] = []
    private var drawn: (segment: Int, target: Double)?

    /// FESTIVE with the port's defaults unless given; `random` supplies the target-buffer draws.
    public init(
        window: Int = Parameters.window.defaultValue, safety: Double = Parameters.safety.defaultValue,
        alpha: Double = Parameters.alpha.defaultValue,
        stabilitySeconds: Double = Parameters.stabilitySeconds.defaultValue,
        targetBuffer: Double? = nil, spread: Double? = nil, random: RandomSource
    ) {
        self.window = window
        self.safety = safety
        self.alpha = alpha
        self.stabilitySeconds = stabilitySeconds
        self.targetBuffer = targetBuffer
        self.spread = spread
        self.random = random
        estimator = HarmonicMeanEstimator(window: window)
    }

    /// The randomised target buffer (seconds) for the segment of `context`, drawn once per segment.
    public func scheduledTarget(_ context: ABRContext) -> Double {
        if let drawn, drawn.segment == context.segmentIndex { return drawn.target }
        let nominal = targetBuffer ?? context.bufferTargetSeconds
        let content = context.content
        let width = spread ?? content.segmentDurations[min(context.segmentIndex, content.segmentCount - 1)]
        let target = max(0, nominal - width * random.uniform())
        drawn = (context.segmentIndex, target)
        return target
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let target = scheduledTarget(context)
        if context.bufferSeconds > target {
            return waitForDrain(context.bufferSeconds - target, rate: context.playbackRate)
        }
        let quality = chooseVariant(context)
        current = quality
        decisions.append((context.time, quality))
        return .variant(quality)
    }

    /// Steps 1–4: the variant for the next segment (updates the switch-up count).
    func chooseVariant(_ context: ABRContext) -> Int {
        guard estimator.hasEnoughData else { return 0 }
        let w = estimator.estimate
        let bitrates = context.content.variants.map(\.bitrateBps)
        let target = highestVariant(atMost: safety * w, in: context.content, upTo: context.maxVariant)
        let now = min(current ?? 0, context.maxVariant)
        var reference = now
        if target > now {
            switchUpCount += 1
            if switchUpCount > now { reference = now + 1 }
        } else {
            switchUpCount = 0
            if target < now { reference = now - 1 }
        }
        guard reference != now else { return now }
        let switches = Double(recentSwitches(at: context.time))
        let base = min(w, bitrates[reference])
        let stayScore = pow(2, switches) + alpha * abs(bitrates[now] / base - 1)
        let moveScore = pow(2, switches + 1) + alpha * abs(bitrates[reference] / base - 1)
        guard moveScore < stayScore else { return now }
        if reference > now { switchUpCount = 0 }
        return reference
    }

    /// Switches among the decisions of the last ``stabilitySeconds`` (drops older ones, keeping one to compare).
    func recentSwitches(at time: Double) -> Int {
        let start = time - stabilitySeconds
        let firstRecent = decisions.firstIndex { $0.time > start } ?? decisions.count
        if firstRecent > 1 { decisions.removeFirst(firstRecent - 1) }
        var count = 0
        for i in decisions.indices.dropFirst() where decisions[i].time > start {
            if decisions[i].variant != decisions[i - 1].variant { count += 1 }
        }
        return count
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        estimator.add(sample)
    }
}

extension FestivePolicy {
    /// `festive`'s parameters.
    public enum Parameters {
        public static let window = Parameter.count(
            "window", default: 5, in: 1...PolicyArguments.maximumCount, unit: "samples",
            source: "Pensieve's dash.js FESTIVE port (the paper uses 20)", "samples in the harmonic mean")
        public static let safety = Parameter.number(
            "safety", default: 0.85, source: "the port's diminuation factor",
            "fraction of the estimate the target may use")
        public static let alpha = Parameter.number(
            "alpha", default: 12, in: .nonNegative, source: "Jiang et al. 2012", "weight of the efficiency cost")
        public static let stabilitySeconds = Parameter.number(
            "stabilitySeconds", default: 20, unit: "s", source: "Jiang et al. 2012 (k = 20)",
            "switches counted in the stability cost 2^n")
        public static let targetBuffer = Parameter.number(
            "targetBuffer", default: 0, in: .nonNegative, unit: "s", source: "the player's forward-buffer target",
            "nominal target buffer, 0 = the player's target")
        public static let spread = Parameter.number(
            "spread", default: 0, in: .nonNegative, unit: "s", source: "one segment duration",
            "target drawn from [target − spread, target], 0 = a segment")
    }
}

extension BuiltInPolicies {
    static let festive = PolicyDescriptor(
        name: "festive",
        summary: "FESTIVE: harmonic mean, gradual switching, delayed update, randomised target buffer (Jiang 2012)",
        parameters: [
            FestivePolicy.Parameters.window, FestivePolicy.Parameters.safety, FestivePolicy.Parameters.alpha,
            FestivePolicy.Parameters.stabilitySeconds, FestivePolicy.Parameters.targetBuffer,
            FestivePolicy.Parameters.spread,
        ]
    ) { arguments, environment in
        let target = try arguments.value(FestivePolicy.Parameters.targetBuffer)
        let spread = try arguments.value(FestivePolicy.Parameters.spread)
        return FestivePolicy(
            window: try arguments.value(FestivePolicy.Parameters.window),
            safety: try arguments.value(FestivePolicy.Parameters.safety),
            alpha: try arguments.value(FestivePolicy.Parameters.alpha),
            stabilitySeconds: try arguments.value(FestivePolicy.Parameters.stabilitySeconds),
            targetBuffer: target > 0 ? target : nil, spread: spread > 0 ? spread : nil,
            random: RandomSource(seed: environment.seed, stream: .policy(0xFE57, player: environment.playerIndex))
        )
    }
}
