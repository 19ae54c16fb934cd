#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// dash.js's `streaming.liveCatchup` settings, as set (NaN = not set), and what dash.js makes of them.
///
/// Defaults are those of dash.js v5.1.1 `src/core/Settings.js` (`maxDrift: NaN`, `playbackRate: {min: NaN,
/// max: NaN}`, `playbackBufferMin: 0.5`, `mode: liveCatchupModeDefault`); the derived values follow
/// `src/streaming/models/MediaPlayerModel.js` (`getCatchupPlaybackRates`, `getCatchupMaxDrift`) with no MPD
/// ServiceDescription. Rates are offsets from 1 (−0.5 means half speed); times are seconds.
public struct DashLiveCatchupSettings: Sendable, Equatable {
    /// `liveCatchup.mode`.
    public enum Mode: String, Sendable, CaseIterable {
        /// `liveCatchupModeDefault`: the rate from the latency drift.
        case liveCatchupModeDefault
        /// `liveCatchupModeLoLP`: LoL+, the rate from the buffer when it is low, else from the drift.
        case liveCatchupModeLoLP
    }

    /// `liveCatchup.mode` as set.
    public var mode: Mode = .liveCatchupModeDefault
    /// `liveCatchup.playbackRate.min` as set (NaN = unset).
    public var playbackRateMin: Double = .nan
    /// `liveCatchup.playbackRate.max` as set (NaN = unset).
    public var playbackRateMax: Double = .nan
    /// `liveCatchup.maxDrift` in seconds as set (NaN = unset).
    public var maxDrift: Double = .nan
    /// `liveCatchup.playbackBufferMin` in seconds (NaN = null: LoL+ mode is then not used).
    public var playbackBufferMin: Double = 0.5
    /// The browser is Safari: a fixed minimum rate change of 0.25 (WebKit bug 208142).
    public var isSafari = false

    /// Creates the dash.js defaults in `mode`.
    public init(mode: Mode = .liveCatchupModeDefault) { self.mode = mode }

    /// The mode dash.js uses: LoL+ only when set and `playbackBufferMin` is a number (`_getCatchupMode`).
    public var effectiveMode: Mode {
        mode == .liveCatchupModeLoLP && !playbackBufferMin.isNaN ? .liveCatchupModeLoLP : .liveCatchupModeDefault
    }

    /// `getCatchupPlaybackRates`: −0.5/+0.5 when neither is set; otherwise each clamped to [−0.5, 0] and [0, 1],
    /// an unset one becoming 0.
    public var catchupPlaybackRates: (min: Double, max: Double) {
        guard !playbackRateMin.isNaN || !playbackRateMax.isNaN else { return (-0.5, 0.5) }
        let min: Double = playbackRateMin.isNaN || playbackRateMin > 0 ? 0 : Swift.max(playbackRateMin, -0.5)
        let max: Double = playbackRateMax.isNaN || playbackRateMax < 0 ? 0 : Swift.min(playbackRateMax, 1)
        return (min, max)
    }

    /// `getCatchupMaxDrift`: the setting when it is a number ≥ 0, else 12 s.
    public var catchupMaxDrift: Double { !maxDrift.isNaN && maxDrift >= 0 ? maxDrift : 12 }

    /// The deadband: 0.25 on Safari, else 0.02 / (0.5 / rate max) (0 when rate max is 0).
    public var minPlaybackRateChange: Double { isSafari ? 0.25 : 0.02 / (0.5 / catchupPlaybackRates.max) }
}

/// dash.js's live catch-up (`src/streaming/controllers/CatchupController.js`, v5.1.1), default and LoL+ modes.
///
/// Default mode: with drift Δ = latency − live delay and cpr = |rate min| when Δ < 0 else rate max, the rate is
/// (1 − cpr) + 2·cpr / (1 + e^(−5Δ)), 1 while recovering from a stall, and 1 when playback is stalled with the
/// buffer ≤ half the live delay and Δ > 0. LoL+ mode: below `playbackBufferMin` the same sigmoid of
/// 5·(buffer − playbackBufferMin) with cpr = |rate min| (slowing down); otherwise 1 within 2 % of the live delay,
/// else the default sigmoid. A step seeks to the live edge when Δ > `maxDrift` (when that is > 0), sets the new
/// rate when it differs from the current one by at least the deadband (or is exactly 1), else keeps the rate.
/// A player owns one per live stream and calls ``decide(_:)`` on each playback progress event.
public struct DashCatchupController: LiveCatchUpController {
    /// What one catch-up step did (the `action` column of the reference table).
    public enum Action: String, Sendable {
        /// Catch-up not entered (rates allow no change, or no need to catch up).
        case inactive
        /// Seek to the live edge; the rate is kept.
        case seek
        /// The rate is set to the new rate.
        case setRate = "set_rate"
        /// The change is below the deadband; the rate is kept.
        case keep
    }

    /// Everything one step computes, for the reference table and for probing.
    public struct Step: Sendable, Equatable {
        /// Latency − live delay, seconds.
        public var driftSeconds: Double
        /// The mode's "need to catch up" test (`_defaultNeedToCatchUp`, `_lolpNeedToCatchUpCustom`).
        public var shouldStart: Bool
        /// The mode's rate function on the inputs, whether or not the step uses it.
        public var newRate: Double
        /// The deadband the step uses.
        public var minRateChange: Double
        /// What the step did.
        public var action: Action
        /// The playback rate after the step.
        public var rateAfter: Double
    }

