import Testing

@testable import ABRSim

/// The controllers' formulas on hand-computed cases: dash.js's sigmoid, deadband, clamping and seek, LoL+'s
/// buffer rule, ExoPlayer's unit-speed band, clamping, update interval and rebuffer growth, Shaka's thresholds.
@Suite("the catch-up controllers' formulas")
struct CatchUpFormulaTests {
    static func state(latency: Double, target: Double = 3, buffer: Double = 2, rate: Double = 1, now: Double = 0)
        -> LiveCatchUpState
    {
        LiveCatchUpState(
            nowSeconds: now, latencySeconds: latency, targetLatencySeconds: target, bufferSeconds: buffer,
            currentRate: rate)
    }

    // 1 / (1 + e^-1) = e / (1 + e) and 1 / (1 + e^5), to 17 digits.
    static let sigmoidAtOne = 0.73105857863000487
    static let sigmoidAtMinusFive = 0.0066928509242848554

    @Test("at zero drift dash.js's default catch-up gives rate 1, stays inactive and keeps the current rate")
    func dashjsDefaultModeGivesRateOneAtZeroDriftAndDoesNotStart() {
        var controller = DashCatchupController()
        let step = controller.step(Self.state(latency: 3, rate: 1.2))
        #expect(step.newRate == 1)
        #expect(!step.shouldStart)
        #expect(step.action == .inactive)
        #expect(step.rateAfter == 1.2)
    }

    @Test("dash.js's catch-up rate at drifts of +0.2 s and −1 s is its sigmoid, to 1e-15")
    func dashjsSigmoidAtAHandChosenDrift() {
        var controller = DashCatchupController()
        // Drift +0.2 s: d = 1, cpr = max = 0.5: 0.5 + 1 / (1 + e^-1).
        let ahead = controller.step(Self.state(latency: 3.2))
        #expect(abs(ahead.newRate - (0.5 + Self.sigmoidAtOne)) <= 1e-15)
        #expect(ahead.action == .setRate)
        #expect(ahead.rateAfter == ahead.newRate)
        // Drift −1 s: d = −5, cpr = |min| = 0.5: 0.5 + 1 / (1 + e^5).
        let behind = controller.step(Self.state(latency: 2))
        #expect(abs(behind.newRate - (0.5 + Self.sigmoidAtMinusFive)) <= 1e-15)
    }

    @Test("dash.js keeps the rate for changes within its deadband, which scales with the maximum rate and Safari")
    func dashjsDeadbandKeepsSmallChangesAndScalesWithTheMaxRate() {
        var controller = DashCatchupController()
        // Drift 0.01 s: rate 0.5 + 1/(1+e^-0.05) ≈ 1.0125, within 0.02 of 1.0: kept.
        let small = controller.step(Self.state(latency: 3.01, rate: 1))
        #expect(small.minRateChange == 0.02)
        #expect(small.action == .keep)
        #expect(small.rateAfter == 1)
        var settings = DashLiveCatchupSettings()
        settings.playbackRateMax = 0.1
        #expect(settings.minPlaybackRateChange == 0.02 / 5)
        #expect(settings.catchupPlaybackRates.min == 0)  // an unset partner becomes 0
        settings.isSafari = true
        #expect(settings.minPlaybackRateChange == 0.25)
    }

    @Test("dash.js clamps its catch-up rate settings to −0.5…1 and turns off when both are zero")
    func dashjsClampsTheRateSettings() {
        var settings = DashLiveCatchupSettings()
        #expect(settings.catchupPlaybackRates == (-0.5, 0.5))
        settings.playbackRateMin = -0.8
        settings.playbackRateMax = 1.5
        #expect(settings.catchupPlaybackRates == (-0.5, 1))
        settings.playbackRateMin = 0.2
        settings.playbackRateMax = -0.1
        #expect(settings.catchupPlaybackRates == (0, 0))
        var off = DashCatchupController(settings: settings)
        #expect(off.step(Self.state(latency: 10)).action == .inactive)
    }

