#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// hls.js's ABR controller (reference-players.md §2; video-dev/hls.js v1.7 `src/controller/abr-controller.ts`,
/// `src/utils/ewma-bandwidth-estimator.ts`, defaults from `src/config.ts`).
///
/// Level choice (`getNextABRAutoLevel`), with starvation delay = buffer / |rate| (rate 1 while paused):
/// 1. if the buffer is not empty, `findBestLevel(estimate, starvation, maxStarvation 0, 0.95, 0.7)`;
/// 2. else (or if nothing fits) the same with maxStarvationDelay = min(segment duration, 4 s): rebuffering of up to
///    that much is accepted;
/// 3. else the lowest level.
///
/// `findBestLevel` walks down from `context.maxVariant`: bandwidth = estimate × (level above the last loaded one ?
/// `bandwidthUpFactor` 0.7 : `bandwidthFactor` 0.95); the level's bitrate is its average bitrate when the buffer holds
/// two segments and no rebuffering is accepted, its peak otherwise; fetch time = TTFB estimate + bitrate × segment
/// duration / bandwidth (+ one more TTFB for a level whose playlist was never loaded, i.e. never requested: hls.js adds
/// TTFB + the last playlist load time, and playlist loads take no time here). The first level that fits the
/// bandwidth and whose fetch time is under starvation + maxStarvation wins.
///
/// First level (`firstAutoLevel`, used until a segment has loaded and whenever the estimator has no sample):
/// `findBestLevel(max(estimate, lowest bitrate), starvation 0, maxStarvation 4 s, factors 1)`, else the content's
/// start variant.
///
/// Estimator: ``DualEWMAEstimator`` 3/9 s (`abrEwmaDefaultEstimate` 500 kbit/s), each sample timed from request to
/// last byte minus min(actual TTFB, TTFB estimate); TTFB estimate = an EWMA with the slow half-life, sample weight
/// √2·exp(−t²/2), value max(t, 5 ms), 100 ms until sampled.
///
/// **Emergency switch-down** (`_abandonRulesCheck`, every 0.1 s while a segment loads above the lowest level and
/// playback is running): once the request is older than max(TTFB estimate, duration / (2·rate)), with load rate =
/// bytes / (time since first byte), if the time to finish exceeds the starvation delay, it looks down from the level
/// below for one whose fetch time (at the load rate) is under min(starvation, duration + TTFB); as in hls.js the
/// search stops above the lowest level, keeping the last delay computed. If that delay is under the time to finish
/// and at most 10 durations, it samples the partial load into its estimator, resets the estimator with the target's
/// bitrate as default when estimate × 0.7 exceeds it, lowers the target by `findBestLevel(target bitrate,
/// starvation 0, maxStarvation = starvation, factors 1)`, and forces that level for the next request. The request is
/// aborted at once if the time to finish exceeds twice the target's delay, else when that delay has passed (at the
/// next progress check) if still loading; hls.js aborts only for a target above the lowest level, then re-requests at
/// `findBestLevel(lowest bitrate, …)` (in practice the lowest level) and resets the estimator to that bitrate.
///
/// The player reports progress every 0.1 s from the first byte (hls.js's timer runs from the request), so a
/// deferred abort happens at the first check at or after its deadline. Not modelled: the bitrate-test fragment
/// (only with `startLevel: -1`), codec/HDR/frame-rate tiers, load errors, live-stream rules.
public final class HlsJsPolicy: ABRPolicy {
    /// The tunable constants, with hls.js's defaults (`hlsDefaultConfig`), each declared in ``Parameters``.
    public struct Configuration: Sendable, Equatable {
        /// `abrBandWidthFactor`: share of the estimate for the same or a lower level.
        public var bandwidthFactor = Parameters.bandwidthFactor.defaultValue
        /// `abrBandWidthUpFactor`: share of the estimate for a higher level.
        public var bandwidthUpFactor = Parameters.bandwidthUpFactor.defaultValue
        /// `maxStarvationDelay`, seconds of rebuffering accepted when nothing avoids it.
        public var maxStarvationDelay = Parameters.maxStarvationDelay.defaultValue
        /// `abrEwmaDefaultEstimate`, bit/s.
        public var defaultEstimate = Parameters.defaultEstimate.defaultValue
        /// `abrEwmaFastVoD`, seconds.
        public var fastHalfLife = Parameters.fastHalfLife.defaultValue
        /// `abrEwmaSlowVoD`, seconds (also the TTFB average's half-life).
        public var slowHalfLife = Parameters.slowHalfLife.defaultValue
        /// The TTFB estimate before any sample, seconds (`defaultTTFB`, 100 ms).
        public var defaultTimeToFirstByte = 0.1
        /// Whether `_abandonRulesCheck` runs.
        public var emergencySwitchDown = Parameters.emergencySwitchDown.defaultValue

