#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machinery of dash.js's BolaRule (`src/streaming/rules/abr/BolaRule.js`, v5.1.1; BOLA-E of Spiteri,
/// Sitaraman, Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the DASH Reference Player",
/// MMSys 2018; reference-players.md §1.6), shared by ``BolaEPolicy`` and ``DynamicPolicy``.
///
/// - Utilities u_i = ln(b_i/b_0) + 1; bufferTime = max(bufferTimeDefault, 10 + 2·N) for N variants;
///   gp = (u_max − 1)/(bufferTime/10 − 1), Vp = 10/gp (lowest at 10 s of effective buffer, top at bufferTime).
/// - States: ONE_BITRATE (one variant: always it), STARTUP (throughput rule: highest ≤ 0.9 × dual-EWMA estimate;
///   placeholder = max(0, minBufferLevel(q) − buffer); STEADY once the buffer holds the last segment's duration),
///   STEADY (argmax_i (Vp·(u_i + gp) − (buffer + placeholder))/b_i, ties to the higher index; BOLA-O; delay).
/// - Placeholder buffer: + seconds since the last download finished (or since the last call) at each STEADY
///   decision; × 0.99 and capped so buffer-at-request + placeholder ≤ Vp·(u_q + gp) after each download; 0 when the
///   buffer empties (BUFFER_EMPTY: below 0.3 s or stalled); back to STARTUP with placeholder 0 after a seek
///   (`ABRContext.isAfterSeek`); shrunk on abandonment to where BOLA just picks the new variant.
/// - Delay: max(0, effective buffer − Vp·(u_q + gp)), taken from the placeholder first; the rest is returned as
///   `.wait` unless q is the top allowed variant.
/// Before the first throughput sample dash.js makes no BOLA decision and the player starts at the highest variant
/// ≤ 1000 kbit/s (`DEFAULT_VIDEO_BITRATE`); so does this. Not modelled: fast-switch replacement segments (the
/// player never replaces buffered media). Throughput: the dash.js v5 dual EWMA (half-lives 3 and 8 at 1.5 weight
/// units per second of download, latency excluded).
public final class BolaERule {
    /// The rule's state (BolaRule's `BOLA_STATE_*`).
    public enum State: Equatable, Sendable {
        case oneBitrate, startup, steady
    }

    /// dash.js `MINIMUM_BUFFER_S`.
    public static let minimumBufferSeconds = 10.0
    /// dash.js `MINIMUM_BUFFER_PER_BITRATE_LEVEL_S`.
    public static let minimumBufferPerLevelSeconds = 2.0
    /// dash.js `PLACEHOLDER_BUFFER_DECAY`.
    public static let placeholderDecay = 0.99

    /// `bufferTimeDefault` (seconds).
    public let bufferTimeDefault: Double
    /// Safety factor on the throughput estimate (`bandwidthSafetyFactor`).
    public let safety: Double
    // The rule's state is read and updated at every decision and progress check: unchecked exclusivity, since a
    // rule belongs to one policy of one player, runs on its simulation's one thread and calls nothing that
    // reaches these properties while it accesses them.
    /// The throughput estimate (dash.js dual EWMA), fed by ``downloadFinished(_:context:)``.
    @exclusivity(unchecked) public private(set) var estimator = DualEWMAEstimator.dashjs
    /// The current state (set on the first decision).
    @exclusivity(unchecked) public private(set) var state = State.startup
    /// The placeholder (virtual) buffer, seconds.
    @exclusivity(unchecked) public internal(set) var placeholder = 0.0
    /// Utilities u_i = ln(b_i/b_0) + 1.
    @exclusivity(unchecked) public private(set) var utilities: [Double] = []
    /// gp (dimensionless).
    @exclusivity(unchecked) public private(set) var gp = 0.0
    /// Vp (seconds).
    @exclusivity(unchecked) public private(set) var vp = 0.0
    /// The variant of the last downloaded segment (or the last choice).
    @exclusivity(unchecked) public private(set) var lastQuality = 0
    @exclusivity(unchecked) private var bitrates: [Double] = []
    @exclusivity(unchecked) private var content: ObjectIdentifier?
    @exclusivity(unchecked) private var lastCallTime: Double?
    @exclusivity(unchecked) private var lastFinishTime: Double?
    @exclusivity(unchecked) private var lastSegmentDuration: Double?
    @exclusivity(unchecked) private var requestedSegment = 0
    @exclusivity(unchecked) private var bufferAtRequest = 0.0

