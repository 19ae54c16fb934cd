import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `compare --profile mmgc22 FEED` and `sweep --profile mmgc22 FEED`: an ABRSim feed scenario run in the challenge's
/// model gives the figures `abrsim mmgc22` gives on the same clips, trace and users written as a data folder; a feed
/// the challenge cannot represent exits 2 naming the JSON path.
@Suite("compare and sweep --profile mmgc22 on a feed scenario")
struct CompareMMGC22ScenarioTests {
    /// Chunk sizes per clip and level (bytes; our own numbers) and retention lines.
    static let clips: [(name: String, sizes: [[Int]], retention: String)] = [
        ("a_near", [[90_000, 95_000], [150_000, 140_000], [230_000, 220_000]], "0 1\n1 0.6\n2 0.6\n3 0\n"),
        (
            "b_far", [[80_000, 99_000, 91_000], [140_000, 160_000, 150_000], [210_000, 240_000, 225_000]],
            "0 1\n1 0.8\n2 0.5\n3 0.5\n4 0\n"
        ),
    ]
    static let trace = (0...40).map { "\($0) \($0 % 3 == 0 ? 1.2 : 5)" }.joined(separator: "\n") + "\n"

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The same clips, curves and trace twice under `root`: as the challenge's data folder (`root/data`) and as a
    /// feed scenario with files of its own (`root/feed/feed.json`). Returns the scenario's path.
    static func writeBothWays(_ root: String) throws -> String {
        for clip in clips {
            for (level, sizes) in clip.sizes.enumerated() {
                let text = sizes.map(String.init).joined(separator: "\n") + "\n"
                try write(text, root + "/data/short_video_size/\(clip.name)/video_size_\(level)")
                try write(text, root + "/feed/sizes/\(clip.name)/video_size_\(level)")
            }
            try write(clip.retention, root + "/data/user_ret/\(clip.name)")
            try write(clip.retention, root + "/feed/curves/\(clip.name).txt")
        }
        try write(trace, root + "/data/network_traces/high/0")
        try write(trace, root + "/feed/link.txt")
        let items = clips.map { clip in
            """
            {"id": "\(clip.name)", "content": {"pensieveSizes": "sizes/\(clip.name)", "ladderKbps": [750, 1200, 1850],
             "segmentSeconds": 1}}
            """
        }
        let curves = clips.map { "{\"file\": \"curves/\($0.name).txt\"}" }
        try write(
            """
            {"name": "mm-feed", "seed": 4, "network": {"trace": "link.txt", "rttMs": 80},
             "feed": {"player": {"id": "viewer", "policy": "throughput"},
                      "items": [\(items.joined(separator: ", "))],
                      "recommendationWindow": 4,
                      "swipe": {"model": "retention", "curves": [\(curves.joined(separator: ", "))]},
                      "preload": "fixed_preload"}}
            """, root + "/feed/feed.json")
        return root + "/feed/feed.json"
    }

