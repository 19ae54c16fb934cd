import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim sabre` as a drop-in for `python3 src/sabre.py`, `compare`/`sweep --profile sabre`, and the sabre
/// flags and policies they refuse (one line on stderr, exit 2, nothing on stdout).
@Suite("abrsim sabre and the sabre profile")
struct SabreCommandTests {
    static let data = "scenarios/data"
    static let network = data + "/traces/sabre/example-network.json"
    static let movie = data + "/content/sabre/bbb.json"

    @Test("abrsim sabre prints what sabre prints, with long forms, = values and prefixes of its flags")
    func printsWhatSabrePrintsWithTheSameFlags() throws {
        let fixtures = TestPaths.packageRoot + "/Tests/Fixtures/reference/sabre/verbose"
        let runs = try String(contentsOfFile: fixtures + "/runs.txt", encoding: .utf8)
        for line in runs.split(separator: "\n").prefix(2) {
            let parts = line.split(separator: "|", maxSplits: 1)
            let outcome = try runABRSim(
                ["sabre"] + parts[1].split(separator: " ").map(String.init), in: TestPaths.packageRoot)
            #expect(outcome.status == 0)
            #expect(outcome.standardError.isEmpty)
            let expected = try String(contentsOfFile: fixtures + "/\(parts[0]).txt", encoding: .utf8)
            #expect(outcome.standardOutput == expected, "\(parts[0])")
        }
        // Long forms, `=` values and unique prefixes are sabre's (argparse's) too.
        let short = try runABRSim(
            ["sabre", "-n", Self.network, "-m", Self.movie, "-a", "bola", "-b", "60"], in: TestPaths.packageRoot)
        let long = try runABRSim(
            ["sabre", "--network=" + Self.network, "--movie", Self.movie, "--abr", "bola", "--max-b", "60"],
            in: TestPaths.packageRoot)
        #expect(short.status == 0 && long.standardOutput == short.standardOutput)
        #expect(short.standardOutput.hasPrefix("buffer size: 60000\n"))
    }

    @Test("abrsim sabre refuses unsupported or bad flags and inputs by name in one line, exit 2")
    func refusesUnsupportedAndBadFlagsByName() throws {
        let base = ["sabre", "-n", Self.network, "-m", Self.movie]
        let options = "-n, -nm, -m, -ml, -a, -ab, -ao, -gp, -noibr, -ma, -ws, -hl, -s, -r, -b, -noa, -rmp, -v"
        let cases: [([String], String)] = [
            (
                ["-a", "bba"],
                "-a: sabre supports only implemented ABRs, got 'bba' (its Bba raises NotImplementedError)"
            ),
            (
                ["-a", "MyAbr.py"],
                "-a: abrsim sabre supports only built-in ABRs, got 'MyAbr.py' (it runs no custom ABR module)"
            ),
            (["-a", "nosuch"], "-a: unknown ABR 'nosuch' (known: bola, bolae, throughput, dynamic, dynamicdash)"),
            (
                ["-r", "MyReplacement.py"],
                "-r: abrsim sabre supports only built-in replacements, got 'MyReplacement.py' (it runs no custom "
                    + "replacement module)"
            ),
            (["-b", "lots"], "-b: expected a float, found 'lots'"),
            (["-b", "0"], "-b: must be > 0, got '0'"),
            (["-nm", "0"], "-nm: sabre supports only a multiplier > 0, got '0' (it loops forever at 0)"),
            (["-gp", "nan"], "-gp: must be finite, got 'nan'"),
            (["--bogus"], "--bogus: unknown argument '--bogus' (known: \(options))"),
            (
                ["--n"],
                "--n: expected a unique option prefix, found a prefix of --network, --network-multiplier, "
                    + "--no-insufficient-buffer-rule or --no-abandon"
            ),
            (["-ma", "median"], "-ma: must be ewma or sliding, got 'median'"),
            (["-ws"], "-ws: expected at least one argument, found none"),
            (["-ma", "sliding", "-ws", "0"], "-ws: window sizes must be at least 1, got 0"),
            (["-hl", "0"], "-hl: half-lives must be > 0, got 0"),
            (["-s", "10"], "-s: expected 2 arguments, found 1"),
            (["-s", "10", "900"], "-s: expected a SEEK within the movie's 199 segments, found 900 s"),
            (["-ml", "0"], "-ml: expected a length of 1 to 10,000,000 segments, found 0 s"),
            (["-rmp", "1.5"], "-rmp: expected an integer, found '1.5'"),
            (["-v=1"], "-v: expected no value, found '1'"),
            (["leftover"], "leftover: unknown argument 'leftover' (known: \(options))"),
        ]
        for (arguments, line) in cases {
            let outcome = try runABRSim(base + arguments, in: TestPaths.packageRoot)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardOutput.isEmpty, "\(arguments)")
            #expect(outcome.standardError == "abrsim sabre: " + line + "\n", "\(arguments)")
        }
        // A seek the movie ends before is never made, so it is no mistake (sabre ignores it too).
        let unreached = try runABRSim(base + ["-ml", "30", "-s", "60", "900"], in: TestPaths.packageRoot)
        #expect(unreached.status == 0)
        let plain = try runABRSim(base + ["-ml", "30"], in: TestPaths.packageRoot)
        #expect(unreached.standardOutput == plain.standardOutput)
        let missing = try runABRSim(["sabre", "-n", "nowhere.json", "-m", Self.movie], in: TestPaths.packageRoot)
        #expect(missing.status == 2 && missing.standardError.contains("nowhere.json"))
        let badPeriod = TestPaths.scratch("sabre")
        let path = writeFile(
            badPeriod, "net.json", "[{\"duration_ms\": 1000, \"bandwidth_kbps\": -5, \"latency_ms\": 0}]")
        let negative = try runABRSim(["sabre", "-n", path, "-m", Self.movie], in: TestPaths.packageRoot)
        #expect(negative.status == 2 && negative.standardError.contains("$[0].bandwidth_kbps"))
    }

    // Sabre never feeds abandoned downloads to its estimator: here DYNAMIC keeps asking for a 4K quality that the
    // 3G network cannot bring within 1.8 segment times, abandons it, and asks again; src/sabre.py loops forever.
    @Test("a run sabre itself never finishes is refused, not hung, by sabre and compare")
    func aRunSabreNeverFinishesIsRefusedNotHung() throws {
        let arguments = [
            "-n", Self.data + "/traces/sabre/3g/report.2010-09-14_2303CEST.json", "-m",
            Self.data + "/content/sabre/bbb4k.json", "-a", "dynamic", "-gp", "0.5",
        ]
        let outcome = try runABRSim(["sabre"] + arguments, in: TestPaths.packageRoot)
        #expect(outcome.status == 2 && outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("report.2010-09-14_2303CEST.json: sabre never finishes this run"))
        let batch = try runABRSim(
            [
                "compare", "--profile", "sabre", "--traces", arguments[1], "--content", arguments[3], "--policies",
                "dynamic(gp=0.5)", "--out", TestPaths.scratch("sabre-loop"),
            ], in: TestPaths.packageRoot)
        #expect(batch.status == 2 && batch.standardError.contains("2303CEST.json: sabre never finishes"))
    }

    @Test("compare under the sabre profile writes sabre.csv rows with the values of the in-process run")
    func compareWritesSabreCsvWithTheInProcessValues() throws {
        let out = TestPaths.scratch("sabre-compare")
        let networks = [Self.network, Self.data + "/traces/sabre/4g/report_bus_0001.json"]
        let outcome = try runABRSim(
            ["compare", "--profile", "sabre", "--traces"] + networks + [
                "--content", Self.movie, "--policies", "bola(ao=1,ab=1),throughput(b=60)", "--out", out, "--jobs", "2",
            ], in: TestPaths.packageRoot)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let table = try CSVTable.parse(InputFile.readAll(out + "/sabre.csv"), file: "sabre.csv")
        #expect(table.columns == ["network", "movie", "abr", "options"] + SabreResult.metricNames)
        #expect(
            table.rows.map { $0[2] + " " + $0[3] } == [
                "bola -ao -ab", "bola -ao -ab", "throughput -b 60", "throughput -b 60",
            ])
        #expect(table.rows.map { $0[0] } == networks + networks)
        var options = SabreOptions()
        options.abr = .throughput
        options.maxBufferSeconds = 60
        options.network = TestPaths.packageRoot + "/" + networks[1]
        options.movie = TestPaths.packageRoot + "/" + Self.movie
        #expect(Array(table.rows[3][4...]) == (try SabreSimulation.run(options: options)).values)
    }

    @Test("a sabre sweep expands policy grids into flags, and a shard writes its share of the rows")
    func sweepExpandsGridsAndShards() throws {
        let out = TestPaths.scratch("sabre-sweep")
        let arguments = [
            "sweep", "--profile", "sabre", "--traces", Self.network, "--content", Self.movie, "--policies",
            "bola(gp=3..5:1),bolae(noibr=0|1)", "--out", out,
        ]
        let whole = try runABRSim(arguments, in: TestPaths.packageRoot)
        #expect(whole.status == 0, "\(whole.standardError)")
        let table = try CSVTable.parse(InputFile.readAll(out + "/sabre.csv"), file: "sabre.csv")
        #expect(table.rows.map { $0[3] } == ["-gp 3", "-gp 4", "-gp 5", "", "-noibr"])
        let shard = try runABRSim(arguments + ["--shard", "2/2", "--force"], in: TestPaths.packageRoot)
        #expect(shard.status == 0)
        let half = try CSVTable.parse(InputFile.readAll(out + "/sabre.csv"), file: "sabre.csv")
        #expect(half.rows.map { $0[3] } == ["-gp 4", ""])
        #expect(half.rows[0] == table.rows[1])
    }

    @Test("sabre flags after -- apply to every policy, the last -b winning, and may not set -a")
    func flagsAfterTheTerminatorApplyToEveryPolicy() throws {
        let out = TestPaths.scratch("sabre-common")
        let outcome = try runABRSim(
            [
                "compare", "--profile", "sabre", "--traces", Self.network, "--content", Self.movie, "--policies",
                "bola,throughput(b=10)", "--out", out, "--", "-b", "60", "-noa",
            ], in: TestPaths.packageRoot)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let table = try CSVTable.parse(InputFile.readAll(out + "/sabre.csv"), file: "sabre.csv")
        #expect(table.rows.map { $0[3] } == ["-b 60 -noa", "-b 60 -noa -b 10"])
        #expect(table.rows.map { $0[4] } == ["60000", "10000"])  // sabre's rule: the last -b wins
        let refused = try runABRSim(
            [
                "compare", "--profile", "sabre", "--traces", Self.network, "--content", Self.movie, "--policies",
                "bola",
                "--out", TestPaths.scratch("sabre-common"), "--", "-a", "bolae",
            ], in: TestPaths.packageRoot)
        #expect(refused.status == 2)
        #expect(
            refused.standardError
                == "abrsim compare: --policies: 'bola': --: -a: does not apply to the flags after -- (--traces, "
                + "--content and --policies set it)\n")
    }

    @Test("the sabre profile refuses policies and parameters sabre cannot run, exit 2")
    func refusesPoliciesSabreCannotRun() throws {
        let flags = "nm, ml, ab, ao, gp, noibr, ma, ws, hl, s, r, b, noa, rmp"
        for (policy, message) in [
            ("bola(zz=1)", "'bola(zz=1)': unknown parameter 'zz' (expected one of: \(flags))"),
            ("bola(ao=2)", "'bola(ao=2)': ao: must be 1 or 0, got '2'"),
            ("bba", "'bba': -a: sabre supports only implemented ABRs, got 'bba' (its Bba raises NotImplementedError)"),
            ("bola(v=1)", "'bola(v=1)': unknown parameter 'v' (expected one of: \(flags))"),
            ("bola(b=x)", "'bola(b=x)': -b: expected a float, found 'x'"),
            ("bola(ml=0)", "'bola(ml=0)': ml: expected a length of 1 to 10,000,000 segments, found 0 s"),
        ] {
            let outcome = try runABRSim(
                [
                    "compare", "--profile", "sabre", "--traces", Self.network, "--content", Self.movie, "--policies",
                    policy,
                    "--out", TestPaths.scratch("sabre-bad"),
                ], in: TestPaths.packageRoot)
            #expect(outcome.status == 2, "\(policy)")
            #expect(outcome.standardError == "abrsim compare: --policies: \(message)\n", "\(policy)")
        }
    }

    @Test("abrsim policies says what the sabre profile changes and where it is documented")
    func policiesSaysWhatTheProfileChanges() throws {
        let outcome = try runABRSim(["policies"])
        #expect(outcome.status == 0)
        for fragment in ["--profile sabre", "bolae — sabre's BolaEnh", "dynamicdash", "noibr", "docs/sabre-profile.md"]
        {
            #expect(outcome.standardOutput.contains(fragment), "\(fragment)")
        }
    }
}
