import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The C API (`abrsim_run`, `abrsim_sweep`, what the Python package calls) on a feed scenario: it hands back the
/// feed's `items.csv` and `feed.csv` beside the player tables, the bytes `abrsim run` and `abrsim sweep` write.
@Suite("the C API runs and sweeps a feed scenario, handing back items.csv and feed.csv")
struct CAPIFeedTests {
    static let feed = TestPaths.packageRoot + "/Tests/Fixtures/feed/compare-feed.json"

    /// The framed tables of a C API call (`name length\n` then the bytes, repeated), by name; the status too.
    static func call(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Int>) -> Int32
    ) -> (status: Int32, tables: [String: [UInt8]], message: String) {
        var out: UnsafeMutablePointer<CChar>?
        var length = 0
        let status = body(&out, &length)
        defer { abrsim_free(out) }
        let bytes =
            out.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                    Array(UnsafeBufferPointer(start: $0, count: length))
                }
            } ?? []
        guard status == 0 else { return (status, [:], String(decoding: bytes, as: UTF8.self)) }
        var tables: [String: [UInt8]] = [:]
        var position = 0
        while position < bytes.count {
            let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n"))!
            let header = String(decoding: bytes[position..<end], as: UTF8.self).split(separator: " ")
            let count = Int(header[1])!
            tables[String(header[0])] = Array(bytes[(end + 1)..<(end + 1 + count)])
            position = end + 1 + count
        }
        return (status, tables, "")
    }

    /// The report of the fixture run directly, with the viewer's policy `policy`.
    static func report(policy: String) throws -> RunReport {
        let loader = ScenarioLoader(settings: [try ScenarioSetting.parse("feed.player.policy=\"\(policy)\"")])
        return try ScenarioRunner().run(try loader.load(feed))
    }

    @Test("abrsim_run of a feed hands back one items.csv row per item and the feed.csv row of the run")
    func runHandsBackTheFeedTables() throws {
        let result = Self.call { out, length in abrsim_run(Self.feed, nil, 0, nil, nil, -1, out, length) }
        #expect(result.status == 0, "\(result.message)")
        let report = try Self.report(policy: "throughput")
        let summary = try #require(report.feed)
        #expect(result.tables["items.csv"] == FeedTables.items(report, summary))
        #expect(result.tables["feed.csv"] == FeedTables.session(report, summary))
        let items = try CSVTable.parse(result.tables["items.csv"] ?? [], file: "items.csv")
        #expect(items.rows.map { $0[items.columns.firstIndex(of: "item")!] } == ["a-0", "b-1", "a-2", "b-3", "a-4"])
        #expect(result.tables["segments.csv"]?.isEmpty == false)
    }

    @Test("abrsim_sweep of a feed under two policies hands back each run's feed and item rows in run order")
    func sweepHandsBackEveryRunsFeedTables() throws {
        let folder = TestPaths.scratch("capi-feed-sweep")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = Self.call { out, length in
            abrsim_sweep(
                Self.feed, nil, 0, nil, nil, "", "throughput\nbba", -1, 2, 1, folder, nil, nil, nil, nil, out, length)
        }
        #expect(result.status == 0, "\(result.message)")
        var feedRows = FeedTables.session.writer()
        var itemRows = FeedTables.items.writer()
        for policy in ["throughput", "bba"] {
            let report = try Self.report(policy: policy)
            let summary = try #require(report.feed)
            FeedTables.session.append(FeedTables.sessionRow(report, summary), to: &feedRows)
            FeedTables.appendItems(report, summary, to: &itemRows)
        }
        #expect(result.tables["feed.csv"] == feedRows.takeBytes())
        #expect(result.tables["items.csv"] == itemRows.takeBytes())
    }
}
