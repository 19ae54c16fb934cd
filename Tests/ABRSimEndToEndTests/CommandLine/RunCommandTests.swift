import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim run` on good input: the files it writes and their determinism.
@Suite("abrsim run")
struct RunCommandTests {
    @Test("two runs of one scenario and seed write byte-identical tables")
    func sameScenarioAndSeedGiveByteIdenticalOutputs() throws {
        let directory = TestPaths.scratch("det")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = TestPaths.scenarios + "/tunnel-stall.json"
        let first = try runABRSim(["run", scenario, "--out", directory + "/a"])
        let second = try runABRSim(["run", scenario, "--out", directory + "/b"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(second.status == 0)
        for name in ["summary.csv", "segments.csv", "timeline.csv"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: directory + "/a/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: directory + "/b/" + name))
            #expect(a == b, "\(name) differs between runs")
            #expect(a.count > 100)
        }
        #expect(first.standardOutput.contains("car"))
    }

    @Test("run's summary, segments and timeline tables have the documented columns")
    func outputsHaveTheDocumentedColumns() throws {
        let directory = TestPaths.scratch("cols")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim(["run", TestPaths.scenarios + "/tunnel-stall.json", "--out", directory])
        #expect(outcome.status == 0)
        func columns(_ name: String) throws -> [String] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            return try CSVTable.parse(bytes, file: name).columns
        }
        let summary = try columns("summary.csv")
        for column in [
            "scenario", "player", "policy", "trace", "segments", "startup_s", "stall_count", "stall_s",
            "rebuffer_ratio", "avg_bitrate_kbps", "switch_count", "bytes", "played_s", "qoe_lin",
        ] {
            #expect(summary.contains(column), "summary.csv lacks \(column)")
        }
        let segments = try columns("segments.csv")
        for column in [
            "scenario", "player", "policy", "trace", "segment", "variant", "bitrate_kbps", "bytes", "request_s",
            "first_byte_s", "done_s", "throughput_kbps", "buffer_before_s", "buffer_after_s", "stall_s",
        ] {
            #expect(segments.contains(column), "segments.csv lacks \(column)")
        }
        let timeline = try columns("timeline.csv")
        for column in [
            "t_s", "player", "state", "time_control_status", "waiting_reason", "buffer_s", "bitrate_kbps",
            "likely_to_keep_up", "buffer_empty", "buffer_full",
        ] {
            #expect(timeline.contains(column), "timeline.csv lacks \(column)")
        }
    }

    @Test("the tunnel scenario stalls, its per-segment stalls add up to the summary's, and all 360 s play")
    func theTunnelScenarioStallsAndTheSummaryAgreesWithTheSegments() throws {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/tunnel-stall.json")
        let report = try ScenarioRunner().run(scenario)
        let player = report.players[0]
        #expect(player.summary.stallCount >= 1)
        // Stall seconds per segment add up to the total (every stall ends with an arrival).
        let perSegment = player.segments.reduce(0) { $0 + $1.stallSeconds }
        #expect(abs(perSegment - player.summary.stallSeconds) < 1e-6)
        // The buffer is never negative and the whole content is played.
        #expect(player.segments.allSatisfy { $0.bufferBeforeSeconds >= 0 && $0.bufferAfterSeconds >= 0 })
        #expect(abs(player.summary.playedSeconds - 360) < 1e-6)
        #expect(player.summary.finalState == .ended)
    }

    @Test(
        "the default walk from WiFi to 3G adapts down and drains the buffer, and its twin that does not wait stalls more"
    )
    func theDefaultScenarioAdaptsDownAsTheLinkDegrades() throws {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/wifi-lte-3g.json")
        let report = try ScenarioRunner().run(scenario)
        let segments = report.players[0].segments
        // Mean bitrate requested in the WiFi-class stretch (first 120 s) versus on 3G (after 263 s).
        func meanKbps(_ range: ClosedRange<Double>) -> Double {
            let inRange = segments.filter { range.contains($0.requestTime) }
            return inRange.reduce(0) { $0 + $1.bitrateBps } / Double(inRange.count) / 1000
        }
        let wifi = meanKbps(10...115)
        let threeG = meanKbps(330...600)
        #expect(wifi > 4 * threeG, "WiFi \(wifi) kbit/s vs 3G \(threeG) kbit/s")
        // The buffer drains when the link drops below the lowest rung: its minimum on 3G is below its WiFi level.
        let wifiBuffer = segments.filter { (60...115).contains($0.requestTime) }.map(\.bufferBeforeSeconds).min()!
        let threeGBuffer = segments.filter { $0.requestTime > 263 }.map(\.bufferBeforeSeconds).min()!
        #expect(threeGBuffer < wifiBuffer)
        // The twin that does not wait stalls more often on the same walk.
        let twin = try ScenarioLoader().load(TestPaths.scenarios + "/wifi-lte-3g-no-wait.json")
        let twinReport = try ScenarioRunner().run(twin, recordsTimeline: false)
        #expect(twinReport.players[0].summary.stallCount > report.players[0].summary.stallCount)
    }
}
