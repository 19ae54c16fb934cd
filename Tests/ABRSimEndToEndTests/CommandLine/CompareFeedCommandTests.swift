import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim compare --scenario FEED` (issue 17) on `Tests/Fixtures/feed/compare-feed.json`: its `feed.csv` rows are
/// those of `abrsim run` with each policy set, and `stats.csv` summarises those rows.
@Suite("abrsim compare on a feed scenario runs the feed under each policy")
struct CompareFeedCommandTests {
    static let scenario = TestPaths.packageRoot + "/Tests/Fixtures/feed/compare-feed.json"
    static let traces = TestPaths.data + "/traces/pensieve/test"
    static let preload = #"feed.preload="chunks(count=2,items=2)""#

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("the feed and item rows of a two-policy compare are those of two abrsim runs, with one job or two")
    func feedRowsRoundTripThroughRun() throws {
        let directory = TestPaths.scratch("cmpfeed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let common = [
            "compare", "--scenario", Self.scenario, "--set", Self.preload, "--policies", "bba,fixed(variant=2)",
        ]
        let two = try runABRSim(common + ["--jobs", "2", "--out", directory + "/two"])
        #expect(two.status == 0, "\(two.standardError)")
        let one = try runABRSim(common + ["--jobs", "1", "--out", directory + "/one"])
        #expect(one.status == 0, "\(one.standardError)")
        for name in ["feed.csv", "items.csv", "stats.csv"] {
            #expect(
                try Self.bytes(directory + "/one/" + name) == Self.bytes(directory + "/two/" + name),
                "\(name) depends on the number of jobs")
        }
        let compared = try Self.table(directory + "/two/feed.csv")
        let items = try Self.table(directory + "/two/items.csv")
        var runRows: [[String]] = []
        var runItems: [[String]] = []
        for (index, policy) in ["bba", "fixed(variant=2)"].enumerated() {
            let out = directory + "/run\(index)"
            let run = try runABRSim([
                "run", Self.scenario, "--set", Self.preload, "--set", "feed.player.policy=\"\(policy)\"", "--out", out,
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let feed = try Self.table(out + "/feed.csv")
            #expect(feed.columns == compared.columns)
            runRows += feed.rows
            runItems += try Self.table(out + "/items.csv").rows
        }
        #expect(compared.rows == runRows)
        #expect(items.rows == runItems)
        #expect(compared.column("preload")!.allSatisfy { $0 == "chunks(count=2,items=2)" })
        // The two policies load differently: the rows are not one run twice.
        #expect(compared.column("bytes")![0] != compared.column("bytes")![1])
    }

    @Test("stats.csv holds each policy's mean of every feed.csv metric over the traces, paired against the first")
    func statsAreTheMeansOfTheFeedRows() throws {
        let directory = TestPaths.scratch("cmpfeedstats")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim([
            "compare", "--scenario", Self.scenario, "--policies", "throughput,fixed(variant=0)", "--traces",
            Self.traces + "/norway_ferry_1", Self.traces + "/norway_ferry_2", "--out", directory,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let feed = try Self.table(directory + "/feed.csv")
        #expect(feed.column("policy")! == ["throughput", "throughput", "fixed(variant=0)", "fixed(variant=0)"])
        #expect(feed.column("trace")! == ["norway_ferry_1", "norway_ferry_2", "norway_ferry_1", "norway_ferry_2"])
        let stats = try Self.table(directory + "/stats.csv")
        let metrics = ["startup_mean_s", "wasted_bytes", "download_watch_ratio", "score", "stall_s", "bytes"]
        for metric in metrics {
            let values = feed.column(metric)!.map { Double($0)! }
            for (offset, policy) in ["throughput", "fixed(variant=0)"].enumerated() {
                let own = Array(values[(2 * offset)..<(2 * offset + 2)])
                let row = try #require(
                    stats.rows.firstIndex { $0[0] == policy && $0[1] == metric }, "\(policy) \(metric)")
                let mean = Double(stats.column("mean")![row])!
                #expect(abs(mean - (own[0] + own[1]) / 2) <= 1e-9 * max(1, abs(mean)), "\(policy) \(metric)")
                #expect(stats.column("n")![row] == "2")
                if offset == 1 {
                    let difference = Double(stats.column("diff_mean")![row])!
                    let expected = ((own[0] - values[0]) + (own[1] - values[1])) / 2
                    #expect(abs(difference - expected) <= 1e-9 * max(1, abs(expected)), "\(metric) difference")
                }
            }
        }
        #expect(outcome.standardOutput.contains("2 policies × 2 networks of a feed"))
    }
}
