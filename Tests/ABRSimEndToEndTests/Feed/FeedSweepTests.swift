import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim sweep` on a feed scenario (`docs/feed.md`): `--policies` replace the viewer's, a grid may vary the seed
/// and the feed's keys, and every run writes the rows `abrsim run` writes (`summary.csv`, `segments.csv` with its
/// `item` column, `feed.csv`, `items.csv`), whatever `--jobs`, resumed or sharded and merged.
@Suite("sweep of a feed writes the rows of run, resumable and mergeable")
struct FeedSweepTests {
    static let feed = TestPaths.packageRoot + "/Tests/Fixtures/feed/compare-feed.json"
    static let tables = ["summary.csv", "segments.csv", "feed.csv", "items.csv"]
    static let files = tables + [".sweep/manifest", ".sweep/runs.csv", ".sweep/progress"]
    /// 2 seeds × 2 policies on the scenario's network: 4 runs.
    static let seedGrid = ["sweep", feed, "--policies", "throughput,bba", "--grid", "seed=5|6"]
    /// 2 constant traces written into `root` (the scenario's network replaced) × 2 windows × 2 policies: 8 runs.
    static func traceGrid(_ root: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: root + "/traces", withIntermediateDirectories: true)
        for (name, kbps) in [("slow.csv", 700), ("fast.csv", 2500)] {
            try Data("time_s,bandwidth_kbps\n0,\(kbps)\n60,\(kbps)\n".utf8).write(
                to: URL(fileURLWithPath: root + "/traces/" + name))
        }
        return [
            "sweep", feed, "--traces", root + "/traces/slow.csv", root + "/traces/fast.csv", "--policies",
            "throughput,bba", "--grid", "feed.recommendationWindow=1|2",
        ]
    }

    static func sweep(_ arguments: [String], out: String, _ extra: [String] = []) throws {
        let outcome = try runABRSim(arguments + ["--out", out] + extra)
        #expect(outcome.status == 0, "\(outcome.standardError)")
    }

    static func expectSameFolders(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSameFiles(files, a, b, sourceLocation: sourceLocation)
    }

    /// The lines of a table after its header.
    static func rows(_ path: String) -> [Substring] {
        String(decoding: fileBytes(path), as: UTF8.self).split(separator: "\n").dropFirst().map { $0 }
    }

    @Test("each run's rows in every table are the rows abrsim run writes for that seed and policy, then the grid's")
    func everyRunsRowsAreThoseOfAbrsimRun() throws {
        let root = TestPaths.scratch("feed-sweep-rows")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.sweep(Self.seedGrid, out: root + "/sweep")
        let header = String(decoding: fileBytes(root + "/sweep/feed.csv"), as: UTF8.self).prefix { $0 != "\n" }
        #expect(header == FeedTables.session.names.joined(separator: ",") + ",seed")
        var expected: [String: [Substring]] = [:]
        for seed in ["5", "6"] {
            for policy in ["throughput", "bba"] {
                let out = root + "/run-\(seed)-\(policy)"
                let run = try runABRSim([
                    "run", Self.feed, "--seed", seed, "--set", "feed.player.policy=\"\(policy)\"", "--out", out,
                ])
                #expect(run.status == 0, "\(run.standardError)")
                for table in Self.tables {
                    expected[table, default: []] += Self.rows(out + "/" + table).map { Substring($0 + "," + seed) }
                }
            }
        }
        for table in Self.tables {
            let swept = Self.rows(root + "/sweep/" + table)
            #expect(!swept.isEmpty, "\(table) has no rows")
            #expect(swept == expected[table]!, "\(table) differs from abrsim run's rows")
        }
        // The two seeds draw other swipes: the grid reached the runs.
        let feedTable = try CSVTable.parse(fileBytes(root + "/sweep/feed.csv"), file: "feed.csv")
        let column = try #require(feedTable.columns.firstIndex(of: "watched_s"))
        let watched = Set(feedTable.rows.map { $0[column] })
        #expect(watched.count == 2)
        let index = try CSVTable.parse(fileBytes(root + "/sweep/.sweep/runs.csv"), file: "runs.csv")
        #expect(index.columns == ["run", "summary_bytes", "segments_bytes", "feed_bytes", "items_bytes"])
    }

    @Test("a feed sweep on traces writes the same bytes on one job as on two")
    func oneJobAndTwoJobsWriteTheSameBytes() throws {
        let root = TestPaths.scratch("feed-sweep-jobs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let arguments = try Self.traceGrid(root)
        try Self.sweep(arguments, out: root + "/two", ["--jobs", "2"])
        try Self.sweep(arguments, out: root + "/one", ["--jobs", "1", "--batch", "3"])
        #expect(Self.rows(root + "/one/feed.csv").count == 8)
        Self.expectSameFolders(root + "/two", root + "/one")
    }

    @Test("a feed sweep cut after its first run, with torn rows, resumes to the one-shot bytes")
    func aResumedFeedSweepEqualsTheOneShotSweep() throws {
        let root = TestPaths.scratch("feed-sweep-resume")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let whole = root + "/whole"
        let cut = root + "/cut"
        let arguments = try Self.traceGrid(root)
        try Self.sweep(arguments, out: whole, ["--jobs", "2"])
        try Self.sweep(arguments, out: cut, ["--jobs", "1"])
        try rewindSweepToItsFirstRun(cut, tables: Self.tables)
        for file in ["feed.csv", "items.csv"] { try appendTornRow("compare-feed,viewer,thr", to: cut + "/" + file) }
        try expectResumedSweep(arguments, folder: cut, runs: 8, equals: whole, files: Self.files)
    }

    @Test("three shards of a feed sweep merge to the one-shot sweep's bytes")
    func shardsOfAFeedSweepMergeToTheOneShotSweep() throws {
        let root = TestPaths.scratch("feed-sweep-shards")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let arguments = try Self.traceGrid(root)
        try Self.sweep(arguments, out: root + "/whole")
        for k in 1...3 { try Self.sweep(arguments, out: root + "/s\(k)", ["--shard", "\(k)/3", "--jobs", "1"]) }
        #expect(Self.rows(root + "/s2/items.csv").count > 0)
        let merged = try runABRSim(["merge", root + "/s3", root + "/s1", root + "/s2", "--out", root + "/merged"])
        #expect(merged.status == 0, "\(merged.standardError)")
        Self.expectSameFolders(root + "/whole", root + "/merged")
    }

    @Test("a feed sweep with --no-segments writes summary.csv, feed.csv and items.csv but no segments.csv")
    func aFeedSweepWithoutSegmentsKeepsTheFeedTables() throws {
        let out = TestPaths.scratch("feed-sweep-no-segments")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Self.sweep(Self.seedGrid, out: out, ["--no-segments"])
        #expect(!FileManager.default.fileExists(atPath: out + "/segments.csv"))
        #expect(Self.rows(out + "/feed.csv").count == 4)
        #expect(Self.rows(out + "/items.csv").count == 4 * 5)
    }
}