    /// The rule with dash.js's defaults unless given.
    public init(
        bufferTimeDefault: Double = DashDefaults.bufferTimeDefault, safety: Double = DashDefaults.bandwidthSafetyFactor
    ) {
        self.bufferTimeDefault = bufferTimeDefault
        self.safety = safety
    }

    /// Computes utilities, gp and Vp for the content's ladder (once per content).
    func prepare(_ context: ABRContext) {
        let id = ObjectIdentifier(context.content)
        guard content != id else { return }
        content = id
        bitrates = context.content.variants.map(\.bitrateBps)
        utilities = bitrates.map { log($0 / bitrates[0]) + 1 }
        guard bitrates.count > 1 else {
            state = .oneBitrate
            return
        }
        let bufferTime = max(
            bufferTimeDefault, Self.minimumBufferSeconds + Self.minimumBufferPerLevelSeconds * Double(bitrates.count))
        gp = (utilities[utilities.count - 1] - 1) / (bufferTime / Self.minimumBufferSeconds - 1)
        vp = Self.minimumBufferSeconds / gp
    }

    /// The variant BOLA scores best at `effectiveBuffer` seconds, among `0...top` (ties go to the higher one).
    public func qualityFromBuffer(_ effectiveBuffer: Double, upTo top: Int) -> Int {
        var quality = 0
        var best = -Double.infinity
        for i in 0...top {
            let score = (vp * (utilities[i] + gp) - effectiveBuffer) / bitrates[i]
            if score >= best {
                best = score
                quality = i
            }
        }
        return quality
    }

    /// The effective buffer above which BOLA would rather wait than download `quality` (`maxBufferLevelForQuality`).
    public func maxBufferLevel(for quality: Int) -> Double { vp * (utilities[quality] + gp) }

    /// The least effective buffer at which BOLA prefers `quality` to every lower variant
    /// (`minBufferLevelForQuality`): max over i < q of Vp·(gp + (b_q·u_i − b_i·u_q)/(b_q − b_i)), at least 0.
    public func minBufferLevel(for quality: Int) -> Double {
        var level = 0.0
        for i in stride(from: quality - 1, through: 0, by: -1) where utilities[i] < utilities[quality] {
            let bq = bitrates[quality]
            let bi = bitrates[i]
            level = max(level, vp * (gp + (bq * utilities[i] - bi * utilities[quality]) / (bq - bi)))
        }
        return level
    }

    /// The highest variant ≤ safety × the throughput estimate (`getQualityForBitrate(safeThroughput)`).
    public func throughputQuality(_ context: ABRContext) -> Int {
        highestVariant(atMost: safety * estimator.estimate, in: context.content, upTo: context.maxVariant)
    }

    /// Whether ``noteBufferState(_:)`` may change the placeholder at a check of `window`.
    func mayResetPlaceholder(in window: ProgressWindow) -> Bool {
        state == .steady && placeholder != 0
            && (window.bufferLow < DashDefaults.stallThreshold || window.context.playbackState == .buffering)
    }

    /// Resets the placeholder when the buffer has emptied (dash.js `onBufferEmpty`, STEADY only).
    func noteBufferState(_ context: ABRContext) {
        if state == .steady, DashDefaults.isBufferEmpty(context) { placeholder = 0 }
    }

