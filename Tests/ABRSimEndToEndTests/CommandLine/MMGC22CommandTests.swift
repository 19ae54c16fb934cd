import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim mmgc22`: one session of the MM'22 challenge's simulator, printed as the challenge's five figures
/// (Python `repr` of each double), on our own fixture by hand and on the challenge's data against its outputs.
@Suite("abrsim mmgc22")
struct MMGC22CommandTests {
    static let fixture = TestPaths.packageRoot + "/Tests/Fixtures/mmgc22/data"

    static func figures(_ text: String) -> [String: Double] {
        var figures: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            figures[String(parts[0])] = Double(parts[1].dropFirst())
        }
        return figures
    }

    /// The fixture's clip (chunks of 95 000 / 150 000 bytes at levels 0 / 1 on 8 Mbit/s: 180 and 238 ms) and the
    /// user of seeds 42:42: numpy's seed 42 draws u = 0.3745… < 0.5, so the user leaves in second 0, at
    /// int(1000 · 0.6394…) = 639 ms (Python's seed 42). fixed_preload fetches chunks 0, 1 at level 0 and chunk 2
    /// at level 1; only chunk 0 counts (⌊0.639⌋ = 0), after a 180 ms startup stall; chunks 1 and 2 are wasted.
    @Test(
        "fixed_preload on the fixture with seeds 42:42 prints 340 000 bytes used, 245 000 wasted and 3000/639 as reprs")
    func printsTheHandComputedFiguresOfTheFixture() throws {
        let outcome = try runABRSim([
            "mmgc22", "--data", Self.fixture, "--algorithm", "fixed_preload", "--family", "high", "--trace", "0",
            "--seeds", "42:42",
        ])
        #expect(outcome.status == 0 && outcome.standardError.isEmpty, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map({ String($0.split(separator: ":")[0]) })
        #expect(lines == ["score", "bandwidth_usage_bytes", "qoe", "wasted_bytes", "download_watch_ratio"])
        let figures = Self.figures(outcome.standardOutput)
        let qoe = 0.75 - 1.85 * 180 / 1000
        #expect(abs(figures["qoe"]! - qoe) < 1e-12)
        #expect(abs(figures["score"]! - (qoe - 0.5 * 340_000 * 8 / 1e6)) < 1e-12)
        #expect(figures["bandwidth_usage_bytes"] == 340_000)
        #expect(figures["wasted_bytes"] == Double(95_000 + 150_000))
        #expect(figures["download_watch_ratio"] == 3000.0 / 639.0)
        #expect(outcome.standardOutput.contains("bandwidth_usage_bytes: 340000.0\n"), "Python's repr of a float")
    }

    /// no_save fetches every chunk at level 2 (230 000 bytes: 322 ms each); the user leaves at 639 ms while chunk
    /// 2 is in flight, so chunks 1 and 2 are wasted, and chunk 2 once more as it arrives.
    @Test(
        "no_save fetches three 230 000-byte chunks and wastes 690 000 bytes, counting chunk 2 in flight at 639 ms twice"
    )
    func noSaveCountsTheChunkInFlightTwice() throws {
        let outcome = try runABRSim([
            "mmgc22", "--data", Self.fixture, "--algorithm", "no_save", "--family", "high", "--trace", "0",
            "--seeds", "42:42",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let figures = Self.figures(outcome.standardOutput)
        #expect(figures["bandwidth_usage_bytes"] == Double(3 * 230_000))
        #expect(figures["wasted_bytes"] == Double(230_000 + 2 * 230_000))
        #expect(abs(figures["qoe"]! - (1.85 - 1.85 * 322 / 1000)) < 1e-12)
    }

    /// On the challenge's data, the printed text is the challenge's own `repr`s, character for character (fresh
    /// rows start from all −1, which `--last-chunk-levels` then repeats).
    @Test(
        "one results.csv row in 97, fresh and sequential, prints the challenge's own five reprs character for character",
        .enabled(
            if: FileManager.default.fileExists(
                atPath: TestPaths.packageRoot + "/../shared/reference/shortvideo/results.csv"),
            "the challenge's data and reference outputs (../shared) are absent"))
    func printsTheChallengesOwnFigures() throws {
        let shared = TestPaths.packageRoot + "/../shared"
        let text = try String(contentsOfFile: shared + "/reference/shortvideo/results.csv", encoding: .utf8)
        let rows = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map({
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        })
        let header = rows[0]
        let column = { (name: String) in header.firstIndex(of: name)! }
        // Fresh and sequential rows (the latter with the leaked last-bitrate list they started from), one in 97.
        let picked = rows.dropFirst().filter({ $0[column("algorithm")] != "solution" })
            .enumerated().filter({ $0.offset % 97 == 0 }).map(\.element)
        #expect(picked.count >= 40 && picked.contains(where: { $0[column("state")] == "sequential" }))
        for row in picked {
            let user = row[column("scheme")] == "default" ? "default" : row[column("sample")]
            let outcome = try runABRSim([
                "mmgc22", "--data", shared + "/data/shortvideo", "--algorithm", row[column("algorithm")], "--family",
                row[column("family")], "--trace", row[column("trace")], "--user-sample", user,
                "--last-chunk-levels=" + row[column("last_chunk_bitrate_before")],
            ])
            let expected = ["score", "bandwidth_usage_bytes", "qoe", "wasted_bytes", "download_watch_ratio"].map({
                "\($0): \(row[column($0)])\n"
            }).joined()
            #expect(outcome.standardOutput == expected, "\(row.prefix(8))")
        }
    }
}