    static func rows(_ path: String) -> [[String]] {
        // Split at CRLF too (results.csv has it; Swift reads "\r\n" as one character).
        String(decoding: fileBytes(path), as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test("every session of the feed has the figures of abrsim mmgc22 and of the batch on the same data folder")
    func theFeedsSessionsAreTheDataFoldersSessions() throws {
        let root = TestPaths.scratch("mmgc22-scenario")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = try Self.writeBothWays(root)
        let policies = ["--policies", "no_save,fixed_preload", "--users", "default,0-2"]
        let feed = try runABRSim(["compare", "--profile", "mmgc22", scenario, "--out", root + "/a"] + policies)
        #expect(feed.status == 0, "\(feed.standardError)")
        let data = try runABRSim(
            ["compare", "--profile", "mmgc22", "--data", root + "/data", "--families", "high", "--out", root + "/b"]
                + policies)
        #expect(data.status == 0, "\(data.standardError)")
        let fromFeed = Self.rows(root + "/a/sessions.csv")
        let fromData = Self.rows(root + "/b/sessions.csv")
        #expect(fromFeed.count == 1 + 2 * 4)
        #expect(fromFeed[0] == fromData[0])
        // Every figure (score, QoE, bandwidth, waste, ratio, rebuffer, smoothness, …) identical; the family column
        // is the scenario's trace name.
        for (a, b) in zip(fromFeed.dropFirst(), fromData.dropFirst()) {
            #expect(a[0] == b[0] && a[2...] == b[2...], "\(a) against \(b)")
            #expect(a[1] == "link.txt")
        }
        for row in fromFeed.dropFirst().prefix(2) {
            let single = try runABRSim([
                "mmgc22", "--data", root + "/data", "--algorithm", row[0], "--family", "high", "--trace", "0",
                "--user-sample", row[3],
            ])
            let printed = ["score", "bandwidth_usage_bytes", "qoe", "wasted_bytes", "download_watch_ratio"].map {
                "\($0): \(row[fromFeed[0].firstIndex(of: $0)!])"
            }
            #expect(single.standardOutput.split(separator: "\n").map(String.init) == printed)
        }
        // Without --policies, the scenario's own preload policy; sweep's shards cover the same rows.
        let own = try runABRSim(["sweep", "--profile", "mmgc22", scenario, "--out", root + "/c"])
        #expect(own.status == 0, "\(own.standardError)")
        let ownRows = Self.rows(root + "/c/sessions.csv")
        #expect(ownRows.count == 2 && ownRows[1] == fromFeed[5])
    }

    static let sharedData = TestPaths.packageRoot + "/../shared/data/shortvideo"
    static let sharedResults = TestPaths.packageRoot + "/../shared/reference/shortvideo/results.csv"

    /// The challenge's seven clips and its `high/0` trace written as a feed scenario (paths into `../shared`): the
    /// challenge's simulator's fresh default-user rows of that trace, every figure identical.
    @Test(
        "the challenge's clips and trace as a feed scenario reproduce its simulator's default-user rows of high/0",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedResults),
            "the challenge's data and reference outputs (../shared) are absent"))
    func theChallengesClipsAsAFeedReproduceItsRows() throws {
        let root = TestPaths.scratch("mmgc22-scenario-shared")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clips = try FileManager.default.contentsOfDirectory(atPath: Self.sharedData + "/short_video_size")
            .filter { !$0.hasPrefix(".") }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(clips.count == 7)
        let items = clips.map {
            "{\"id\": \"\($0)\", \"content\": {\"pensieveSizes\": \"\(Self.sharedData)/short_video_size/\($0)\", "
                + "\"ladderKbps\": [750, 1200, 1850], \"segmentSeconds\": 1}}"
        }
        let curves = clips.map { "{\"file\": \"\(Self.sharedData)/user_ret/\($0)\"}" }
        try Self.write(
            """
            {"name": "challenge", "network": {"trace": "\(Self.sharedData)/network_traces/high/0"},
             "feed": {"player": {"id": "viewer", "policy": "throughput"}, "items": [\(items.joined(separator: ", "))],
                      "recommendationWindow": 4,
                      "swipe": {"model": "retention", "curves": [\(curves.joined(separator: ", "))]},
                      "preload": "no_save"}}
            """, root + "/feed.json")
        let outcome = try runABRSim([
            "compare", "--profile", "mmgc22", root + "/feed.json", "--policies", "no_save,fixed_preload", "--out",
            root + "/out",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = Self.rows(root + "/out/sessions.csv")
        let reference = Self.rows(Self.sharedResults)
        let column = { (name: String) in reference[0].firstIndex(of: name)! }
        #expect(rows.count == 3)
        for row in rows.dropFirst() {
            let want = try #require(
                reference.first {
                    $0[column("scheme")] == "default" && $0[column("state")] == "fresh"
                        && $0[column("algorithm")] == row[0] && $0[column("family")] == "high"
                        && $0[column("trace")] == "0"
                })
            for (position, name) in rows[0].enumerated().dropFirst(4) {
                #expect(row[position] == want[column(name)], "\(row[0]) \(name)")
            }
        }
    }

    @Test("fixed watch times are the sessions' watch times: the listed ones, then every later clip to its end")
    func fixedWatchTimesAreWatched() throws {
        let root = TestPaths.scratch("mmgc22-scenario-fixed")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = try Self.writeBothWays(root)
        let outcome = try runABRSim([
            "compare", "--profile", "mmgc22", scenario, "--set",
            "feed.swipe={\"model\":\"fixed\",\"watchSeconds\":[1.5]}",
            "--policies", "no_save,fixed_preload", "--out", root + "/out",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = Self.rows(root + "/out/sessions.csv")
        let user = try #require(rows[0].firstIndex(of: "user"))
        let watch = try #require(rows[0].firstIndex(of: "watch_ms"))
        // One session per algorithm; a_near watched 1.5 s, b_far (3 chunks) to its end.
        #expect(rows.count == 3)
        for row in rows.dropFirst() {
            #expect(row[user] == "fixed")
            #expect(row[watch] == "4500.0")
        }
    }

    @Test(
        "a feed the challenge cannot represent exits 2 naming the JSON path, writing nothing",
        arguments: [
            ("feed.swipe={\"model\":\"exponential\",\"lambda\":2}", "$.feed.swipe.model"),
            ("feed.recommendationWindow=3", "$.feed.recommendationWindow"),
            ("feed.items[1].content.ladderKbps=[300,750,1850]", "$.feed.items[1].content"),
            ("feed.items[0].content.segmentSeconds=2", "$.feed.items[0].content"),
            ("network={\"preset\":\"lte\"}", "$.network"),
            ("network.rttMs=40", "$.network.rttMs"),
            ("durationSeconds=30", "$.durationSeconds"),
        ])
    func anUnrepresentableFeedIsBadInput(_ setting: String, _ path: String) throws {
        let root = TestPaths.scratch("mmgc22-scenario-bad")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scenario = try Self.writeBothWays(root)
        let outcome = try runABRSim([
            "compare", "--profile", "mmgc22", "--scenario", scenario, "--set", setting, "--out", root + "/out",
        ])
        #expect(outcome.status == 2, "\(outcome.standardError)")
        let lines = outcome.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("feed.json") && lines[0].contains(path), "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: root + "/out"))
    }
}
