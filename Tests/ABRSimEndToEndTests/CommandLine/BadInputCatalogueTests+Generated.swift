import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// The rest of the catalogue: inputs generated at test time (a 1 GB sparse file, unreadable files), inputs that
/// are accepted despite a byte-order mark and CRLF line ends, and the inputs that are not exit-2 errors but must
/// end a run promptly with the player `failed` (a looping trace of zeros, external policies that break mid-run).
extension BadInputCatalogueTests {
    // MARK: - A 1 GB file: refused or streamed, never read into memory

    /// A command over a 1 GB file and the place its message must name.
    struct HugeFileCase: CustomTestStringConvertible, Sendable {
        var label: String
        /// The file's name and the bytes written before it is extended (sparse) to 1 GiB.
        var name: String
        var head: String
        var arguments: [String]
        var mentions: [String]
        var testDescription: String { label }
    }

    static let hugeFileCases: [HugeFileCase] = [
        HugeFileCase(
            label: "scenario", name: "big.json", head: "", arguments: ["run", "big.json", "--out", out],
            mentions: ["big.json", "more than the limit of 67108864 bytes"]),
        HugeFileCase(
            label: "trace of NUL bytes", name: "big.down", head: "", arguments: ["trace", "info", "big.down"],
            mentions: ["big.down", "line 1", "more than the limit of 1048576 bytes"]),
        HugeFileCase(
            label: "trace streamed to its third line", name: "big trace.down", head: "1\n2\n",
            arguments: ["trace", "info", "--format", "mahimahi", "big trace.down"],
            mentions: ["big trace.down", "line 3", "more than the limit of 1048576 bytes"]),
        HugeFileCase(
            label: "sabre trace", name: "big.json", head: "[",
            arguments: ["trace", "info", "--format", "sabre", "big.json"],
            mentions: ["big.json", "more than the limit of 268435456 bytes"]),
        HugeFileCase(
            label: "content", name: "big.m3u8", head: "",
            arguments: [
                "compare", "--traces", fixtures + "/ok/constant.csv", "--content", "big.m3u8", "--policies", "bba",
                "--out", out,
            ], mentions: ["big.m3u8", "more than the limit of 67108864 bytes"]),
    ]

