import ABRSimTestSupport
import Testing

@testable import ABRSim

@Suite("tables streamed as the run goes")
struct StreamedRunTablesTests {
    /// The files of `scenario`'s run written from the kept records and from a sink spilling in pieces of
    /// `pieceBytes`, name by name, and the streamed run's report.
    static func bothBundles(_ path: String, pieceBytes: Int) throws -> (
        kept: OutputBundle, streamed: OutputBundle, report: RunReport, tables: StreamedRunTables
    ) {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/" + path)
        let kept = RunTables.bundle(for: try ScenarioRunner().run(scenario))
        let tables = try StreamedRunTables(for: scenario, pieceBytes: pieceBytes)
        let report = try ScenarioRunner().run(scenario, recordSink: tables)
        return (kept, RunTables.bundle(for: report, streamed: tables), report, tables)
    }

    @Test("a run with every output is refused for its records only when it still holds them")
    func aStreamedRunIsRefusedOnlyWhenItHoldsRecords() throws {
        let bad = TestPaths.packageRoot + "/Tests/Fixtures/bad/"
        // 8 players × 10⁶ segments: over the limit for kept records, but a streamed run holds none.
        let eight = try ScenarioLoader().load(bad + "limits-records-too-many.json")
        #expect(eight.recordMemoryError != nil)
        #expect(StreamedRunTables.memoryError(runningWithEveryOutput: eight) == nil)
        // 300 players × 10⁴ segments: the plots of more than 256 players read the tables back whole.
        let many = try ScenarioLoader().load(bad + "limits-records-too-many-players.json")
        let refusal = try #require(StreamedRunTables.memoryError(runningWithEveryOutput: many))
        #expect(refusal.description.contains("300 players × their segments (3000000 in all)"))
        // Chunked live content keeps its chunk timings; other content does not.
        var chunked = try ScenarioLoader().load(TestPaths.scenarios + "/ci/live/chunked-latency.json")
        var plain = try ScenarioLoader().load(TestPaths.scenarios + "/wifi-lte-3g.json")
        #expect(chunked.keepsChunkRecords && !plain.keepsChunkRecords)
        #expect(StreamedRunTables.memoryError(runningWithEveryOutput: chunked) == nil)
        chunked.recordMemoryError = refusal
        plain.recordMemoryError = refusal
        #expect(StreamedRunTables.memoryError(runningWithEveryOutput: chunked) != nil)
        #expect(StreamedRunTables.memoryError(runningWithEveryOutput: plain) == nil)
    }

    @Test(
        "the streamed tables have the bytes of the tables of the kept records",
        arguments: [
            "multiview-priority.json", "multiview-coordinated.json", "ci/pause-seek.json", "ci/cache-seek-back.json",
            "ci/live/chunked-latency.json", "live/ll-dash-chunked.json", "ci/live/multiview-latency.json",
            "wifi-lte-3g.json",
        ])
    func sameBytes(path: String) throws {
        // Small pieces, so every table goes through the spill file many times; and the default size.
        for pieceBytes in [64, 1 << 20] {
            let (kept, streamed, _, _) = try Self.bothBundles(path, pieceBytes: pieceBytes)
            #expect(streamed.names == kept.names, "\(path)")
            for name in kept.names {
                let expected = try #require(kept.bytes(named: name))
                #expect(expected.count > 100, "\(path) \(name)")
                #expect(streamed.bytes(named: name) == expected, "\(path) \(name), pieces of \(pieceBytes)")
            }
        }
    }

    @Test(
        "a streamed run keeps no record per segment: the report holds none, the sink a few rows and requests a player")
    func holdsNoRecords() throws {
        let (kept, _, report, tables) = try Self.bothBundles("multiview-priority.json", pieceBytes: 64)
        #expect(report.players.count == 4)
        #expect(report.players.allSatisfy { $0.segments.isEmpty && $0.timeline.isEmpty })
        let keptReport = try ScenarioRunner().run(
            try ScenarioLoader().load(TestPaths.scenarios + "/multiview-priority.json"))
        let segments = keptReport.players.reduce(0) { $0 + $1.segments.count }
        let rows = keptReport.players.reduce(0) { $0 + $1.timeline.count }
        #expect(segments > 50 && rows > 50)
        // The access log's fields (32 bytes a row, 72 a request) go to the spill file but for the last two of each
        // player (pieces of 64 bytes: 16 per player and table).
        #expect(MemoryLayout<AccessLog.Row>.stride == 32)
        #expect(MemoryLayout<AccessLog.Request>.stride == 72)
        #expect(tables.heldAccessLogBytes <= 4 * 2 * (32 + 72))
        #expect(tables.heldAccessLogBytes + tables.spilledAccessLogBytes == rows * 32 + segments * 72)
        #expect(MemoryLayout<TimelineRecord>.stride > 32 && MemoryLayout<SegmentRecord>.stride > 72)
        // The summaries, made from the tallies the players fed as they went, are those of the kept records.
        #expect(kept.bytes(named: "summary.csv") == RunTables.bundle(for: report).bytes(named: "summary.csv"))
    }

    @Test("a player given a sink hands it every record and keeps only the tally and its last row")
    func playerKeepsNothing() throws {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/ci/pause-seek.json")
        final class Counter: RunRecordSink {
            var segments = 0
            var rows = 0
            var replaced = 0
            func take(segment record: SegmentRecord) { segments += 1 }
            func take(row: TimelineRecord, replacing: Bool) { if replacing { replaced += 1 } else { rows += 1 } }
        }
        let counter = Counter()
        let keptReport = try ScenarioRunner().run(scenario)
        let report = try ScenarioRunner().run(scenario, recordSink: counter)
        #expect(counter.segments == keptReport.players[0].segments.count)
        #expect(counter.rows == keptReport.players[0].timeline.count)
        #expect(report.players[0].segments.isEmpty && report.players[0].timeline.isEmpty)
        #expect(report.players[0].summary == keptReport.players[0].summary)
    }
}