    /// BolaRule's decision for `context`: a variant, or a wait (the download delay).
    public func decide(_ context: ABRContext) -> ABRDecision {
        prepare(context)
        if state == .oneBitrate { return .variant(0) }
        if context.isAfterSeek {
            state = .startup
            placeholder = 0
            lastFinishTime = nil
            lastSegmentDuration = nil
        }
        noteBufferState(context)
        let top = context.maxVariant
        let buffer = context.bufferSeconds
        guard estimator.hasEnoughData else { return request(DashDefaults.initialVariant(context), context) }
        switch state {
        case .oneBitrate:
            return .variant(0)
        case .startup:
            let quality = throughputQuality(context)
            placeholder = max(0, minBufferLevel(for: quality) - buffer)
            lastQuality = quality
            if let lastSegmentDuration, buffer >= lastSegmentDuration { state = .steady }
            return request(quality, context)
        case .steady:
            updatePlaceholder(now: context.time)
            var quality = qualityFromBuffer(buffer + placeholder, upTo: top)
            // BOLA-O: do not climb above both the current and the sustainable variant.
            let sustainable = throughputQuality(context)
            if quality > lastQuality, quality > sustainable { quality = min(max(sustainable, lastQuality), top) }
            var delay = max(0, buffer + placeholder - maxBufferLevel(for: quality))
            // Within rounding of the placeholder (a wait of exactly the last delay) counts as covered by it.
            if delay <= placeholder + SimulationTime.tolerance {
                placeholder = max(0, placeholder - delay)
                delay = 0
            } else {
                delay -= placeholder
                placeholder = 0
                if quality >= top { delay = 0 }
            }
            lastQuality = quality
            // While paused the buffer does not drain: poll at most once a second rather than spin.
            if delay > 0 { return .wait(seconds: context.playbackRate > 0 ? delay : max(delay, 1)) }
            return request(quality, context)
        }
    }

    /// Records what is about to be requested and returns it.
    private func request(_ quality: Int, _ context: ABRContext) -> ABRDecision {
        noteRequest(context)
        return .variant(quality)
    }

    /// Notes that the owner is requesting the segment of `context` now, whoever chose its variant (the placeholder
    /// cap after the download needs the buffer at request time and the segment's duration).
    public func noteRequest(_ context: ABRContext) {
        requestedSegment = context.segmentIndex
        bufferAtRequest = context.bufferSeconds
    }

    /// Adds the wall time since the last download finished (or since the last call) to the placeholder.
    private func updatePlaceholder(now: Double) {
        if let lastFinishTime {
            placeholder += max(0, now - lastFinishTime)
        } else if let lastCallTime {
            placeholder += max(0, now - lastCallTime)
        }
        lastCallTime = now
        lastFinishTime = nil
    }

    /// Feeds a completed download: the estimate, then the placeholder's decay and cap (`checkNewSegment`).
    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        estimator.add(sample)
        prepare(context)
        guard state != .oneBitrate else { return }
        noteBufferState(context)
        lastQuality = context.lastVariant ?? lastQuality
        lastFinishTime = sample.doneTime
        lastSegmentDuration = context.content.segmentDurations[min(requestedSegment, context.content.segmentCount - 1)]
        placeholder *= Self.placeholderDecay
        placeholder = min(placeholder, max(0, maxBufferLevel(for: lastQuality) - bufferAtRequest))
    }

    /// After the owner abandoned a request to re-fetch it at `quality`: shrink the placeholder to where BOLA just
    /// picks `quality` (10 s for the lowest), as `_onFragmentLoadingAbandoned` does.
    public func abandoned(switchingTo quality: Int, context: ABRContext) {
        prepare(context)
        guard state != .oneBitrate else { return }
        let wanted = quality > 0 ? minBufferLevel(for: quality) : Self.minimumBufferSeconds
        placeholder = min(placeholder, max(0, wanted - context.bufferSeconds))
        bufferAtRequest = context.bufferSeconds
    }
}

