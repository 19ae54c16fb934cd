import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim compare --profile mmgc22` and `abrsim sweep --profile mmgc22`: batches of the challenge's sessions,
/// on our own fixture (`Tests/Fixtures/mmgc22/batch`) always and on the challenge's data against its simulator's
/// outputs when `../shared` is present.
@Suite("abrsim compare and sweep --profile mmgc22")
struct CompareMMGC22Tests {
    static let fixture = TestPaths.packageRoot + "/Tests/Fixtures/mmgc22/batch"
    static let sharedData = TestPaths.packageRoot + "/../shared/data/shortvideo"
    static let sharedResults = TestPaths.packageRoot + "/../shared/reference/shortvideo/results.csv"

    /// Runs a batch into a scratch folder and returns sessions.csv and stats.csv.
    static func batch(_ command: String, _ options: [String]) throws -> (sessions: String, stats: String) {
        let out = TestPaths.scratch("mmgc22-batch")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim([command, "--profile", "mmgc22", "--out", out] + options)
        #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(outcome.standardError)")
        return (
            try String(contentsOfFile: out + "/sessions.csv", encoding: .utf8),
            (try? String(contentsOfFile: out + "/stats.csv", encoding: .utf8)) ?? ""
        )
    }

    static func rows(_ csv: String) -> [[String: String]] {
        let lines = csv.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map({
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        })
        return lines.dropFirst().map({ Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) })
    }

    static let fixtureOptions = ["--data", fixture, "--families", "high,low", "--users", "default,0-2"]

    /// 2 algorithms × (2 high traces + 1 low trace) × 4 users = 24 sessions, algorithm by algorithm; each row's five
    /// printed figures are what `abrsim mmgc22` prints for the same session.
    @Test("24 fixture sessions, one row each, with the figures abrsim mmgc22 prints for the same session")
    func everySessionRowIsTheSingleRunsFigures() throws {
        let (sessions, stats) = try Self.batch("compare", Self.fixtureOptions)
        let rows = Self.rows(sessions)
        #expect(rows.count == 24)
        #expect(rows.prefix(12).allSatisfy({ $0["algorithm"] == "no_save" }))
        #expect(rows.suffix(12).allSatisfy({ $0["algorithm"] == "fixed_preload" }))
        for row in rows.enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) {
            let user = row["user"] == "default" ? ["--user-sample", "default"] : ["--user-sample", row["user"]!]
            let single = try runABRSim(
                [
                    "mmgc22", "--data", Self.fixture, "--algorithm", row["algorithm"]!, "--family", row["family"]!,
                    "--trace", row["trace"]!,
                ] + user)
            let expected = single.standardOutput.split(separator: "\n").map({ String($0) })
            let printed = ["score", "bandwidth_usage_bytes", "qoe", "wasted_bytes", "download_watch_ratio"].map({
                "\($0): \(row[$0]!)"
            })
            #expect(printed == expected, "\(row)")
        }
        // stats.csv: each algorithm's mean score is the mean of its rows.
        for stat in Self.rows(stats) where stat["metric"] == "score" {
            let scores = rows.filter({ $0["algorithm"] == stat["policy"] }).map({ Double($0["score"]!)! })
            #expect(stat["n"] == "12")
            #expect(abs(Double(stat["mean"]!)! - scores.reduce(0, +) / 12) < 1e-12)
        }
    }

    /// The same batch on one thread and on three gives the same bytes; the two shards of a sweep hold every
    /// session of the whole, each once, in the whole's order when interleaved.
    @Test(
        "sessions.csv and stats.csv are byte-identical for --jobs 1 and 3; sweep shards 1/2 and 2/2 make up the whole")
    func outputsDoNotDependOnJobsAndShardsMakeUpTheWhole() throws {
        let one = try Self.batch("compare", Self.fixtureOptions + ["--jobs", "1"])
        let three = try Self.batch("compare", Self.fixtureOptions + ["--jobs", "3"])
        #expect(one.sessions == three.sessions && one.stats == three.stats)
        let whole = try Self.batch("sweep", Self.fixtureOptions).sessions.split(separator: "\n")
        #expect(whole == one.sessions.split(separator: "\n"), "sweep without --shard is compare's batch")
        let first = try Self.batch("sweep", Self.fixtureOptions + ["--shard", "1/2"]).sessions.split(separator: "\n")
        let second = try Self.batch("sweep", Self.fixtureOptions + ["--shard", "2/2"]).sessions.split(separator: "\n")
        #expect(first.count == 13 && second.count == 13)
        var interleaved = [whole[0]]
        for index in 0..<12 { interleaved += [first[index + 1], second[index + 1]] }
        #expect(interleaved == whole)
    }

    /// The challenge's own simulator's fresh default-user runs: every family and trace, both baselines.
    @Test(
        "compare --profile mmgc22 on the challenge's data reproduces all 160 default-user fresh rows of results.csv exactly",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedResults),
            "the challenge's data and reference outputs (../shared) are absent"))
    func theChallengesDefaultRowsAreReproducedExactly() throws {
        let rows = Self.rows(try Self.batch("compare", ["--data", Self.sharedData]).sessions)
        #expect(rows.count == 160)
        let reference = Self.rows(try String(contentsOfFile: Self.sharedResults, encoding: .utf8)).filter({
            $0["scheme"] == "default" && $0["state"] == "fresh" && $0["algorithm"] != "solution"
        })
        var expected: [String: [String: String]] = [:]
        for row in reference { expected["\(row["algorithm"]!)/\(row["family"]!)/\(row["trace"]!)"] = row }
        #expect(expected.count == 160)
        for row in rows {
            let key = "\(row["algorithm"]!)/\(row["family"]!)/\(row["trace"]!)"
            let want = try #require(expected[key], "\(key) is not in results.csv")
            for column in [
                "score", "qoe", "bandwidth_usage_bytes", "wasted_bytes", "download_watch_ratio", "rebuffer_ms",
                "quality_sum_kbps", "smooth_kbps", "downloads", "sleeps", "watch_ms", "aborted_min_qoe",
            ] {
                #expect(row[column] == want[column], "\(key) \(column)")
            }
        }
    }
}