    @Test(
        "a 1 GiB input is refused or streamed within 5 s, one line naming it, nothing written", arguments: hugeFileCases
    )
    func aOneGigabyteFileIsRefusedQuicklyNamingIt(_ huge: HugeFileCase) throws {
        let scratch = TestPaths.scratch("huge")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = writeFile(scratch, huge.name, huge.head)
        #expect(truncate(path, 1 << 30) == 0)
        let arguments = huge.arguments.map { $0.replacingOccurrences(of: Self.out, with: scratch + "/out") }
        let start = ContinuousClock.now
        let outcome = try runABRSim(arguments, in: scratch)
        #expect(
            ContinuousClock.now - start < .seconds(5 * TestPaths.timeScale),
            "streams or refuses; never reads the whole file")
        Self.expectOneLineError(outcome, mentions: huge.mentions)
        #expect(try Self.listing(scratch) == [huge.name])
    }

    // MARK: - Unreadable files

    /// Runs `abrsim` as user `nobody` when the tests run as root (root reads a mode-000 file anyway), using
    /// util-linux's `setpriv`; as any other user it runs `abrsim` directly.
    static func runUnprivileged(_ arguments: [String], in directory: String) throws -> CommandOutcome {
        guard geteuid() == 0 else { return try runABRSim(arguments, in: directory) }
        let launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        return try runABRSim(arguments, in: directory, launcher: launcher)
    }

    /// Whether a mode-000 file can be made unreadable to `abrsim`: not root, or root with `setpriv` and a binary
    /// that user `nobody` can run.
    static let canDropPrivileges: Bool = {
        guard geteuid() == 0 else { return true }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            let outcome = try? runUnprivileged(["--help"], in: "/")
        else { return false }
        return outcome.status == 0
    }()

    @Test(
        "unreadable traces and scenarios, named directly or by a scenario, are one-line input errors naming them",
        .enabled(if: canDropPrivileges, "needs util-linux's setpriv when run as root"))
    func unreadableFilesAreInputErrorsNamingThem() throws {
        let scratch = TestPaths.scratch("unreadable")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        chmod(scratch, 0o755)
        let trace = writeFile(scratch, "locked.down", "1\n2\n")
        let scenario = writeFile(
            scratch, "locked.json", #"{"network": {"preset": "lte"}, "content": {}, "players": []}"#)
        writeFile(
            scratch, "uses-locked-trace.json",
            #"{"network": {"trace": "locked.down"}, "content": {"ladderKbps": [500], "segmentSeconds": 4,"#
                + #" "segments": 1}, "players": [{"id": "main", "policy": "throughput"}]}"#)
        chmod(trace, 0)
        chmod(scenario, 0)
        let cases: [([String], [String])] = [
            (["trace", "info", "locked.down"], ["locked.down", "cannot read: Permission denied"]),
            (["run", "locked.json", "--out", "out"], ["locked.json", "cannot read: Permission denied"]),
            (
                ["run", "uses-locked-trace.json", "--out", "out"],
                ["uses-locked-trace.json", "$.network.trace", "locked.down: cannot read"]
            ),
        ]
        for (arguments, mentions) in cases {
            Self.expectOneLineError(try Self.runUnprivileged(arguments, in: scratch), mentions: mentions)
        }
        #expect(!FileManager.default.fileExists(atPath: scratch + "/out"))
    }

    // MARK: - Good despite a byte-order mark and CRLF line ends

    /// A file with a UTF-8 BOM and CRLF line ends that is otherwise fine, and what the command must print.
    struct GoodCase: CustomTestStringConvertible, Sendable {
        var fixture: String
        var arguments: [String]
        /// Lines stdout must contain (hand-computed values).
        var lines: [String]
        var testDescription: String { fixture }
    }

    static let goodCases: [GoodCase] = [
        // Four 1500-byte opportunities at 1…4 ms: 48 000 bits in 4 ms, 12 Mbit/s.
        GoodCase(
            fixture: "good-despite/mahimahi-bom-crlf.down",
            arguments: ["trace", "info", "good-despite/mahimahi-bom-crlf.down"],
            lines: ["format: mahimahi", "duration_s: 0.004", "total_bits: 48000", "mean_kbps: 12000"]),
        // (0, 1] at 2 Mbit/s and (1, 2] at 4 Mbit/s (the rate at each interval's end).
        GoodCase(
            fixture: "good-despite/pensieve-bom-crlf.log",
            arguments: ["trace", "info", "good-despite/pensieve-bom-crlf.log"],
            lines: ["format: pensieve", "duration_s: 2", "total_bits: 6000000", "mean_kbps: 3000"]),
        // 1 s at 1000 kbit/s, then 1 s at 3000 kbit/s.
        GoodCase(
            fixture: "good-despite/csv-bom-crlf.csv", arguments: ["trace", "info", "good-despite/csv-bom-crlf.csv"],
            lines: ["format: csv", "duration_s: 2", "total_bits: 4000000", "min_kbps: 1000", "max_kbps: 3000"]),
        GoodCase(
            fixture: "good-despite/sabre-bom-crlf.json",
            arguments: ["trace", "info", "good-despite/sabre-bom-crlf.json"],
            lines: ["format: sabre", "duration_s: 2", "total_bits: 4000000", "min_kbps: 1000", "max_kbps: 3000"]),
    ]

    @Test(
        "a trace with a byte-order mark and CRLF line ends reads as without them, to the hand-computed figures",
        arguments: goodCases)
    func aByteOrderMarkAndCRLFLineEndsAreAccepted(_ good: GoodCase) throws {
        let outcome = try runABRSim(good.arguments, in: Self.fixtures)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        for line in good.lines { #expect(lines.contains(line), "lacks '\(line)': \(outcome.standardOutput)") }
    }

    /// The summary rows of a run or comparison written to `directory`.
    static func summary(_ directory: String) throws -> [[String: String]] {
        let table = try CSVTable.parse(try InputFile.readAll(directory + "/summary.csv"), file: "summary.csv")
        return table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.columns, $0)) }
    }

    @Test("a scenario, trace, size files and playlists with byte-order marks and CRLF line ends run to the end")
    func aScenarioAndItsFilesWithBOMAndCRLFRun() throws {
        let scratch = TestPaths.scratch("good")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Scenario, mahimahi trace and Pensieve size files all start with a BOM and end lines with CRLF.
        let run = try runABRSim(
            ["run", "good-despite/scenario-bom-crlf.json", "--out", scratch + "/run"], in: Self.fixtures)
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try Self.summary(scratch + "/run")
        #expect(rows.count == 1)
        #expect(rows.first?["segments"] == "2")
        #expect(rows.first?["final_state"] == "ended")
        #expect(rows.first?["trace"] == "mahimahi-bom-crlf.down")
        // A master and a media playlist with BOM and CRLF: one 4-s segment at BANDWIDTH 500 000 bit/s.
        let compare = try runABRSim(
            [
                "compare", "--traces", "ok/constant.csv", "--content", "good-despite/hls-master-bom-crlf.m3u8",
                "--policies", "bba", "--out", scratch + "/compare", "--plots", scratch + "/plots",
            ], in: Self.fixtures)
        #expect(compare.status == 0, "\(compare.standardError)")
        let compared = try Self.summary(scratch + "/compare")
        #expect(compared.first?["segments"] == "1")
        #expect(compared.first?["bytes"] == "250000")
    }

    // MARK: - Not input errors: the run ends promptly with the player failed (exit 1, not 2)

    /// Runs `fixture` and returns the summary row and the failure reason of its only player's last timeline row.
    static func failedRun(_ fixture: String) throws -> (summary: [String: String], reason: String, seconds: Double) {
        let scratch = TestPaths.scratch("failed")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let start = ContinuousClock.now
        let outcome = try runABRSim(["run", fixture, "--out", scratch + "/run"], in: Self.fixtures)
        let seconds = secondsElapsed(since: start)
        // Every file is written; a failed player makes `run` exit 1 with one stderr line naming it.
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
        let rows = try summary(scratch + "/run")
        let timeline = try CSVTable.parse(try InputFile.readAll(scratch + "/run/timeline.csv"), file: "timeline.csv")
        let reason = timeline.column("failure_reason")?.last ?? ""
        return (rows.first ?? [:], reason, seconds)
    }

    @Test("a looping trace of zeros ends the run promptly with the player failed, exit 1")
    func aLoopingTraceOfZerosEndsPromptlyWithThePlayerFailed() throws {
        let (row, reason, seconds) = try Self.failedRun("scenario-all-zeros-loop.json")
        #expect(seconds < 10 * TestPaths.timeScale)
        #expect(row["final_state"] == "failed")
        #expect(row["segments"] == "0")
        #expect(reason.contains("no more data"), "\(reason)")
        if let summaryReason = row["failure_reason"] { #expect(!summaryReason.isEmpty) }
    }

    @Test(
        "an external policy that breaks mid-run fails its player promptly, exit 1, the reason naming it",
        arguments: [
            ("scenario-external-policy-crashes.json", "closed its output"),
            ("scenario-external-policy-garbage-reply.json", "not a JSON object, got 'not json'"),
            ("scenario-external-policy-variant-out-of-range.json", "variant 99 is outside"),
            ("scenario-external-policy-timeout.json", "no reply within"),
        ])
    func anExternalPolicyThatBreaksMidRunFailsItsPlayer(_ fixture: String, _ words: String) throws {
        let (row, reason, seconds) = try Self.failedRun(fixture)
        #expect(seconds < 10 * TestPaths.timeScale)
        #expect(row["final_state"] == "failed")
        #expect(reason.hasPrefix("external policy 'external(command=[sh -c "), "\(reason)")
        #expect(reason.contains("segment 0"), "\(reason)")
        #expect(reason.contains(words), "\(reason)")
    }
}