        /// hls.js's defaults.
        public init() {}
    }

    /// The parameters a spec may set (`hlsjs(bandwidthFactor=0.8)`), with hls.js's defaults from `src/config.ts`.
    public enum Parameters {
        public static let bandwidthFactor = Parameter.number(
            "bandwidthFactor", default: 0.95, source: "hls.js abrBandWidthFactor",
            "share of the estimate for the same or a lower level")
        public static let bandwidthUpFactor = Parameter.number(
            "bandwidthUpFactor", default: 0.7, source: "hls.js abrBandWidthUpFactor",
            "share of the estimate for a higher level")
        public static let maxStarvationDelay = Parameter.number(
            "maxStarvationDelay", default: 4, in: .nonNegative, unit: "s", source: "hls.js maxStarvationDelay",
            "rebuffering accepted when unavoidable")
        public static let defaultEstimate = Parameter.number(
            "defaultEstimate", default: 500_000, unit: "bit/s", source: "hls.js abrEwmaDefaultEstimate",
            "estimate before the first sample")
        public static let fastHalfLife = Parameter.number(
            "fastHalfLife", default: 3, unit: "s", source: "hls.js abrEwmaFastVoD", "fast EWMA half-life")
        public static let slowHalfLife = Parameter.number(
            "slowHalfLife", default: 9, unit: "s", source: "hls.js abrEwmaSlowVoD",
            "slow EWMA half-life (also the TTFB average's)")
        public static let emergencySwitchDown = Parameter.onOff(
            "emergencySwitchDown", default: true, source: "hls.js abr-controller _abandonRulesCheck",
            "the 100 ms abandon-rules check")

        /// Every parameter with the field it sets, in listing order.
        public static let all: [ParameterBinding<Configuration>] = [
            ParameterBinding(bandwidthFactor, \.bandwidthFactor),
            ParameterBinding(bandwidthUpFactor, \.bandwidthUpFactor),
            ParameterBinding(maxStarvationDelay, \.maxStarvationDelay),
            ParameterBinding(defaultEstimate, \.defaultEstimate),
            ParameterBinding(fastHalfLife, \.fastHalfLife),
            ParameterBinding(slowHalfLife, \.slowHalfLife),
            ParameterBinding(emergencySwitchDown, \.emergencySwitchDown),
        ]
    }

    /// A decided but deferred abort: hls.js's `abortAndSwitch` timer.
    private struct PendingAbort {
        var segment: Int
        var deadline: Double
        var target: Int
    }

    /// The constants in use.
    public let configuration: Configuration
    private var bandwidth: DualEWMAEstimator
    private var timeToFirstByte: ExponentialAverage
    /// `lastLoadedFragLevel`.
    private var lastLoadedVariant: Int?
    /// `_nextAutoLevel` as set by an emergency switch: used until a segment at that level loads.
    private var forcedVariant: Int?
    /// Levels whose playlists hls.js would have loaded (requested at least once).
    private var playlistLoaded: [Bool] = []
    /// The segment whose abandon check was disarmed (hls.js clears its timer after deciding).
    private var disarmedSegment: Int?
    private var pendingAbort: PendingAbort?

