import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim model catchup`'s bad input through the binary: exit status 2, one line naming the file and the line,
/// nothing written.
@Suite("abrsim model catchup on bad input")
struct CatchUpRegistryTests {
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

    @Test("each bad catch-up table or controller makes model catchup exit 2 with one line naming the file and line")
    func badInputExitsWithStatusTwoNamingTheFileAndLine() throws {
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
