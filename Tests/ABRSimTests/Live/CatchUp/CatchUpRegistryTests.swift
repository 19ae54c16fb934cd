import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The controllers made by name, used through the protocol as a player will.
@Suite("catch-up controllers made by name")
struct CatchUpRegistryTests {
    @Test("each catch-up name makes its controller, deciding the expected rate 1 s behind target; avplayer is refused")
    func everyNameMakesItsControllerAndDecidesThroughTheProtocol() throws {
        // 1 s behind a 3 s target with 2 s buffered, playing at 1.
        let state = LiveCatchUpState(
            nowSeconds: 10, latencySeconds: 4, targetLatencySeconds: 3, bufferSeconds: 2, currentRate: 1)
        let expected: [String: Double] = [
            "dashjs": 0.5 + 1 / (1 + 0.0067379469990854671),  // 0.5 + 1 / (1 + e^-5)
            "dashjs-lolp": 0.5 + 1 / (1 + 0.0067379469990854671),
            "exoplayer": Double(Float(1.03)),  // 1 + 0.1 × 1 = 1.1, clamped
            "shaka": 1.1,
            "none": 1,
        ]
        for name in LiveCatchUpControllers.names {
            var controller = try LiveCatchUpControllers.controller(named: name)
            #expect(controller.name == name)
            let decision = controller.decide(state)
            #expect(abs(decision.playbackRate - expected[name]!) <= 1e-15, "\(name): \(decision.playbackRate)")
            #expect(!decision.seeksToLiveEdge)
            controller.notifyRebuffer(nowSeconds: 11)
        }
        #expect(LiveCatchUpControllers.make("avplayer") == nil)
        #expect(throws: InputError.self) { try LiveCatchUpControllers.controller(named: "avplayer") }
    }

    @Test("every registered catch-up name is found and makes its player's controller with that player's defaults")
    func everyRegisteredNameIsFoundWithItsPlayersDefaults() throws {
        let defaults: [String: any LiveCatchUpController] = [
            "dashjs": DashCatchupController(),
            "dashjs-lolp": DashCatchupController(settings: DashLiveCatchupSettings(mode: .liveCatchupModeLoLP)),
            "exoplayer": DefaultLivePlaybackSpeedControl(),
            "shaka": ShakaLiveSync(),
            "none": NoLiveCatchUp(),
        ]
        #expect(Set(LiveCatchUpControllers.names) == Set(defaults.keys))
        for name in LiveCatchUpControllers.names {
            let controller = try LiveCatchUpControllers.controller(named: name)
            #expect(controller.name == name)
            // Same type and every stored setting and state equal to the player's default construction.
            #expect(String(reflecting: controller) == String(reflecting: defaults[name]!), "\(name)")
        }
        let dash = try #require(try LiveCatchUpControllers.controller(named: "dashjs") as? DashCatchupController)
        #expect(dash.settings.effectiveMode == .liveCatchupModeDefault)
        #expect(dash.settings.catchupPlaybackRates == (min: -0.5, max: 0.5))
        #expect(dash.settings.catchupMaxDrift == 12)
        #expect(dash.settings.playbackBufferMin == 0.5)
        #expect(dash.settings.minPlaybackRateChange == 0.02)
        let lolp = try #require(try LiveCatchUpControllers.controller(named: "dashjs-lolp") as? DashCatchupController)
        #expect(lolp.settings.effectiveMode == .liveCatchupModeLoLP)
        let shaka = try #require(try LiveCatchUpControllers.controller(named: "shaka") as? ShakaLiveSync)
        #expect(shaka.targetLatencyTolerance == 0.5)
        #expect(shaka.maxPlaybackRate == 1.1)
        #expect(shaka.minPlaybackRate == 0.95)
        #expect(shaka.panicThreshold == 60)
        #expect(!shaka.panicMode)
        let exoplayer = try #require(
            try LiveCatchUpControllers.controller(named: "exoplayer") as? DefaultLivePlaybackSpeedControl)
        #expect(exoplayer.targetLiveOffsetUs == DefaultLivePlaybackSpeedControl.unsetTime)
        #expect(try LiveCatchUpControllers.controller(named: "none") is NoLiveCatchUp)
    }

    @Test("through the protocol ExoPlayer's target grows 0.5 s after a rebuffer, then eases back by 29 999 µs")
    func exoplayerThroughTheProtocolGrowsItsTargetAfterARebuffer() throws {
        var controller = try LiveCatchUpControllers.controller(named: "exoplayer")
        let state = LiveCatchUpState(
            nowSeconds: 0, latencySeconds: 3, targetLatencySeconds: 3, bufferSeconds: 2, currentRate: 1)
        #expect(controller.decide(state).playbackRate == 1)
        controller.notifyRebuffer(nowSeconds: 0.5)
        #expect((controller as? DefaultLivePlaybackSpeedControl)?.targetLiveOffsetUs == 3_500_000)
        // The next update lowers the 3.5 s target towards the ideal 3 s by at most (max speed − 1) × the update
        // interval, (1.03f − 1) × 10^6 µs = 29 999 µs in Float32; latency 3 s is then 0.47 s early:
        // 1 − 0.1 × 0.470001 ≈ 0.953, clamped to 0.97.
        #expect(controller.decide(state).playbackRate == Double(Float(0.97)))
        #expect((controller as? DefaultLivePlaybackSpeedControl)?.targetLiveOffsetUs == 3_470_001)
    }

    @Test("the shaka and none controllers fill the drift, rate, action and rate-after columns")
    func shakaAndNoneFillTheDecisionColumns() throws {
        let table = CSVTable(
            columns: ["target_latency_s", "latency_s", "buffer_s", "current_rate"], rows: [["3", "4", "2", "1"]])
        let shaka = try CSVTable.parse(
            try LiveCatchUpTable.evaluate(table, file: "rows.csv", controllerName: "shaka"), file: "out")
        #expect(shaka.columns.suffix(4) == ["drift_s", "new_rate", "action", "rate_after"])
        #expect(shaka.rows[0].suffix(4) == ["1", "1.1", "set_rate", "1.1"])
        let none = try CSVTable.parse(
            try LiveCatchUpTable.evaluate(table, file: "rows.csv", controllerName: "none"), file: "out")
        #expect(none.rows[0].suffix(4) == ["1", "1", "inactive", "1"])
    }
}