    /// The settings (`streaming.liveCatchup`).
    public var settings: DashLiveCatchupSettings
    /// The controller's own stall flag (`CatchupController`'s `playbackStalled`): set when the buffer runs empty,
    /// cleared once it exceeds half the live delay.
    public var catchupStalled = false
    /// A seek this controller asked for has not completed yet.
    public var isCatchupSeekInProgress = false

    /// Creates a controller with `settings`.
    public init(settings: DashLiveCatchupSettings = DashLiveCatchupSettings()) { self.settings = settings }

    /// `dashjs` or `dashjs-lolp`, after the mode.
    public var name: String { settings.mode == .liveCatchupModeLoLP ? "dashjs-lolp" : "dashjs" }

    /// One step on `state` (`_onPlaybackProgression`, then `_startPlaybackCatchUp`).
    public mutating func step(_ state: LiveCatchUpState) -> Step {
        let rates = settings.catchupPlaybackRates
        let mode = settings.effectiveMode
        let drift = state.latencySeconds - state.targetLatencySeconds
        let shouldStart: Bool
        let newRate: Double
        switch mode {
        case .liveCatchupModeLoLP:
            shouldStart = abs(drift) > 0 || state.bufferSeconds < settings.playbackBufferMin
            newRate = Self.lolPRate(rates: rates, state: state, playbackBufferMin: settings.playbackBufferMin)
        case .liveCatchupModeDefault:
            shouldStart = abs(drift) > 0
            newRate = Self.defaultRate(rates: rates, state: state, catchupStalled: catchupStalled)
        }
        let minRateChange = settings.minPlaybackRateChange
        var result = Step(
            driftSeconds: drift, shouldStart: shouldStart, newRate: newRate, minRateChange: minRateChange,
            action: .inactive, rateAfter: state.currentRate)
        guard rates.max > 0 || rates.min < 0, shouldStart, !isCatchupSeekInProgress else { return result }
        let maxDrift = settings.catchupMaxDrift
        if maxDrift > 0 && drift > maxDrift {
            isCatchupSeekInProgress = true
            result.action = .seek
        } else if (newRate != 0 && !newRate.isNaN && abs(state.currentRate - newRate) >= minRateChange)
            || newRate == 1
        {
            result.action = .setRate
            result.rateAfter = newRate
        } else {
            result.action = .keep
        }
        return result
    }

    /// One decision: ``step(_:)``'s rate after, and whether it seeks.
    public mutating func decide(_ state: LiveCatchUpState) -> LiveCatchUpDecision {
        let step = step(state)
        return LiveCatchUpDecision(playbackRate: step.rateAfter, seeksToLiveEdge: step.action == .seek)
    }

    /// `BUFFER_LEVEL_STATE_CHANGED`: the stall flag follows the buffer's emptiness.
    public mutating func bufferLevelStateChanged(isEmpty: Bool) { catchupStalled = isEmpty }

    /// `BUFFER_LEVEL_UPDATED`: the stall flag clears once the buffer exceeds half the live delay.
    public mutating func bufferLevelUpdated(bufferSeconds: Double, liveDelaySeconds: Double) {
        if catchupStalled && bufferSeconds > liveDelaySeconds / 2 { catchupStalled = false }
    }

    /// The buffer ran empty.
    public mutating func notifyRebuffer(nowSeconds: Double) { bufferLevelStateChanged(isEmpty: true) }

    /// `PLAYBACK_SEEKED`: a catch-up seek has completed.
    public mutating func notifySeeked() { isCatchupSeekInProgress = false }

    /// (1 − cpr) + 2·cpr / (1 + e^(−5x)), dash.js's sigmoid, with `Math.pow(Math.E, −d)`.
    static func sigmoid(_ x: Double, cpr: Double) -> Double {
        let d = x * 5
        let s = (cpr * 2) / (1 + pow(2.718281828459045, -d))
        return (1 - cpr) + s
    }

    /// `_calculateNewPlaybackRateDefault`.
    static func defaultRate(rates: (min: Double, max: Double), state: LiveCatchUpState, catchupStalled: Bool)
        -> Double
    {
        if catchupStalled { return 1 }
        let delta = state.latencySeconds - state.targetLatencySeconds
        let cpr = delta < 0 ? abs(rates.min) : rates.max
        var rate = sigmoid(delta, cpr: cpr)
        if state.playbackStalled && state.bufferSeconds <= state.targetLatencySeconds / 2 && delta > 0 { rate = 1 }
        return rate
    }

    /// `_calculateNewPlaybackRateLolP`.
    static func lolPRate(rates: (min: Double, max: Double), state: LiveCatchUpState, playbackBufferMin: Double)
        -> Double
    {
        if state.bufferSeconds < playbackBufferMin {
            return sigmoid(state.bufferSeconds - playbackBufferMin, cpr: abs(rates.min))
        }
        let delta = state.latencySeconds - state.targetLatencySeconds
        if abs(delta) <= 0.02 * state.targetLatencySeconds { return 1 }
        return sigmoid(delta, cpr: delta < 0 ? abs(rates.min) : rates.max)
    }
}
