import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim export p1203` through the binary, on a real run.
@Suite("abrsim export p1203")
struct ExportCommandTests {
    @Test(
        "export p1203 lists every played segment at its rung's resolution, and stalling adds up to startup plus stalls")
    func exportsEveryPlayedSegmentAndAllStallTime() throws {
        let scratch = TestPaths.scratch("export")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = TestPaths.scenarios + "/wifi-lte-3g.json"
        let run = try runABRSim(["run", scenario, "--out", scratch + "/r"])
        #expect(run.status == 0, "\(run.standardError)")
        let export = try runABRSim(["export", "p1203", scratch + "/r", "--scenario", scenario, "--fps", "30"])
        #expect(export.status == 0, "\(export.standardError)")
        let summary = try CSVTable.parse(try InputFile.readAll(scratch + "/r/summary.csv"), file: "summary.csv")
        let path = scratch + "/r-p1203/main.json"
        let root = try JSONReader(JSONParser.parseFile(path), file: path).object()
        let segments = try root.required("I13").object().required("segments").array()
        #expect(segments.count == Int(summary.column("segments")![0])!)
        let resolutions = try segments.map { try $0.object().required("resolution").string() }
        #expect(
            Set(resolutions).isSubset(of: [
                "416x234", "480x270", "640x360", "768x432", "960x540", "1280x720", "1920x1080",
            ]))
        let ladder = [
            "416x234", "480x270", "640x360", "768x432", "960x540", "1280x720", "1920x1080", "1920x1080", "1920x1080",
        ]
        let rows = try CSVTable.parse(try InputFile.readAll(scratch + "/r/segments.csv"), file: "segments.csv")
        let played = zip(rows.column("variant")!, rows.column("abandoned")!).filter { $0.1 == "false" }.map {
            ladder[Int($0.0)!]
        }
        #expect(resolutions == played)  // each segment's own rung, in order
        let stalls = try root.required("I23").object().required("stalling").array().map {
            try $0.array().map { try $0.double() }
        }
        let stalled = stalls.reduce(0) { $0 + $1[1] }
        let expected = Double(summary.column("startup_s")![0])! + Double(summary.column("stall_s")![0])!
        #expect(abs(stalled - expected) < 1e-9)
        #expect(stalls.first?[0] == 0)
    }

    @Test("export of a table missing a column exits 2 with one line naming it and writes nothing")
    func aBrokenTableIsOneLineAndWritesNothing() throws {
        let scratch = TestPaths.scratch("export-bad")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch + "/r", withIntermediateDirectories: true)
        writeFile(scratch + "/r", "segments.csv", "player,segment\nmain,0\n")
        writeFile(scratch + "/r", "timeline.csv", "t_s,player,state,playhead_s\n0,main,playing,0\n")
        writeFile(scratch + "/r", "summary.csv", "player,startup_s\nmain,0.5\n")
        let export = try runABRSim(["export", "p1203", scratch + "/r"])
        #expect(export.status == 2)
        #expect(export.standardError == "abrsim export: \(scratch)/r/segments.csv: line 1: missing column 'variant'\n")
        #expect(export.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/r-p1203"))
    }

    @Test("an unknown export format or a missing results folder is a one-line error, exit 2")
    func badArgumentsAreOneLineErrors() throws {
        let unknown = try runABRSim(["export", "mos", "/tmp"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "abrsim export: FORMAT: unknown format 'mos' (known: p1203)\n")
        let missing = try runABRSim(["export", "p1203", "/nonexistent-abrsim-results"])
        #expect(missing.status == 2)
        #expect(missing.standardError == "abrsim export: /nonexistent-abrsim-results: no such folder\n")
    }
}
