import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Live content through the binary: the latency columns of `run`, `compare` and `sweep`, only where a player is
/// live, and the live-edge invariant over every timeline row.
@Suite("live runs through the binary")
struct LiveRunTests {
    static let constant = TestPaths.packageRoot + "/scenarios/ci/live/constant-latency.json"
    static let multiview = TestPaths.packageRoot + "/scenarios/ci/live/multiview-latency.json"

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test("a live run writes latency (edge − playhead) and rate columns and never buffers past the edge")
    func aLiveRunWritesLatencyAndRateAndNeverBuffersPastTheEdge() throws {
        let out = TestPaths.scratch("live-run")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim(["run", Self.multiview, "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let timeline = try Self.table(out + "/timeline.csv")
        #expect(Array(timeline.columns.suffix(2)) == ["latency_s", "rate"])
        let time = timeline.column("t_s")!.map { Double($0)! }
        let playhead = timeline.column("playhead_s")!.map { Double($0)! }
        let buffer = timeline.column("buffer_s")!.map { Double($0)! }
        let latency = timeline.column("latency_s")!
        // The availability start is −30 s: the live edge at t is t + 30.
        for row in time.indices {
            #expect(playhead[row] + buffer[row] <= time[row] + 30 + 1e-9)
            if let value = Double(latency[row]) { #expect(abs(value - (time[row] + 30 - playhead[row])) < 1e-9) }
        }
        let summary = try Self.table(out + "/summary.csv")
        #expect(
            Array(summary.columns.suffix(4)) == [
                "latency_mean_s", "latency_p95_s", "time_above_target_latency_s", "catchup_seeks",
            ])
    }

    @Test("a video-on-demand run writes the on-demand timeline and summary columns only")
    func aVideoOnDemandRunHasNoLatencyColumns() throws {
        let out = TestPaths.scratch("vod-run")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim(["run", TestPaths.packageRoot + "/scenarios/ci/double-rate.json", "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(try Self.table(out + "/timeline.csv").columns == RunTables.timelineColumns)
        #expect(try Self.table(out + "/summary.csv").columns == RunTables.summaryColumns)
    }

    @Test("compare on live content reports the four latency metrics in its statistics")
    func compareOnLiveContentReportsLatencyInItsStatistics() throws {
        let out = TestPaths.scratch("live-compare")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let trace = TestPaths.packageRoot + "/Tests/Fixtures/bad/ok/constant.csv"
        let outcome = try runABRSim([
            "compare", "--scenario", Self.constant, "--traces", trace, "--policies", "throughput,bba", "--out", out,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let stats = try Self.table(out + "/stats.csv")
        let metrics = Set(stats.column("metric")!)
        for name in ["latency_mean_s", "latency_p95_s", "time_above_target_latency_s", "catchup_seeks"] {
            #expect(metrics.contains(name))
        }
        #expect(try Self.table(out + "/summary.csv").columns.contains("latency_mean_s"))
    }

    @Test("a live sweep keeps the latency columns, both policies' mean latency within 6 to 7 s")
    func sweepOnLiveContentKeepsTheLatencyColumns() throws {
        let out = TestPaths.scratch("live-sweep")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim(["sweep", Self.constant, "--policies", "throughput,bba", "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = try Self.table(out + "/summary.csv")
        #expect(summary.rows.count == 2)
        let means = summary.column("latency_mean_s")!.map { Double($0)! }
        for mean in means { #expect(mean >= 6 && mean <= 7) }
    }

    @Test("two shards of a live sweep merge into the whole sweep's summary, latency columns included")
    func shardsOfALiveSweepMergeIntoTheWholeSweep() throws {
        let out = TestPaths.scratch("live-shards")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let sweep = ["sweep", Self.constant, "--policies", "throughput,bba,dynamic"]
        for shard in ["1/2", "2/2"] {
            let outcome = try runABRSim(sweep + ["--shard", shard, "--out", out + "/" + shard.prefix(1)])
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        #expect(try runABRSim(sweep + ["--out", out + "/whole"]).status == 0)
        let merged = try runABRSim(["merge", out + "/1", out + "/2", "--out", out + "/merged"])
        #expect(merged.status == 0, "\(merged.standardError)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: out + "/whole/summary.csv"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/merged/summary.csv")) == whole)
        #expect(
            String(decoding: whole, as: UTF8.self).hasPrefix(
                RunTables.summaryColumns(live: true).joined(separator: ",")))
    }
}
