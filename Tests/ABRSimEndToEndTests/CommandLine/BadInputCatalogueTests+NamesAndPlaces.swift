import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// The bad-input catalogue's cases for issue 14, classes 7–12, through the built binary: seeds (bad ones refused,
/// `--seed` reaching every random stream, 64-bit seeds distinct), sweep inputs and the sweep lock, names with
/// control characters and text from a child, messages that name their place, and output paths that can never
/// work. Fixtures are in `Tests/Fixtures/bad/` (shared with ``BadInputCatalogueTests``); the cases are listed in
/// `docs/reliability/bad-inputs.md`.
@Suite("the bad-input catalogue: seeds, sweep inputs, names and places")
struct NamesAndPlacesCatalogueTests {
    typealias Case = BadInputCatalogueTests.Case
    static let fixtures = BadInputCatalogueTests.fixtures
    static let out = BadInputCatalogueTests.out

    static func run(_ fixture: String, _ mentions: String...) -> Case {
        Case(
            fixture: fixture, arguments: ["run", fixture, "--out", out + "/results", "--plots", out + "/plots"],
            mentions: [fixture] + mentions)
    }

    static func command(_ label: String, _ arguments: [String], _ mentions: String...) -> Case {
        Case(fixture: label, arguments: arguments, mentions: mentions)
    }

    static let cases: [Case] = [
        // 7. Seeds: refused where they cannot be told apart or are not seeds.
        run("scenario-seed-above-2-53.json", "$.seed:", "9007199254740991"),
        run("scenario-seed-not-digits.json", "$.seed:", "'12x'"),
        run("scenario-seed-negative.json", "$.seed:", "-3"),
        command(
            "--seed 2^64 (run)", ["run", "ok/scenario.json", "--seed", "18446744073709551616", "--out", out + "/r"],
            "--seed", "18446744073709551616"),
        command(
            "--seed -1 (sweep)", ["sweep", "ok/scenario.json", "--seed", "-1", "--out", out + "/s"], "--seed", "'-1'"),
        command(
            "--seed 1e3 (compare)",
            [
                "compare", "--traces", "ok/constant.csv", "--content", "ok/movie.json", "--policies", "bba", "--seed",
                "1e3",
                "--out", out + "/c",
            ], "--seed", "'1e3'"),
        command("--seed x (check)", ["check", "ok/scenario.json", "--seed", "x"], "--seed", "'x'"),
        // 9. Names with control characters, refused at their JSON path.
        run("scenario-name-nul.json", "$.name:", "U+0000"),
        run("scenario-name-carriage-return.json", "$.name:", "U+000D"),
        run("scenario-name-line-separator.json", "$.name:", "U+2028"),
        run("scenario-name-paragraph-separator.json", "$.name:", "U+2029"),
        run("scenario-name-c1-control.json", "$.name:", "U+0085"),
        run("scenario-name-escape-sequence.json", "$.name:", "U+001B"),
        run("scenario-player-id-newline.json", "$.players[0].id:", "U+000A"),
        run("scenario-network-name-line-separator.json", "$.network.name:", "U+2028"),
        // 10. Messages that name the file and the line or JSON path.
        command(
            "sabre-denormal-duration.json (trace info)", ["trace", "info", "sabre-denormal-duration.json"],
            "sabre-denormal-duration.json: $[0]:", "piece starts must increase"),
        command(
            "pensieve-denormal-rate.log (trace info)", ["trace", "info", "pensieve-denormal-rate.log"],
            "pensieve-denormal-rate.log: line 1:", "or at least 1 bit/s"),
        run(
            "scenario-synthetic-denormal-sojourn-shape.json",
            "$.network.stretches[0].synthetic.states[0].sojournShape:", "the denormal 1e-320"),
        command(
            "synthetic-model-denormal-sojourn-shape.json (trace generate)",
            ["trace", "generate", "synthetic-model-denormal-sojourn-shape.json", "--out", out + "/t.csv"],
            "synthetic-model-denormal-sojourn-shape.json: $.states[0].sojournShape:", "the denormal 1e-320"),
        run(
            "scenario-trace-format-clash.json", "ok/constant.csv: line 1", "reads as csv, not the declared mahimahi",
            "$.network.format"),
        command(
            "ok/constant.csv --format mahimahi (trace info)",
            ["trace", "info", "ok/constant.csv", "--format", "mahimahi"],
            "ok/constant.csv: line 1", "reads as csv, not the declared mahimahi"),
        command(
            "ok/movie.json --format pensieve (trace convert)",
            ["trace", "convert", "ok/movie.json", "--format", "pensieve", "--to", "csv"], "ok/movie.json: line 1",
            "not the declared pensieve"),
        // 11. Output paths that can never work: exit 2, nothing written, no empty folder left.
        command("--out '' (run)", ["run", "ok/scenario.json", "--out", ""], "--out:", "found an empty path"),
        command("--out '' (sweep)", ["sweep", "ok/scenario.json", "--out", ""], "--out:", "found an empty path"),
        command(
            "--out '' (compare)",
            ["compare", "--traces", "ok/constant.csv", "--content", "ok/movie.json", "--policies", "bba", "--out", ""],
            "--out:", "found an empty path"),
        command(
            "--plots '' (run)", ["run", "ok/scenario.json", "--out", out + "/r", "--plots", ""], "--plots:",
            "found an empty path"
        ),
        run("scenario-name-too-long.json", "$.name:", "201 bytes"),
        run("scenario-player-id-too-long.json", "$.players[0].id:", "201"),
        command(
            "--out with a 300-byte component (run)",
            ["run", "ok/scenario.json", "--out", out + "/" + String(repeating: "x", count: 300) + "/r"], "--out:",
            "300 bytes", "limit of 255 bytes"),
        command(
            "--out through a file (run)", ["run", "ok/scenario.json", "--out", "ok/scenario.json/results"], "--out:",
            "goes through ok/scenario.json: expected a folder, found a file"),
        command(
            "--out naming a file (tune)", ["tune", "ok/scenario.json", "--out", "ok/constant.csv"], "--out:",
            "expected a folder, found a file"),
        command(
            "--junit through a file (check)", ["check", "ok/scenario.json", "--junit", "ok/movie.json/junit.xml"],
            "--junit:", "expected a folder, found a file"),
        command(
            "--out naming a folder (trace convert)",
            ["trace", "convert", "ok/constant.csv", "--to", "csv", "--out", "ok"],
            "--out:", "expected a file name, found a folder"),
    ]