    @Test("dash.js seeks to the live edge beyond a 12 s drift, waits for the seek, and never seeks with maxDrift 0")
    func dashjsSeeksWhenTheDriftExceedsMaxDrift() {
        var controller = DashCatchupController()
        #expect(controller.settings.catchupMaxDrift == 12)
        let step = controller.step(Self.state(latency: 15.5, rate: 1.1))
        #expect(step.action == .seek)
        #expect(step.rateAfter == 1.1)
        // Until the seek completes, nothing more happens.
        #expect(controller.decide(Self.state(latency: 15.5)) == LiveCatchUpDecision(playbackRate: 1))
        #expect(controller.step(Self.state(latency: 15.5)).action == .inactive)
        controller.notifySeeked()
        #expect(controller.decide(Self.state(latency: 15.5)).seeksToLiveEdge)
        var settings = DashLiveCatchupSettings()
        settings.maxDrift = 0  // 0 switches the seek off
        var never = DashCatchupController(settings: settings)
        #expect(never.step(Self.state(latency: 100)).action == .setRate)
        settings.maxDrift = -1  // negative → 12
        #expect(settings.catchupMaxDrift == 12)
    }

    @Test("dash.js holds rate 1 while stalled until the buffer passes half the live delay")
    func dashjsStallFlagsHoldTheRateAtOne() {
        var controller = DashCatchupController()
        controller.bufferLevelStateChanged(isEmpty: true)
        #expect(controller.step(Self.state(latency: 5)).newRate == 1)
        controller.bufferLevelUpdated(bufferSeconds: 1.5, liveDelaySeconds: 3)  // not above half: still stalled
        #expect(controller.catchupStalled)
        controller.bufferLevelUpdated(bufferSeconds: 1.6, liveDelaySeconds: 3)
        #expect(!controller.catchupStalled)
        var stalled = Self.state(latency: 5, buffer: 1.5)
        stalled.playbackStalled = true
        #expect(controller.step(stalled).newRate == 1)
        stalled.bufferSeconds = 1.6
        #expect(controller.step(stalled).newRate > 1.4)
    }

    @Test("dash.js LoL+ slows below 0.5 s of buffer, keeps rate 1 within 2 % and uses the sigmoid beyond")
    func dashjsLoLPSlowsDownBelowPlaybackBufferMin() {
        var controller = LiveCatchUpControllers.make("dashjs-lolp") as! DashCatchupController
        #expect(controller.settings.playbackBufferMin == 0.5)
        // Buffer 0.3 s < 0.5 s: d = 5·(0.3 − 0.5) = −1, cpr = 0.5: 0.5 + 1 / (1 + e^1) = 1.5 − 1 / (1 + e^-1).
        let low = controller.step(Self.state(latency: 3, buffer: 0.3))
        #expect(low.shouldStart)
        #expect(abs(low.newRate - (1.5 - Self.sigmoidAtOne)) <= 1e-15)
        // Within 2 % of the live delay: rate 1.
        #expect(controller.step(Self.state(latency: 3.05)).newRate == 1)
        // Beyond it: the default sigmoid.
        #expect(abs(controller.step(Self.state(latency: 3.2)).newRate - (0.5 + Self.sigmoidAtOne)) <= 1e-15)
        // A null playbackBufferMin makes dash.js use the default mode.
        controller.settings.playbackBufferMin = .nan
        #expect(controller.settings.effectiveMode == .liveCatchupModeDefault)
    }

    static func configured(_ builder: DefaultLivePlaybackSpeedControl.Builder = .init(), targetMs: Int64 = 4000)
        -> DefaultLivePlaybackSpeedControl
    {
        var control = DefaultLivePlaybackSpeedControl(builder)
        control.setLiveConfiguration(
            targetOffsetMs: targetMs, minOffsetMs: DefaultLivePlaybackSpeedControl.unsetTime,
            maxOffsetMs: DefaultLivePlaybackSpeedControl.unsetTime,
            minPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate,
            maxPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate)
        return control
    }

