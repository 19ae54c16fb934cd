import Foundation
import Testing

@testable import ABRSim

/// The controllers made by name, used through the protocol as a player will, and `abrsim model catchup`'s bad
/// input through the binary: exit status 2, one line naming the file and the line, nothing written.
struct CatchUpRegistryTests {
    @Test func everyNameMakesItsControllerAndDecidesThroughTheProtocol() throws {
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

    @Test func exoplayerThroughTheProtocolGrowsItsTargetAfterARebuffer() throws {
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

    @Test func shakaAndNoneFillTheDecisionColumns() throws {
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

    static let dashHeader =
        "target_latency_s,latency_s,buffer_s,current_rate,playback_buffer_min_s,rate_min_setting,rate_max_setting,"
        + "max_drift_setting_s,catchup_stalled,playback_stalled,is_safari\n"

    static func expectBadInput(_ arguments: [String], mentions: [String]) throws {
        let folder = TestPaths.scratch("catchup-bad")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out.csv"
        let outcome = try runABRSim(["model", "catchup"] + arguments + ["--out", out], in: folder)
        #expect(outcome.status == 2, "\(arguments): \(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.standardError)")
        for text in mentions { #expect(outcome.standardError.contains(text), "\(outcome.standardError)") }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func badInputExitsWithStatusTwoNamingTheFileAndLine() throws {
        let folder = TestPaths.scratch("catchup-rows")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = "3,4,2,1,0.5,NaN,NaN,NaN,false,false,false\n"
        let missing = writeFile(folder, "missing.csv", "latency_s,buffer_s\n4,2\n")
        let notNumber = writeFile(
            folder, "nan.csv", Self.dashHeader + good + "3,abc,2,1,0.5,NaN,NaN,NaN,false,false,false\n")
        let stateNaN = writeFile(
            folder, "state-nan.csv", Self.dashHeader + "3,NaN,2,1,0.5,NaN,NaN,NaN,false,false,false\n")
        let badFlag = writeFile(
            folder, "flag.csv", Self.dashHeader + good + good + "3,4,2,1,0.5,NaN,NaN,NaN,yes,false,false\n")
        let exo = try String(contentsOfFile: TestPaths.reference + "/live/exoplayer_speed.csv", encoding: .utf8)
        let exoLines = exo.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let badEvent = writeFile(
            folder, "event.csv",
            ([exoLines[0], exoLines[1], exoLines[2].replacingOccurrences(of: ",speed,", with: ",seek,")]).joined(
                separator: "\n") + "\n")
        let badStep = writeFile(
            folder, "step.csv",
            ([exoLines[0], exoLines[1], exoLines[2].replacingOccurrences(of: ",1,0,speed,", with: ",1.5,0,speed,")])
                .joined(separator: "\n") + "\n")
        try Self.expectBadInput(
            ["--controller", "dashjs", missing], mentions: [missing, "line 1", "target_latency_s"])
        try Self.expectBadInput(["--controller", "shaka", missing], mentions: [missing, "line 1", "target_latency_s"])
        try Self.expectBadInput(
            ["--controller", "dashjs", notNumber], mentions: [notNumber, "line 3", "latency_s 'abc' is not a number"])
        try Self.expectBadInput(
            ["--controller", "dashjs-lolp", stateNaN], mentions: [stateNaN, "line 2", "latency_s"])
        try Self.expectBadInput(["--controller", "dashjs", badFlag], mentions: [badFlag, "line 4", "catchup_stalled"])
        try Self.expectBadInput(["--controller", "exoplayer", notNumber], mentions: [notNumber, "line 1", "scenario"])
        try Self.expectBadInput(
            ["--controller", "exoplayer", badEvent], mentions: [badEvent, "line 3", "event 'seek'"])
        try Self.expectBadInput(["--controller", "exoplayer", badStep], mentions: [badStep, "line 3", "step '1.5'"])
        try Self.expectBadInput(["--controller", "avplayer", notNumber], mentions: ["--controller", "avplayer"])
    }
}