    /// Each case runs exactly as the main catalogue's (status 2, one line naming the place, nothing written).
    @Test(
        "each bad seed, sweep input, name or output path exits 2 with one line naming its place, nothing written",
        arguments: cases)
    func badInputExitsWithStatusTwoAndOneLineNamingThePlace(_ badCase: Case) throws {
        try BadInputCatalogueTests().badInputExitsWithStatusTwoAndOneLineNamingThePlace(badCase)
    }

    // MARK: - 11. No empty folders left behind

    @Test("a run, sweep or tune refused for a bad name leaves no default results folder behind")
    func aBadDefaultOutputLeavesNoResultsFolder() throws {
        let scratch = TestPaths.scratch("catalogue-np")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.fixtures + "/scenario-name-too-long.json"
        for arguments in [["run", scenario], ["sweep", scenario], ["tune", scenario]] {
            let outcome = try runABRSim(arguments, in: scratch)
            BadInputCatalogueTests.expectOneLineError(outcome, mentions: ["$.name:"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "\(arguments[0])")
        }
    }

    // MARK: - 7. Seeds reach every random stream, and 64-bit seeds are distinct

    /// A scenario on a lognormal synthetic network with a randomised policy (festive draws its buffer target).
    static func writeSyntheticScenario(_ directory: String) -> String {
        writeFile(
            directory, "synthetic.json",
            """
            {"name": "synthetic", "network": {"synthetic": {"model": "lognormal", "meanKbps": 2000, "spread": 0.8,
              "sampleSeconds": 1, "seconds": 60}},
             "content": {"ladderKbps": [300, 1000, 3000], "segmentSeconds": 2, "segments": 20},
             "players": [{"id": "p", "policy": "festive"}, {"id": "q", "policy": "throughput", "networkResourcePriority": "high"}],
             "expect": [{"metric": "segments", "min": 1}]}
            """)
    }

    static func runOutput(_ scenario: String, seed: String?, in directory: String, file: String) throws -> String {
        let out = TestPaths.scratch("seed-run")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim(
            ["run", scenario, "--out", out, "--force"] + (seed.map { ["--seed", $0] } ?? []), in: directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try String(contentsOfFile: out + "/" + file, encoding: .utf8)
    }

    @Test("the run's seed reaches the synthetic network: 1 is the default, 2 draws another, the same each time")
    func runSeedReachesTheSyntheticNetwork() throws {
        let scratch = TestPaths.scratch("seed")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.writeSyntheticScenario(scratch)
        let own = try Self.runOutput(scenario, seed: nil, in: scratch, file: "capacity.csv")
        #expect(try Self.runOutput(scenario, seed: "1", in: scratch, file: "capacity.csv") == own, "1 is the default")
        let two = try Self.runOutput(scenario, seed: "2", in: scratch, file: "capacity.csv")
        #expect(two != own, "--seed 2 draws another network")
        #expect(try Self.runOutput(scenario, seed: "2", in: scratch, file: "capacity.csv") == two, "deterministic")
    }

    @Test("seeds 2^32 apart, and 0 and the largest, draw distinct networks and segments")
    func seedsTwoToTheThirtyTwoApartAreDistinct() throws {
        let scratch = TestPaths.scratch("seed")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.writeSyntheticScenario(scratch)
        let seeds = ["1", "4294967297", "8589934593", "18446744069414584321", "18446744073709551615", "0"]
        let networks = try seeds.map { try Self.runOutput(scenario, seed: $0, in: scratch, file: "capacity.csv") }
        #expect(Set(networks).count == seeds.count, "every seed draws its own network")
        let segments = try seeds.map { try Self.runOutput(scenario, seed: $0, in: scratch, file: "segments.csv") }
        #expect(Set(segments).count == seeds.count)
    }

    @Test("every command takes --seed: the same seed repeats its output and another seed changes it")
    func everyCommandTakesTheSeed() throws {
        let scratch = TestPaths.scratch("seed")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.writeSyntheticScenario(scratch)
        let model = writeFile(
            scratch, "model.json", #"{"model": "lognormal", "meanKbps": 1500, "spread": 0.8, "seconds": 120}"#)
        // For compare: a varying trace (drawn once, seed 1) and 40 segments, so festive's random targets matter.
        #expect(
            try runABRSim(["trace", "generate", model, "--out", scratch + "/varying.csv"], in: scratch).status == 0)
        let sizes = Array(repeating: "[1200000, 4000000, 12000000]", count: 40).joined(separator: ", ")
        writeFile(
            scratch, "movie.json",
            #"{"segment_duration_ms": 4000, "bitrates_kbps": [300, 1000, 3000], "segment_sizes_bits": ["#
                + sizes + "]}")
        func output(_ arguments: [String], file: String?) throws -> String {
            let out = TestPaths.scratch("seed-out")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let outcome = try runABRSim(arguments.map { $0 == "{OUT}" ? out : $0 }, in: scratch)
            #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
            guard let file else { return outcome.standardOutput }
            return try String(contentsOfFile: out + "/" + file, encoding: .utf8)
        }
        for (arguments, file) in [
            (["trace", "generate", model], String?.none),
            (["sweep", scenario, "--out", "{OUT}"], "summary.csv"),
            (["tune", scenario, "--out", "{OUT}", "--grid", "1,2"], "tune.csv"),
            (
                [
                    "compare", "--traces", scratch + "/varying.csv", "--content", scratch + "/movie.json",
                    "--policies", "festive(targetBuffer=20,spread=10)", "--out", "{OUT}",
                ], "segments.csv"
            ),
            (["check", scenario, "--junit", "{OUT}/junit.xml"], String?.none),
        ] {
            let a = try output(arguments + ["--seed", "5"], file: file)
            let b = try output(arguments + ["--seed", "5"], file: file)
            let c = try output(arguments + ["--seed", "4294967301"], file: file)
            #expect(a == b, "\(arguments[0]): the same seed gives the same output")
            if arguments[0] != "check" { #expect(a != c, "\(arguments[0]): another seed, other draws") }
        }
    }

    // MARK: - 8. Sweep inputs and the sweep lock

    @Test("resuming a sweep whose trace changed is refused, naming it, keeping the rows, until --force")
    func aResumedSweepRefusesAChangedTraceNamingIt() throws {
        let scratch = TestPaths.scratch("sweep-inputs")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = writeFile(
            scratch, "s.json", try String(contentsOfFile: Self.fixtures + "/ok/scenario.json", encoding: .utf8))
        let trace = writeFile(scratch, "a.csv", "time_s,bandwidth_kbps\n0,3000\n60,3000\n")
        writeFile(scratch, "b.csv", "time_s,bandwidth_kbps\n0,1000\n60,1000\n")
        let arguments = ["sweep", scenario, "--traces", trace, scratch + "/b.csv", "--out", scratch + "/out"]
        #expect(try runABRSim(arguments, in: scratch).status == 0)
        let summary = try String(contentsOfFile: scratch + "/out/summary.csv", encoding: .utf8)
        #expect(try runABRSim(arguments, in: scratch).status == 0, "an unchanged sweep resumes (nothing to do)")
        writeFile(scratch, "a.csv", "time_s,bandwidth_kbps\n0,2000\n60,2000\n")
        let changed = try runABRSim(arguments, in: scratch)
        BadInputCatalogueTests.expectOneLineError(changed, mentions: [trace, "differs from the one the sweep in"])
        #expect(try String(contentsOfFile: scratch + "/out/summary.csv", encoding: .utf8) == summary, "rows kept")
        #expect(try runABRSim(arguments + ["--force"], in: scratch).status == 0, "--force starts over")
        #expect(try String(contentsOfFile: scratch + "/out/summary.csv", encoding: .utf8) != summary)
    }

    @Test("resuming a sweep whose trace and content changed is refused, naming both")
    func aResumedSweepRefusesAChangedContentFile() throws {
        let scratch = TestPaths.scratch("sweep-inputs")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let trace = writeFile(scratch, "t.csv", "time_s,bandwidth_kbps\n0,3000\n60,3000\n")
        let scenario = writeFile(
            scratch, "s.json",
            #"{"network": {"trace": "t.csv"}, "content": {"sabreMovie": "movie.json"}, "players": [{"id": "p", "policy": "bba"}]}"#
        )
        let movie = try String(contentsOfFile: Self.fixtures + "/ok/movie.json", encoding: .utf8)
        writeFile(scratch, "movie.json", movie)
        let arguments = ["sweep", scenario, "--policies", "bba,bola", "--out", scratch + "/out"]
        #expect(try runABRSim(arguments, in: scratch).status == 0)
        writeFile(scratch, "t.csv", "time_s,bandwidth_kbps\n0,3000\n61,3000\n")
        writeFile(scratch, "movie.json", movie + " ")
        let changed = try runABRSim(arguments, in: scratch)
        BadInputCatalogueTests.expectOneLineError(
            changed, mentions: [trace, "movie.json", "differs from the one the sweep in"])
    }

    /// Holds `folder`'s sweep lock exclusively, as a running sweep does, while `body` runs.
    static func holdingSweepLock(_ folder: String, _ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(atPath: folder + "/.sweep", withIntermediateDirectories: true)
        // Close-on-exec: a child another test starts meanwhile must not inherit (and so keep) the lock.
        let descriptor = open(folder + "/.sweep/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        try body()
    }

    @Test("every command that writes refuses a folder a running sweep holds and leaves it alone")
    func everyWriterHonoursARunningSweepsLock() throws {
        let scratch = TestPaths.scratch("sweep-lock")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.fixtures + "/ok/scenario.json"
        let folder = scratch + "/out"
        #expect(try runABRSim(["sweep", scenario, "--out", folder], in: scratch).status == 0)
        let before = try BadInputCatalogueTests.listing(folder)
        let summary = try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8)
        try Self.holdingSweepLock(folder) {
            for arguments in [
                ["run", scenario, "--out", folder, "--force"],
                ["run", scenario, "--out", scratch + "/elsewhere", "--plots", folder + "/plots"],
                ["sweep", scenario, "--out", folder, "--force"],
                ["tune", scenario, "--out", folder, "--force", "--grid", "1,2"],
                [
                    "compare", "--traces", Self.fixtures + "/ok/constant.csv", "--content",
                    Self.fixtures + "/ok/movie.json",
                    "--policies", "bba", "--out", folder, "--force",
                ],
                ["plot", folder],
                ["merge", folder, "--out", folder, "--force"],
                ["check", scenario, "--junit", folder + "/junit.xml"],
                ["trace", "convert", Self.fixtures + "/ok/constant.csv", "--to", "csv", "--out", folder + "/t.csv"],
            ] {
                let outcome = try runABRSim(arguments, in: scratch)
                BadInputCatalogueTests.expectOneLineError(outcome, mentions: ["another abrsim sweep is writing"])
                #expect(try BadInputCatalogueTests.listing(folder) == before, "\(arguments[0]) left the folder alone")
            }
        }
        #expect(try String(contentsOfFile: folder + "/summary.csv", encoding: .utf8) == summary)
        let after = try runABRSim(["run", scenario, "--out", folder, "--force"], in: scratch)
        #expect(after.status == 0, "the lock released, --force replaces the sweep: \(after.standardError)")
    }

    // MARK: - 10. merge names the shard that is missing

    @Test("merging shards with one missing is refused, naming the folders and the missing shard")
    func mergeWithAMissingShardNamesTheFolders() throws {
        let scratch = TestPaths.scratch("merge-missing")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = Self.fixtures + "/ok/scenario.json"
        for shard in ["1/3", "3/3"] {
            let name = scratch + "/shard-" + shard.prefix(1)
            let outcome = try runABRSim(
                ["sweep", scenario, "--policies", "bba,bola,throughput", "--shard", shard, "--out", name], in: scratch)
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        let outcome = try runABRSim(
            ["merge", scratch + "/shard-1", scratch + "/shard-3", "--out", scratch + "/merged"], in: scratch)
        BadInputCatalogueTests.expectOneLineError(
            outcome, mentions: [scratch + "/shard-1", "shard 2/3", "missing shard 2/3", scratch + "/shard-3"])
        #expect(!outcome.standardError.contains("DIR"))
        #expect(!FileManager.default.fileExists(atPath: scratch + "/merged"))
    }

    // MARK: - 9. Text from a child is escaped wherever it is written

    @Test("control characters and bad UTF-8 from a policy child are escaped in every output, stderr and JUnit file")
    func aChildsControlCharactersAreEscapedEverywhere() throws {
        let scratch = TestPaths.scratch("child-text")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Replies with CR, U+2028, a NUL and bad UTF-8, after writing the same to stderr.
        writeFile(
            scratch, "liar.py",
            """
            import sys
            sys.stdin.readline()
            sys.stderr.buffer.write(b"bad\\rnews\\xe2\\x80\\xa8here\\x00\\xff\\x1b[31m\\n")
            sys.stderr.flush()
            sys.stdout.buffer.write(b"{\\"variant\\": \\"\\r\\xe2\\x80\\xa8\\x00\\xff\\"}\\n")
            sys.stdout.flush()
            """)
        let scenario = writeFile(
            scratch, "s.json",
            """
            {"name": "liar", "network": {"preset": "lte"},
             "content": {"ladderKbps": [500, 2000], "segmentSeconds": 4, "segments": 3},
             "players": [{"id": "p", "policy": {"name": "external", "command": ["python3", "liar.py"]}}],
             "expect": [{"metric": "segments", "min": 3}]}
            """)
        let run = try runABRSim(["run", scenario, "--out", scratch + "/out"], in: scratch)
        #expect(run.status == 1)
        #expect(run.standardError.hasSuffix("\n") && run.standardError.dropLast().split(separator: "\n").count == 1)
        #expect(run.standardError.contains("external policy"))
        let check = try runABRSim(["check", scenario, "--junit", scratch + "/junit.xml"], in: scratch)
        #expect(check.status == 1)
        var written: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: scratch + "/out") where !name.hasPrefix(".") {
            guard let data = FileManager.default.contents(atPath: scratch + "/out/" + name), !data.isEmpty else {
                continue
            }
            written[name] = data
        }
        written["junit.xml"] = FileManager.default.contents(atPath: scratch + "/junit.xml")
        written["stderr"] = Data(run.standardError.utf8)
        written["stdout"] = Data((run.standardOutput + check.standardOutput).utf8)
        #expect(written.keys.contains("timeline.csv") && written.keys.contains("plots/index.html"))
        var sawReason = false
        for (name, data) in written {
            guard let text = String(data: data, encoding: .utf8) else {
                Issue.record("\(name) is not valid UTF-8")
                continue
            }
            if text.contains("\\u{2028}") { sawReason = true }
            for scalar in text.unicodeScalars where scalar != "\n" && (scalar != "\t" || name.hasSuffix(".svg")) {
                #expect(!VisibleText.isEscaped(scalar), "\(name) holds U+\(String(scalar.value, radix: 16))")
            }
            #expect(!text.contains("\u{FFFD}") || name == "stdout", "\(name): bad UTF-8 shown as bytes")
        }
        #expect(sawReason, "the child's text is shown, escaped")
    }
}