    @Test("the ExoPlayer live speed is 1 within 20 ms of the target offset")
    func exoplayerReturnsOneInsideTheUnitSpeedBand() {
        var control = Self.configured()
        // 19.999 ms off the 4 s target: inside the 20 ms band.
        #expect(
            control.getAdjustedPlaybackSpeed(
                liveOffsetUs: 4_019_999, bufferedDurationUs: 3_000_000, elapsedRealtimeMs: 0) == 1)
        #expect(control.targetLiveOffsetUs == 4_000_000)
    }

    @Test("the ExoPlayer live speed is proportional to the offset error, held for 1 s and clamped to 0.97…1.03")
    func exoplayerIsProportionalAndClampedToTheFallbackSpeeds() {
        var control = Self.configured()
        // 0.2 s behind: 1 + 0.1 × 0.2 = 1.02 (in Float32).
        let speed = control.getAdjustedPlaybackSpeed(
            liveOffsetUs: 4_200_000, bufferedDurationUs: 3_000_000, elapsedRealtimeMs: 0)
        #expect(abs(Double(speed) - 1.02) < 1e-6)
        // Within the minimum update interval (1000 ms) the speed is held, whatever the offset.
        #expect(
            control.getAdjustedPlaybackSpeed(
                liveOffsetUs: 9_000_000, bufferedDurationUs: 3_000_000, elapsedRealtimeMs: 999) == speed)
        // After it: 1 + 0.1 × 5 = 1.5, clamped to 1.03.
        #expect(
            control.getAdjustedPlaybackSpeed(
                liveOffsetUs: 9_000_000, bufferedDurationUs: 3_000_000, elapsedRealtimeMs: 1000) == 1.03)
        var ahead = Self.configured()
        #expect(
            ahead.getAdjustedPlaybackSpeed(liveOffsetUs: 1_000_000, bufferedDurationUs: 900_000, elapsedRealtimeMs: 0)
                == 0.97)
    }

    @Test("the ExoPlayer target live offset grows by 0.5 s per rebuffer, up to the maximum offset")
    func exoplayerTargetOffsetGrowsByTheRebufferIncrement() {
        var unconfigured = DefaultLivePlaybackSpeedControl()
        unconfigured.notifyRebuffer()
        #expect(unconfigured.targetLiveOffsetUs == DefaultLivePlaybackSpeedControl.unsetTime)
        var control = Self.configured()
        control.notifyRebuffer()
        #expect(control.targetLiveOffsetUs == 4_500_000)
        var builder = DefaultLivePlaybackSpeedControl.Builder()
        builder.targetLiveOffsetIncrementOnRebufferMs = 1000
        var capped = DefaultLivePlaybackSpeedControl(builder)
        capped.setLiveConfiguration(
            targetOffsetMs: 4000, minOffsetMs: DefaultLivePlaybackSpeedControl.unsetTime, maxOffsetMs: 4600,
            minPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate,
            maxPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate)
        capped.notifyRebuffer()
        #expect(capped.targetLiveOffsetUs == 4_600_000)
    }

    @Test("the ExoPlayer target override applies unclamped and clears, and speeds fixed at 1 disable control")
    func exoplayerOverridesAndTheSpeedDisabledCase() {
        var control = DefaultLivePlaybackSpeedControl()
        control.setLiveConfiguration(
            targetOffsetMs: 5000, minOffsetMs: 3000, maxOffsetMs: 10_000,
            minPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate,
            maxPlaybackSpeed: DefaultLivePlaybackSpeedControl.unsetRate)
        control.setTargetLiveOffsetOverrideUs(2_000_000)  // below the min offset: media3 does not clamp it
        #expect(control.targetLiveOffsetUs == 2_000_000)
        control.setTargetLiveOffsetOverrideUs(DefaultLivePlaybackSpeedControl.unsetTime)
        #expect(control.targetLiveOffsetUs == 5_000_000)
        var fixed = DefaultLivePlaybackSpeedControl()
        fixed.setLiveConfiguration(
            targetOffsetMs: 3000, minOffsetMs: DefaultLivePlaybackSpeedControl.unsetTime,
            maxOffsetMs: DefaultLivePlaybackSpeedControl.unsetTime, minPlaybackSpeed: 1, maxPlaybackSpeed: 1)
        #expect(
            fixed.getAdjustedPlaybackSpeed(liveOffsetUs: 9_000_000, bufferedDurationUs: 0, elapsedRealtimeMs: 0) == 1)
        #expect(fixed.targetLiveOffsetUs == DefaultLivePlaybackSpeedControl.unsetTime)
    }

    @Test(
        "the Shaka live sync plays 1.1 above target + 0.5 s, 0.95 below target − 0.5 s and soon after a panic rebuffer")
    func shakaUsesItsThresholdsAndPanicMode() {
        var shaka = ShakaLiveSync()
        #expect(shaka.decide(Self.state(latency: 3.6)).playbackRate == 1.1)  // above 3 + 0.5
        #expect(shaka.decide(Self.state(latency: 3.5)).playbackRate == 1)
        #expect(shaka.decide(Self.state(latency: 2.4)).playbackRate == 0.95)  // below 3 − 0.5
        shaka.panicMode = true
        shaka.notifyRebufferEnded(nowSeconds: 100)
        #expect(shaka.decide(Self.state(latency: 3.6, now: 160)).playbackRate == 0.95)
        #expect(shaka.decide(Self.state(latency: 3.6, now: 160.5)).playbackRate == 1.1)
    }
}
