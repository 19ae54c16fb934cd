import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Bad inputs to `abrsim compare --profile mmgc22` and `abrsim sweep --profile mmgc22`: a data folder (a copy of
/// `Tests/Fixtures/mmgc22/batch` with one file or folder replaced or removed; the replacements are in
/// `Tests/Fixtures/bad/mmgc22-*`) or an option naming what the data does not have. Each ends like every other bad
/// input: exit status 2, one line naming the file and line or the option, nothing on stdout, no output folder.
extension BadInputCatalogueTests {
    struct MMGC22BatchCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// Relative path in the data folder → a file of Tests/Fixtures/bad to put there (nil: remove the path).
        var edits: [String: String?] = [:]
        var options: [String] = []
        var mentions: [String]
        var testDescription: String { name }
    }

    static let mmgc22BatchCases: [MMGC22BatchCase] = [
        MMGC22BatchCase(
            name: "missing data folder", options: ["--data", "/nonexistent/mmgc22"],
            mentions: ["/nonexistent/mmgc22", "no such folder"]),
        MMGC22BatchCase(
            name: "retention curve rises", edits: ["user_ret/a_short": "mmgc22-retention-rises"],
            mentions: ["user_ret/a_short", "line 3", "must never rise"]),
        MMGC22BatchCase(
            name: "retention leaves more than everyone", edits: ["user_ret/a_short": "mmgc22-retention-above-one"],
            mentions: ["user_ret/a_short", "more than the limit of 1"]),
        MMGC22BatchCase(
            name: "unknown family", options: ["--families", "high,fixed"], mentions: ["--families", "'fixed'"]),
        MMGC22BatchCase(
            name: "family folder missing", options: ["--families", "high,medium"],
            mentions: ["network_traces/medium", "no such trace family folder"]),
        MMGC22BatchCase(
            name: "trace out of range", options: ["--traces", "0-2"],
            mentions: ["network_traces/high: expected a trace index in 0…1, found 2"]),
        MMGC22BatchCase(
            name: "no clips", edits: ["short_video_size/a_short": nil, "short_video_size/b_long": nil],
            mentions: ["short_video_size: empty folder: no clip folders"]),
        MMGC22BatchCase(
            name: "user sample out of range", options: ["--users", "default,999-1001"],
            mentions: ["--users: '999-1001' is not an index or a range low-high of indices ≥ 0 and < 1001"]
        ),
        MMGC22BatchCase(
            name: "unknown algorithm", options: ["--policies", "no_save,greedy"],
            mentions: ["--policies: unknown algorithm 'greedy' (known: no_save, fixed_preload, solution)"]),
        MMGC22BatchCase(name: "no clips asked for", options: ["--clips", "0"], mentions: ["--clips"]),
    ]

    @Test(
        "each bad mmgc22 batch data file or option exits 2 with one stderr line naming the place, no stdout, no output",
        arguments: mmgc22BatchCases)
    func badMMGC22BatchInputExitsWithStatusTwoAndOneLineNamingThePlace(_ badCase: MMGC22BatchCase) throws {
        let scratch = TestPaths.scratch("mmgc22-batch-bad")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let data = scratch + "/data"
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot + "/Tests/Fixtures/mmgc22/batch", toPath: data)
        for (path, replacement) in badCase.edits {
            try FileManager.default.removeItem(atPath: data + "/" + path)
            if let replacement {
                try FileManager.default.copyItem(
                    atPath: TestPaths.packageRoot + "/Tests/Fixtures/bad/" + replacement, toPath: data + "/" + path)
            }
        }
        var options: [String: String] = ["--data": data, "--families": "high,low", "--out": scratch + "/out"]
        for index in stride(from: 0, to: badCase.options.count, by: 2) {
            options[badCase.options[index]] = badCase.options[index + 1]
        }
        let arguments = options.sorted(by: { $0.key < $1.key }).flatMap({ [$0.key, $0.value] })
        for command in ["compare", "sweep"] {
            let outcome = try runABRSim([command, "--profile", "mmgc22"] + arguments)
            Self.expectOneLineError(outcome, mentions: badCase.mentions)
            #expect(!FileManager.default.fileExists(atPath: scratch + "/out"), "no output folder")
        }
    }
}
