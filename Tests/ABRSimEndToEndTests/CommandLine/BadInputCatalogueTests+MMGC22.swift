import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Bad inputs to `abrsim mmgc22`: a data folder (a copy of `Tests/Fixtures/mmgc22/data` with one file broken)
/// or an option the challenge would refuse. Each ends like every other bad input: exit status 2, one line naming
/// the file and line or the option, nothing on stdout.
extension BadInputCatalogueTests {
    struct MMGC22Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Relative path in the data folder → new contents (nil: remove the file).
        var edits: [String: String?] = [:]
        var options: [String] = []
        var mentions: [String]
        var testDescription: String { name }
    }

    static let mmgc22Cases: [MMGC22Case] = [
        MMGC22Case(
            name: "trace line not a number", edits: ["network_traces/high/0": "0 8\n1 fast\n"],
            mentions: ["network_traces/high/0", "line 2", "the throughput 'fast' is not a number"]),
        MMGC22Case(
            name: "size not an integer", edits: ["short_video_size/a_first/video_size_1": "150000\n15e4x\n150000\n"],
            mentions: ["video_size_1", "line 2", "(an integer ≥ 0), found '15e4x'"]),
        MMGC22Case(
            name: "size file missing", edits: ["short_video_size/a_first/video_size_2": nil],
            mentions: ["video_size_2", "no such file"]),
        MMGC22Case(
            name: "size file short", edits: ["short_video_size/a_first/video_size_2": "230000\n"],
            mentions: ["video_size_2", ": 1 chunks for 3 chunks at level 0"]),
        MMGC22Case(
            name: "retention rises", edits: ["user_ret/a_first": "0 1\n1 0.5\n2 0.7\n3 0\n"],
            mentions: ["user_ret/a_first", "line 3", "must never rise"]),
        MMGC22Case(
            name: "retention leaves more than everyone", edits: ["user_ret/a_first": "0 1.5\n1 0.5\n2 0.5\n3 0\n"],
            mentions: ["user_ret/a_first", "more than the limit of 1"]),
        MMGC22Case(
            name: "retention keeps viewers past the end", edits: ["user_ret/a_first": "0 1\n1 0.5\n2 0.5\n3 0.2\n"],
            mentions: ["user_ret/a_first", "the sum of the probabilities must be 1, got 0.8"]),
        MMGC22Case(
            name: "retention too short", edits: ["user_ret/a_first": "0 1\n1 0\n"],
            mentions: ["user_ret/a_first", "at least 4"]),
        MMGC22Case(
            name: "more clips than seed pairs",
            edits: [
                "short_video_size/b_second/video_size_0": "1\n", "short_video_size/b_second/video_size_1": "2\n",
                "short_video_size/b_second/video_size_2": "3\n", "user_ret/b_second": "0 1\n1 1\n2 0\n",
            ], mentions: ["data: 1 seed pairs for 2 clips"]),
        MMGC22Case(
            name: "unknown algorithm", options: ["--algorithm", "greedy"],
            mentions: ["--algorithm: unknown algorithm 'greedy' (known: no_save, fixed_preload, solution)"]),
        MMGC22Case(
            name: "unknown family", options: ["--family", "fixed"],
            mentions: ["--family: unknown family 'fixed' (known: high, low, medium, mixed)"]),
        MMGC22Case(
            name: "missing family folder", options: ["--family", "low"], mentions: ["network_traces/low", "no such"]),
        MMGC22Case(
            name: "trace out of range", options: ["--trace", "3"],
            mentions: ["network_traces/high: expected a trace index in 0…0, found 3"]),
        MMGC22Case(
            name: "bad seeds", options: ["--seeds", "42:42,x"],
            mentions: ["--seeds: pair 2 'x' is not `numpy_seed:python_seed` (integers 0…4294967295)"]),
        MMGC22Case(
            name: "bad user sample", options: ["--user-sample", "5000"],
            mentions: ["--user-sample: '5000' is not 'default' or a sample 0…1000"]),
        MMGC22Case(
            name: "bad last levels", options: ["--last-chunk-levels", "7"],
            mentions: ["--last-chunk-levels: entry 1 '7' is not a level −1…2"]),
        MMGC22Case(
            name: "missing data folder", options: ["--data", "/nonexistent/mmgc22"],
            mentions: ["/nonexistent/mmgc22", "no such folder"]),
    ]

    @Test(
        "each bad mmgc22 data file or option exits 2 with one stderr line naming the file and line or option, no stdout",
        arguments: mmgc22Cases)
    func badMMGC22InputExitsWithStatusTwoAndOneLineNamingThePlace(_ badCase: MMGC22Case)
        throws
    {
        let scratch = TestPaths.scratch("mmgc22-bad")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let data = scratch + "/data"
        try FileManager.default.copyItem(atPath: TestPaths.packageRoot + "/Tests/Fixtures/mmgc22/data", toPath: data)
        for (path, contents) in badCase.edits {
            if let contents {
                try FileManager.default.createDirectory(
                    atPath: InputFile.directory(of: data + "/" + path), withIntermediateDirectories: true)
                try contents.write(toFile: data + "/" + path, atomically: true, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: data + "/" + path)
            }
        }
        var options: [String: String] = [
            "--data": data, "--algorithm": "fixed_preload", "--family": "high", "--trace": "0", "--seeds": "42:42",
        ]
        for index in stride(from: 0, to: badCase.options.count, by: 2) {
            options[badCase.options[index]] = badCase.options[index + 1]
        }
        if options["--user-sample"] != nil { options["--seeds"] = nil }
        let arguments = ["mmgc22"] + options.sorted(by: { $0.key < $1.key }).flatMap({ [$0.key, $0.value] })
        let outcome = try runABRSim(arguments)
        Self.expectOneLineError(outcome, mentions: badCase.mentions)
    }
}