    /// A policy with `configuration` (hls.js's defaults unless given).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        bandwidth = Self.makeEstimator(configuration, defaultEstimate: configuration.defaultEstimate)
        timeToFirstByte = ExponentialAverage(halfLife: configuration.slowHalfLife)
    }

    private static func makeEstimator(_ configuration: Configuration, defaultEstimate: Double) -> DualEWMAEstimator {
        DualEWMAEstimator(
            fastHalfLife: configuration.fastHalfLife, slowHalfLife: configuration.slowHalfLife,
            defaultEstimate: defaultEstimate, durationFloor: .hlsjs, minimumTotalWeight: 0.001)
    }

    /// `getBwEstimate()`: the bandwidth estimate, bit/s.
    public var bandwidthEstimate: Double { bandwidth.estimate }

    /// `getEstimateTTFB()` in seconds.
    public var timeToFirstByteEstimate: Double {
        timeToFirstByte.totalWeight >= 0.001 ? timeToFirstByte.value : configuration.defaultTimeToFirstByte
    }

    public var progressCheckInterval: Double? { configuration.emergencySwitchDown ? 0.1 : nil }

    // MARK: - Level choice

    public func decide(_ context: ABRContext) -> ABRDecision {
        let chosen = nextAutoLevel(context)
        markPlaylistLoaded(chosen, count: context.content.variantCount)
        return .variant(chosen)
    }

    /// `nextAutoLevel`: the forced level if any, else the first-level rule or the ABR rule.
    func nextAutoLevel(_ context: ABRContext) -> Int {
        let maxLevel = context.maxVariant
        if let forced = forcedVariant { return min(forced, maxLevel) }
        guard maxLevel > 0 else { return 0 }
        if !bandwidth.hasEnoughData || lastLoadedVariant == nil { return firstAutoLevel(context) }
        return nextABRAutoLevel(context)
    }

    /// `firstAutoLevel`.
    private func firstAutoLevel(_ context: ABRContext) -> Int {
        let found = findBestLevel(
            bandwidth: bandwidth.estimate, maxLevel: context.maxVariant, starvation: 0,
            maxStarvation: configuration.maxStarvationDelay, factor: 1, upFactor: 1, context: context)
        return found ?? min(max(context.startVariant, 0), context.maxVariant)
    }

    /// `getNextABRAutoLevel`.
    private func nextABRAutoLevel(_ context: ABRContext) -> Int {
        let estimate = bandwidth.estimate
        let starvation = starvationDelay(context)
        if starvation > 0,
            let level = findBestLevel(
                bandwidth: estimate, maxLevel: context.maxVariant, starvation: starvation, maxStarvation: 0,
                factor: configuration.bandwidthFactor, upFactor: configuration.bandwidthUpFactor, context: context)
        {
            return level
        }
        let fragmentDuration = currentFragmentDuration(context)
        let maxStarvation =
            fragmentDuration > 0
            ? min(fragmentDuration, configuration.maxStarvationDelay) : configuration.maxStarvationDelay
        if let level = findBestLevel(
            bandwidth: estimate, maxLevel: context.maxVariant, starvation: starvation, maxStarvation: maxStarvation,
            factor: configuration.bandwidthFactor, upFactor: configuration.bandwidthUpFactor, context: context)
        {
            return level
        }
        // The lowest level if it is below the current one, else the current one: with an ascending ladder, 0.
        return 0
    }

    /// `findBestLevel`: the highest level in `0...maxLevel` that fits `bandwidth` (bit/s) and loads within
    /// `starvation + maxStarvation` seconds, or `nil`.
    func findBestLevel(
        bandwidth estimate: Double, maxLevel: Int, starvation: Double, maxStarvation: Double, factor: Double,
        upFactor: Double, context: ABRContext
    ) -> Int? {
        let variants = context.content.variants
        let maxFetchDuration = starvation + maxStarvation
        let base = lastLoadedVariant ?? context.startVariant
        // First selection: the bandwidth is raised to the lowest bitrate of the start tier (one tier here).
        let currentBandwidth = lastLoadedVariant == nil ? max(estimate, variants[0].bitrateBps) : estimate
        let fragmentDuration = currentFragmentDuration(context)
        let averageDuration = context.content.duration / Double(context.content.segmentCount)
        let ttfb = timeToFirstByteEstimate
        for level in stride(from: maxLevel, through: 0, by: -1) {
            let adjusted = (level > base ? upFactor : factor) * currentBandwidth
            let useAverage = fragmentDuration > 0 && starvation >= 2 * fragmentDuration && maxStarvation == 0
            let bitrate =
                useAverage
                ? (variants[level].averageBitrateBps ?? variants[level].bitrateBps) : variants[level].bitrateBps
            let known = isPlaylistLoaded(level)
            let fetch = timeToLoad(
                ttfb: ttfb, bandwidth: adjusted, bits: bitrate * (known ? averageDuration : fragmentDuration),
                requiresLevelLoad: !known)
            if adjusted >= bitrate && (fetch <= ttfb || !fetch.isFinite || fetch < maxFetchDuration) {
                return level
            }
        }
        return nil
    }

    /// `getTimeToLoadFrag`: seconds to fetch `bits` at `bandwidth` after one TTFB, plus a playlist load (one more
    /// TTFB; the load itself takes no simulated time) for a level not loaded before.
    private func timeToLoad(ttfb: Double, bandwidth: Double, bits: Double, requiresLevelLoad: Bool) -> Double {
        ttfb + bits / bandwidth + (requiresLevelLoad ? ttfb : 0)
    }

    // MARK: - Feedback

    public func downloadFinished(_ sample: ThroughputSample, context: ABRContext) {
        // onFragLoaded: TTFB sample, timer cleared, forced level released once loaded.
        let ttfb = max(sample.firstByteTime - sample.requestTime, 0)
        sampleTimeToFirstByte(ttfb)
        pendingAbort = nil
        disarmedSegment = nil
        let variant = context.history.variants.last ?? context.lastVariant ?? 0
        if forcedVariant == variant { forcedVariant = nil }
        lastLoadedVariant = variant
        markPlaylistLoaded(variant, count: context.content.variantCount)
        // onFragBuffered: request → last byte, less min(actual TTFB, TTFB estimate).
        sampleBandwidth(bits: sample.bits, requestTime: sample.requestTime, ttfb: ttfb, doneTime: sample.doneTime)
    }

    private func sampleTimeToFirstByte(_ seconds: Double) {
        timeToFirstByte.add(weight: 2.0.squareRoot() * exp(-seconds * seconds / 2), value: max(seconds, 0.005))
    }

    private func sampleBandwidth(bits: Double, requestTime: Double, ttfb: Double, doneTime: Double) {
        let firstByte = requestTime + min(ttfb, timeToFirstByteEstimate)
        bandwidth.add(
            ThroughputSample(bits: bits, requestTime: requestTime, firstByteTime: firstByte, doneTime: doneTime))
    }

    /// `resetEstimator(bitrate)`: fresh bandwidth and TTFB averages, with `defaultEstimate` as the default.
    private func resetEstimator(defaultEstimate: Double) {
        bandwidth = Self.makeEstimator(configuration, defaultEstimate: defaultEstimate)
        timeToFirstByte = ExponentialAverage(halfLife: configuration.slowHalfLife)
    }

    // MARK: - Emergency switch-down

    public func downloadProgress(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision {
        if disarmedSegment == progress.segment {
            guard let pending = pendingAbort, pending.segment == progress.segment, progress.time >= pending.deadline
            else { return .keepGoing }
            return abortAndSwitch(to: pending.target, context: context)
        }
        guard configuration.emergencySwitchDown, progress.variant > 0, progress.receivedBits < progress.totalBits,
            context.playbackRate > 0, context.playbackState == .playing || context.playbackState == .buffering
        else { return .keepGoing }
        let rate = abs(context.playbackRate)
        let duration = context.content.segmentDurations[progress.segment]
        let ttfbEstimate = timeToFirstByteEstimate
        let timeLoading = progress.time - progress.requestTime
        guard timeLoading > max(ttfbEstimate, duration / (rate * 2)) else { return .keepGoing }

        let starvation = context.bufferSeconds / rate
        let ttfb = progress.firstByteTime - progress.requestTime
        let loadedFirstByte = progress.receivedBits > 0
        let estimate = bandwidth.estimate
        let expectedBits = max(progress.receivedBits, progress.totalBits)
        var timeStreaming = loadedFirstByte ? timeLoading - ttfb : timeLoading
        if timeStreaming < 0.001 && loadedFirstByte {
            timeStreaming = min(timeLoading, progress.receivedBits / estimate)
        }
        let loadRate = loadedFirstByte ? progress.receivedBits / timeStreaming : 0
        let fragLoadedDelay =
            loadRate > 0 ? (expectedBits - progress.receivedBits) / loadRate : expectedBits / estimate + ttfbEstimate
        guard fragLoadedDelay > starvation else { return .keepGoing }

        let variants = context.content.variants
        let rateForSwitch = loadRate > 0 ? loadRate : estimate
        var nextLevel = progress.variant - 1
        var nextDelay = Double.infinity
        while nextLevel > 0 {
            nextDelay = timeToLoad(
                ttfb: ttfbEstimate, bandwidth: rateForSwitch, bits: duration * variants[nextLevel].bitrateBps,
                requiresLevelLoad: !isPlaylistLoaded(nextLevel))
            if nextDelay < min(starvation, duration + ttfbEstimate) { break }
            nextLevel -= 1
        }
        guard nextDelay < fragLoadedDelay, nextDelay <= duration * 10 else { return .keepGoing }

        if loadedFirstByte {
            sampleBandwidth(
                bits: progress.receivedBits, requestTime: progress.requestTime, ttfb: ttfb, doneTime: progress.time)
        } else {
            sampleTimeToFirstByte(timeLoading)
        }
        let nextBitrate = variants[nextLevel].bitrateBps
        if bandwidth.estimate * configuration.bandwidthUpFactor > nextBitrate {
            resetEstimator(defaultEstimate: nextBitrate)
        }
        if let best = findBestLevel(
            bandwidth: nextBitrate, maxLevel: nextLevel, starvation: 0, maxStarvation: starvation, factor: 1,
            upFactor: 1, context: context)
        {
            nextLevel = best
        }
        forcedVariant = nextLevel
        markPlaylistLoaded(nextLevel, count: variants.count)
        disarmedSegment = progress.segment
        if fragLoadedDelay > nextDelay * 2 { return abortAndSwitch(to: nextLevel, context: context) }
        pendingAbort = PendingAbort(segment: progress.segment, deadline: progress.time + nextDelay, target: nextLevel)
        return .keepGoing
    }

    /// What ``downloadProgress(_:context:)`` may do at the checks of `window` (it keeps no records): act only on a deferred abort's deadline
    /// once disarmed; otherwise not before the request is older than max(TTFB estimate, duration / (2·rate)), nor
    /// while the time to finish at the load rate (at most (total − received) × elapsed / received) is within the
    /// starvation delay (at least the lowest buffer / rate), since every later test needs it above.
    public func progressOutlook(in window: ProgressWindow) -> ProgressOutlook {
        let context = window.context
        if disarmedSegment == window.segment {
            guard let pending = pendingAbort, pending.segment == window.segment else { return .idle }
            return window.lastTime >= pending.deadline ? .mayAct : .idle
        }
        guard configuration.emergencySwitchDown, window.variant > 0, window.receivedAtLeast < window.totalBits,
            context.playbackRate > 0, context.playbackState == .playing || context.playbackState == .buffering
        else { return .idle }
        let rate = abs(context.playbackRate)
        let duration = context.content.segmentDurations[window.segment]
        guard window.lastTime - window.requestTime > max(timeToFirstByteEstimate, duration / (rate * 2)) else {
            return .idle
        }
        // With no bits yet the load rate may be 0 (another formula) or tiny: no bound.
        guard window.receivedAtLeast > 0, window.firstTime - window.firstByteTime >= 0.002 else { return .mayAct }
        let margin = 1e-9
        let streamingAtMost = (window.lastTime - window.firstByteTime) * (1 + margin)
        let loadedDelayAtMost = (window.totalBits - window.receivedAtLeast) * streamingAtMost / window.receivedAtLeast
        return loadedDelayAtMost * (1 + margin) >= window.bufferLow / rate * (1 - margin) ? .mayAct : .idle
    }

    /// `abortAndSwitch`: aborts (only for a target above the lowest level) and re-requests at the lowest level that
    /// `findBestLevel` allows at the lowest bitrate, resetting the estimator to that bitrate.
    private func abortAndSwitch(to target: Int, context: ABRContext) -> ProgressDecision {
        pendingAbort = nil
        guard target > 0 else { return .keepGoing }
        let variants = context.content.variants
        let rate = context.playbackRate != 0 ? abs(context.playbackRate) : 1
        let lowest =
            findBestLevel(
                bandwidth: variants[0].bitrateBps, maxLevel: target, starvation: 0,
                maxStarvation: context.bufferSeconds / rate, factor: 1, upFactor: 1, context: context) ?? 0
        forcedVariant = lowest
        markPlaylistLoaded(lowest, count: variants.count)
        resetEstimator(defaultEstimate: variants[lowest].bitrateBps)
        return .abandon(switchTo: lowest)
    }

    // MARK: - Helpers

    /// Buffer / |rate| (rate 1 while paused), seconds.
    private func starvationDelay(_ context: ABRContext) -> Double {
        context.bufferSeconds / (context.playbackRate != 0 ? abs(context.playbackRate) : 1)
    }

    /// `fragCurrent.duration`: the last requested segment's duration, 0 before the first request.
    private func currentFragmentDuration(_ context: ABRContext) -> Double {
        let last = min(context.segmentIndex, context.content.segmentCount) - 1
        return lastLoadedVariant == nil || last < 0 ? 0 : context.content.segmentDurations[last]
    }

    private func isPlaylistLoaded(_ level: Int) -> Bool { level < playlistLoaded.count && playlistLoaded[level] }

    private func markPlaylistLoaded(_ level: Int, count: Int) {
        if playlistLoaded.count < count {
            playlistLoaded += Array(repeating: false, count: count - playlistLoaded.count)
        }
        playlistLoaded[level] = true
    }
}

extension BuiltInPolicies {
    static let hlsjs = PolicyDescriptor(
        name: "hlsjs",
        summary: "hls.js abr-controller (EWMA 3/9 s, 0.95 / 0.7 up, starvation-aware, emergency switch-down)",
        parameters: HlsJsPolicy.Parameters.all
    ) { arguments, _ in
        var configuration = HlsJsPolicy.Configuration()
        try arguments.configure(&configuration, HlsJsPolicy.Parameters.all)
        return HlsJsPolicy(configuration: configuration)
    }
}