/// dash.js's BOLA-E as it runs when BolaRule is the only throughput/buffer rule: ``BolaERule`` plus the
/// AbandonRequestsRule (``DashAbandonRule``). Sources: dash.js v5.1.1 `BolaRule.js`, `AbandonRequestsRule.js`;
/// Spiteri, Sitaraman, Sparacio, MMSys 2018. Parameters: `bufferTimeDefault` (18 s), `safety` (0.9), `abandon`
/// (1 = on, 0 = off).
public final class BolaEPolicy: ABRPolicy {
    /// The BOLA machinery (exposed for inspection).
    public let rule: BolaERule
    /// Evaluated in place at every progress check (unchecked exclusivity, as ``DynamicPolicy``'s).
    @exclusivity(unchecked) private var abandonRule: DashAbandonRule?

    /// BOLA-E with dash.js's defaults unless given.
    public init(
        bufferTimeDefault: Double = DashDefaults.bufferTimeDefault, safety: Double = DashDefaults.bandwidthSafetyFactor,
        abandon: Bool = DashParameters.abandon.defaultValue
    ) {
        rule = BolaERule(bufferTimeDefault: bufferTimeDefault, safety: safety)
        abandonRule = abandon ? DashAbandonRule(bufferTimeDefault: bufferTimeDefault, safety: safety) : nil
    }

    public func decide(_ context: ABRContext) -> ABRDecision { rule.decide(context) }

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        rule.downloadFinished(sample, context: context)
    }

    public var progressCheckInterval: Double? { abandonRule?.checkInterval }

    public func downloadProgress(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision {
        rule.noteBufferState(context)
        // Evaluated in place: copying the rule out and back would copy its state at every check.
        guard let decision = abandonRule?.evaluate(progress, context: context) else { return .keepGoing }
        if case .abandon(let quality) = decision { rule.abandoned(switchingTo: quality, context: context) }
        return decision
    }

    public func progressOutlook(in window: ProgressWindow) -> ProgressOutlook {
        if rule.mayResetPlaceholder(in: window) { return .mayAct }
        return abandonRule?.outlook(in: window) ?? .idle
    }
}

/// The parameters of the dash.js-derived policies (`bola-e`, `dynamic`).
public enum DashParameters {
    /// `bufferTimeDefault`, with what it does in the policy that takes it.
    public static func bufferTimeDefault(_ help: String) -> Parameter<Double> {
        Parameter.number(
            "bufferTimeDefault", default: DashDefaults.bufferTimeDefault, unit: "s",
            source: "dash.js streaming.buffer.bufferTimeDefault", help)
    }
    public static let bolaBufferTime = bufferTimeDefault("BOLA's buffer target is max(this, 10 + 2N)")
    public static let dynamicBufferTime = bufferTimeDefault("switch to BOLA at this buffer, back at half")
    public static let safety = Parameter.number(
        "safety", default: DashDefaults.bandwidthSafetyFactor,
        source: "dash.js abr.throughput.bandwidthSafetyFactor", "fraction of the throughput estimate")
    public static let abandon = Parameter.flag(
        "abandon", default: true, source: "dash.js abr.rules.abandonRequestsRule.active",
        "1 = dash.js AbandonRequestsRule on, 0 = off")
}

extension BuiltInPolicies {
    static let bolaE = PolicyDescriptor(
        name: "bola-e",
        summary: "dash.js BolaRule (BOLA-E: placeholder buffer, BOLA-O, startup) + AbandonRequestsRule",
        parameters: [DashParameters.bolaBufferTime, DashParameters.safety, DashParameters.abandon]
    ) { arguments, _ in
        BolaEPolicy(
            bufferTimeDefault: try arguments.value(DashParameters.bolaBufferTime),
            safety: try arguments.value(DashParameters.safety), abandon: try arguments.value(DashParameters.abandon))
    }
}
