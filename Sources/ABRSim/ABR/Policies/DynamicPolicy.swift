/// dash.js's default ABR strategy, DYNAMIC (`AbrController._updateDynamicAbrStrategy`, `ABRRulesCollection.js`,
/// dash.js v5.1.1; reference-players.md §1.3–1.5).
///
/// - Mode: starts with the ThroughputRule; uses BolaRule (``BolaERule``) once the buffer reaches
///   `bufferTimeDefault` (18 s) and goes back to the ThroughputRule when it falls below half of it (9 s). dash.js
///   re-evaluates on every buffer-level metric; ABRSim samples the buffer at each decision, each progress report
///   and just before each finished segment is appended (where the buffer is lowest), which sees the same
///   crossings.
/// - ThroughputRule: highest variant ≤ 0.9 × the dual-EWMA estimate, only while the buffer is not empty (BUFFER_LOADED:
///   ≥ 0.3 s); otherwise no opinion.
/// - InsufficientBufferRule: skipped until 2 segments have loaded after the start or a seek; lowest when the buffer
///   is empty; otherwise the highest variant ≤ 0.7 × estimate × buffer / segment duration.
/// - Combination: the lowest variant any active rule asks for (all rules have DEFAULT priority, so
///   `getMinSwitchRequest` is the minimum); no opinion at all keeps the current variant (initially the highest
///   ≤ 1000 kbit/s). A BOLA download delay is applied as a `.wait` (BolaRule sets it on the scheduler directly).
/// - AbandonRequestsRule (``DashAbandonRule``) on every progress report, BolaRule's placeholder shrunk when it fires.
/// Not modelled: SwitchHistoryRule (on by default in dash.js; it only damps oscillation between two adjacent
/// variants) and DroppedFramesRule (off by default).
public final class DynamicPolicy: ABRPolicy {
    /// InsufficientBufferRule's `throughputSafetyFactor`.
    public static let insufficientBufferSafety = 0.7
    /// InsufficientBufferRule's `segmentIgnoreCount`.
    public static let insufficientBufferIgnoreCount = 2

    /// The BOLA machinery (also owns the shared throughput estimate).
    public let bola: BolaERule
    /// `bufferTimeDefault` (seconds): the switch-on level; switch-off is half of it.
    public let bufferTimeDefault: Double
    /// Safety factor of the ThroughputRule and the abandonment target.
    public let safety: Double
    /// Whether BolaRule is the active throughput/buffer rule now.
    @exclusivity(unchecked) public private(set) var usingBola = false
    /// Evaluated in place at every progress check (0.05 s of each download): unchecked exclusivity, since the rule
    /// calls nothing that reaches this policy and a policy runs on its simulation's one thread.
    @exclusivity(unchecked) private var abandonRule: DashAbandonRule?
    @exclusivity(unchecked) private var current: Int?
    @exclusivity(unchecked) private var segmentsLoaded = 0
    @exclusivity(unchecked) private var requestedSegment = 0

    /// DYNAMIC with dash.js's defaults unless given.
    public init(
        bufferTimeDefault: Double = DashDefaults.bufferTimeDefault, safety: Double = DashDefaults.bandwidthSafetyFactor,
        abandon: Bool = DashParameters.abandon.defaultValue
    ) {
        self.bufferTimeDefault = bufferTimeDefault
        self.safety = safety
        bola = BolaERule(bufferTimeDefault: bufferTimeDefault, safety: safety)
        abandonRule = abandon ? DashAbandonRule(bufferTimeDefault: bufferTimeDefault, safety: safety) : nil
    }

    /// Applies the hysteresis to a buffer level (seconds).
    func observeBuffer(_ seconds: Double) {
        usingBola = seconds >= (usingBola ? 0.5 * bufferTimeDefault : bufferTimeDefault)
    }

    /// ThroughputRule: highest ≤ safety × estimate while the buffer is loaded; `nil` = no change.
    func throughputRule(_ context: ABRContext) -> Int? {
        guard bola.estimator.hasEnoughData, !DashDefaults.isBufferEmpty(context) else { return nil }
        return bola.throughputQuality(context)
    }

    /// InsufficientBufferRule: `nil` while ignoring the first segments after start or seek.
    func insufficientBufferRule(_ context: ABRContext) -> Int? {
        guard segmentsLoaded >= Self.insufficientBufferIgnoreCount else { return nil }
        if DashDefaults.isBufferEmpty(context) { return 0 }
        let content = context.content
        let duration = content.segmentDurations[min(context.segmentIndex, content.segmentCount - 1)]
        let cap = bola.estimator.estimate * Self.insufficientBufferSafety * context.bufferSeconds / duration
        return highestVariant(atMost: cap, in: content, upTo: context.maxVariant)
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        if context.isAfterSeek { segmentsLoaded = 0 }
        observeBuffer(context.bufferSeconds)
        var primary: Int?
        if usingBola {
            switch bola.decide(context) {
            case .wait(let seconds): return .wait(seconds: seconds)
            case .variant(let quality): primary = quality
            }
        } else {
            primary = throughputRule(context)
        }
        let votes = [primary, insufficientBufferRule(context)].compactMap { $0 }
        let chosen = min(votes.min() ?? current ?? DashDefaults.initialVariant(context), context.maxVariant)
        current = chosen
        requestedSegment = context.segmentIndex
        bola.noteRequest(context)
        return .variant(chosen)
    }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        bola.downloadFinished(sample, context: context)
        segmentsLoaded += 1
        let content = context.content
        let duration = content.segmentDurations[min(requestedSegment, content.segmentCount - 1)]
        observeBuffer(max(0, context.bufferSeconds - duration))
    }

    public var progressCheckInterval: Double? { abandonRule?.checkInterval }

    public func progressOutlook(in window: ProgressWindow) -> ProgressOutlook {
        let switchesMode =
            usingBola ? window.bufferLow < 0.5 * bufferTimeDefault : window.bufferHigh >= bufferTimeDefault
        if switchesMode || bola.mayResetPlaceholder(in: window) { return .mayAct }
        return abandonRule?.outlook(in: window) ?? .idle
    }

    public func downloadProgress(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision {
        bola.noteBufferState(context)
        observeBuffer(context.bufferSeconds)
        // Evaluated in place: copying the rule out and back would copy its state at every check.
        guard let decision = abandonRule?.evaluate(progress, context: context) else { return .keepGoing }
        if case .abandon(let quality) = decision {
            current = quality
            bola.abandoned(switchingTo: quality, context: context)
        }
        return decision
    }
}

extension BuiltInPolicies {
    static let dynamic = PolicyDescriptor(
        name: "dynamic",
        summary: "dash.js DYNAMIC: throughput rule below 18 s of buffer, BOLA-E above (9 s hysteresis), min with "
            + "InsufficientBufferRule, AbandonRequestsRule",
        parameters: [DashParameters.dynamicBufferTime, DashParameters.safety, DashParameters.abandon]
    ) { arguments, _ in
        DynamicPolicy(
            bufferTimeDefault: try arguments.value(DashParameters.dynamicBufferTime),
            safety: try arguments.value(DashParameters.safety), abandon: try arguments.value(DashParameters.abandon))
    }
}
