import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// A/B without copying files (issue 13, part 6), through the built binary: `--set`, `sweep --grid`,
/// `compare --scenario`, `tune --traces`/`--holdout`; and the warnings and `n/a` intervals of part 5.
@Suite("settings on the command line: --set, --grid, compare --scenario, tune over networks")
struct SettingsOptionsTests {
    /// Two players of different priorities over four constant traces (0.5, 1, 2, 4 Mbit/s for 30 s).
    struct Fixture {
        let directory: String
        var scenario: String { directory + "/pair.json" }
        var traces: String { directory + "/traces" }

        init(_ name: String) {
            directory = TestPaths.scratch(name)
            try! FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
            writeFile(
                directory, "pair.json",
                """
                { "name": "pair", "seed": 3, "network": {"preset": "lte", "rttMs": 50},
                  "content": {"ladderKbps": [300, 750, 1200, 1850], "segmentSeconds": 2, "segments": 10},
                  "players": [
                    {"id": "main", "policy": "throughput", "networkResourcePriority": "high"},
                    {"id": "tile", "policy": "throughput", "networkResourcePriority": "low"}] }
                """)
            for (index, mbps) in [0.5, 1, 2, 4].enumerated() {
                writeFile(traces, "t\(index)", (0...30).map { "\($0)\t\(mbps)" }.joined(separator: "\n") + "\n")
            }
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(fileBytes(path), file: path)
    }

    @Test("--set edits give byte for byte the outputs of the same edits made in a copy of the file")
    func setEditsTheScenarioAsAnEditedCopyOfTheFileWould() throws {
        let fixture = Fixture("set")
        defer { fixture.remove() }
        // The same edits made by hand in a copy of the file.
        let edited = try String(contentsOfFile: fixture.scenario, encoding: .utf8)
            .replacingOccurrences(
                of: "\"policy\": \"throughput\", \"networkResourcePriority\": \"high\"",
                with:
                    "\"policy\": \"bba\", \"networkResourcePriority\": \"high\", \"preferredForwardBufferDuration\": 8"
            )
            .replacingOccurrences(
                of: "\"networkResourcePriority\": \"low\"}",
                with: "\"networkResourcePriority\": \"low\", \"preferredForwardBufferDuration\": 8}"
            )
            .replacingOccurrences(
                of: "{\"preset\": \"lte\", \"rttMs\": 50}", with: "{\"preset\": \"3g\", \"rttMs\": 50}")
        writeFile(fixture.directory, "edited.json", edited.replacingOccurrences(of: "\"pair\"", with: "\"pair\""))
        let byHand = try runABRSim(["run", fixture.directory + "/edited.json", "--out", fixture.directory + "/a"])
        let bySet = try runABRSim([
            "run", fixture.scenario, "--out", fixture.directory + "/b", "--set", "players[0].policy=bba", "--set",
            "players[*].preferredForwardBufferDuration=8", "--set", "$.network.preset=\"3g\"",
        ])
        #expect(byHand.status == 0 && bySet.status == 0, "\(byHand.standardError) \(bySet.standardError)")
        for name in ["summary.csv", "segments.csv", "timeline.csv"] {
            #expect(
                fileBytes(fixture.directory + "/a/" + name) == fileBytes(fixture.directory + "/b/" + name), "\(name)")
        }
        let summary = try Self.table(fixture.directory + "/b/summary.csv")
        #expect(summary.column("policy") == ["bba", "throughput"])
    }

    @Test("check and tune take --set: a capped peak fails a bound, and an edited weight is the tuning baseline")
    func checkAndTuneTakeSetToo() throws {
        let fixture = Fixture("setcheck")
        defer { fixture.remove() }
        let scenario = try String(contentsOfFile: fixture.scenario, encoding: .utf8)
        writeFile(
            fixture.directory, "expect.json",
            scenario.replacingOccurrences(
                of: "\"seed\": 3,",
                with:
                    "\"seed\": 3, \"expect\": [{\"player\": \"main\", \"metric\": \"avg_bitrate_kbps\", \"min\": 1000}],"
            ))
        let passes = try runABRSim(["check", fixture.directory + "/expect.json"])
        #expect(passes.status == 0, "\(passes.standardOutput)")
        // A 400 kbit/s peak keeps the player on the 300 kbit/s rung: the bound fails.
        let capped = try runABRSim([
            "check", fixture.directory + "/expect.json", "--set", "players[0].preferredPeakBitRate=400000",
        ])
        #expect(capped.status == 1 && capped.standardOutput.contains("0 passed, 1 failed"), "\(capped.standardOutput)")
        let tuned = try runABRSim([
            "tune", fixture.scenario, "--set", "allocation.weights.high=8", "--grid", "1,2", "--max-evaluations", "0",
            "--out", fixture.directory + "/tune",
        ])
        #expect(tuned.status == 0, "\(tuned.standardError)")
        let table = try Self.table(fixture.directory + "/tune/tune.csv")
        #expect(table.column("weight_high")?.first == "8", "the baseline is the edited table")
    }

    @Test("a sweep grid crosses settings with traces and policies, identical across jobs, shards and resumes")
    func aGridCrossesSettingsWithTracesAndPoliciesAndStaysByteIdenticalResumableAndMergeable() throws {
        let fixture = Fixture("grid")
        defer { fixture.remove() }
        let common = [
            "sweep", fixture.scenario, "--traces", fixture.traces, "--policies", "bba,throughput", "--grid",
            "allocation.strategy=weighted|equal|strict", "--grid",
            "players[*].automaticallyWaitsToMinimizeStalling=true|false",
        ]
        let one = try runABRSim(common + ["--jobs", "1", "--out", fixture.directory + "/one"])
        let two = try runABRSim(common + ["--jobs", "2", "--batch", "1", "--out", fixture.directory + "/two"])
        #expect(one.status == 0 && two.status == 0, "\(one.standardError)")
        #expect(one.standardOutput.contains("48 runs (4 traces × 2 policies × 6 grid points)"))
        expectSameSweepFolders(fixture.directory + "/one", fixture.directory + "/two")
        for shard in 1...3 {
            let part = try runABRSim(common + ["--shard", "\(shard)/3", "--out", fixture.directory + "/s\(shard)"])
            #expect(part.status == 0)
        }
        let merged = try runABRSim(
            ["merge"] + (1...3).map { fixture.directory + "/s\($0)" } + ["--out", fixture.directory + "/merged"])
        #expect(merged.status == 0, "\(merged.standardError)")
        expectSameSweepFolders(fixture.directory + "/one", fixture.directory + "/merged")
        // Every row carries the point's values in their own columns: trace-major, then the grid (first axis
        // slowest), then the policy, each run's two players in a row.
        let summary = try Self.table(fixture.directory + "/one/summary.csv")
        #expect(summary.rows.count == 96)
        let strategy = try #require(summary.column("allocation.strategy"))
        let waits = try #require(summary.column("players[*].automaticallyWaitsToMinimizeStalling"))
        #expect(
            Array(strategy.prefix(24)) == ["weighted", "equal", "strict"].flatMap { Array(repeating: $0, count: 8) })
        #expect(Array(waits.prefix(8)) == ["true", "true", "true", "true", "false", "false", "false", "false"])
        #expect(summary.column("trace")?.prefix(24).allSatisfy { $0 == "t0" } == true)
        let segments = try Self.table(fixture.directory + "/one/segments.csv")
        #expect(segments.column("allocation.strategy")?.count == segments.rows.count)
        // A grid point's rows are the sweep with --set of its values.
        let point = try runABRSim([
            "sweep", fixture.scenario, "--traces", fixture.traces, "--policies", "bba,throughput", "--set",
            "allocation.strategy=strict", "--set", "players[*].automaticallyWaitsToMinimizeStalling=false", "--out",
            fixture.directory + "/point",
        ])
        #expect(point.status == 0)
        let single = try Self.table(fixture.directory + "/point/summary.csv")
        let rows = summary.rows.indices.filter { strategy[$0] == "strict" && waits[$0] == "false" }
        #expect(rows.map { Array(summary.rows[$0].prefix(single.columns.count)) } == single.rows)
        // The same grid resumes (complete: nothing to do); another grid is refused.
        let again = try runABRSim(common + ["--out", fixture.directory + "/one"])
        #expect(again.status == 0 && again.standardOutput.contains("already complete"))
        let other = try runABRSim([
            "sweep", fixture.scenario, "--traces", fixture.traces, "--policies", "bba,throughput", "--grid",
            "allocation.strategy=weighted|equal", "--out", fixture.directory + "/one",
        ])
        #expect(other.status == 2 && other.standardError.contains("the sweep this folder holds differs"))
    }

    @Test("compare takes its player from a scenario, so --set can turn waiting off, as in a sweep")
    func compareTakesThePlayerFromAScenarioSoWaitingCanBeTurnedOff() throws {
        let fixture = Fixture("cmpscn")
        defer { fixture.remove() }
        let scenario = TestPaths.scenarios + "/tunnel-stall.json"
        let traces = TestPaths.scenarios + "/traces/TMobile-UMTS-driving.down"
        func compare(_ name: String, _ extra: [String]) throws -> CSVTable {
            let outcome = try runABRSim(
                [
                    "compare", "--scenario", scenario, "--traces", traces, "--policies", "bba", "--out",
                    fixture.directory + "/" + name,
                ] + extra)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            return try Self.table(fixture.directory + "/" + name + "/summary.csv")
        }
        let waiting = try compare("waiting", [])
        let notWaiting = try compare("off", ["--set", "players[0].automaticallyWaitsToMinimizeStalling=false"])
        // The same player, trace, RTT and seed as sweep's run of the scenario on that trace.
        let sweep = try runABRSim([
            "sweep", scenario, "--traces", traces, "--policies", "bba", "--set",
            "players[0].automaticallyWaitsToMinimizeStalling=false", "--out", fixture.directory + "/sweep",
        ])
        #expect(sweep.status == 0)
        let swept = try Self.table(fixture.directory + "/sweep/summary.csv")
        let measured = ["segments", "stall_s", "startup_s", "avg_bitrate_kbps", "bytes", "qoe_lin", "switch_count"]
        for column in measured {
            #expect(notWaiting.column(column) == swept.column(column), "\(column)")
        }
        #expect(waiting.column("stall_s") != notWaiting.column("stall_s"), "waiting changes the run")
    }

    @Test("tune over networks holds out a seeded share, reports both tables on it, and orders its aggregates")
    func tuneOverNetworksHoldsOutASeededShareAndReportsBothTablesOnIt() throws {
        let fixture = Fixture("tunenet")
        defer { fixture.remove() }
        func tune(_ name: String, _ extra: [String]) throws -> (CommandOutcome, CSVTable) {
            let outcome = try runABRSim(
                [
                    "tune", fixture.scenario, "--traces", fixture.traces, "--grid", "1,4", "--max-evaluations", "0",
                    "--objective", "max qoe_lin[main]", "--out", fixture.directory + "/" + name,
                ] + extra)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            return (outcome, try Self.table(fixture.directory + "/" + name + "/tune.csv"))
        }
        let (held, heldTable) = try tune("held", ["--holdout", "0.5"])
        #expect(held.standardOutput.contains("(mean over 2 networks)"))
        #expect(held.standardOutput.contains("on the 2 held-out networks (mean): default table"))
        #expect(heldTable.column("phase")?.suffix(2) == ["holdout", "holdout"])
        let (_, again) = try tune("again", ["--holdout", "0.5", "--jobs", "1"])
        #expect(again.rows == heldTable.rows, "the split and the search are deterministic")
        // The aggregate: the baseline's p0 ≤ mean ≤ p100 of the per-network objective, over all four.
        var baseline: [Double] = []
        for aggregate in ["p0", "mean", "p100"] {
            let (outcome, table) = try tune(aggregate, ["--aggregate", aggregate])
            #expect(outcome.standardOutput.contains("(\(aggregate) over 4 networks)"))
            baseline.append(try #require(Double(table.column("objective")![0])))
        }
        #expect(baseline[0] <= baseline[1] && baseline[1] <= baseline[2] && baseline[0] < baseline[2])
    }

    @Test("settings that defeat themselves print a warning naming them, and sound ones print nothing")
    func selfDefeatingSettingsPrintAWarningNamingThem() throws {
        let fixture = Fixture("warn")
        defer { fixture.remove() }
        let twice = try runABRSim([
            "compare", "--scenario", fixture.scenario, "--player", "main", "--traces", fixture.traces + "/t0",
            "--policies", "bba,bba", "--out", fixture.directory + "/c",
        ])
        #expect(twice.status == 0)
        #expect(twice.standardError.contains("warning: --policies: 'bba' is listed 2 times"))
        let map = try runABRSim([
            "sweep", fixture.scenario, "--traces", fixture.traces + "/t0", "--policies", "bba(reservoir=12,cushion=12)",
            "--set", "players[*].preferredForwardBufferDuration=20", "--out", fixture.directory + "/s",
        ])
        #expect(map.status == 0)
        #expect(
            map.standardError.contains("reservoir 12 s + cushion 12 s is above preferredForwardBufferDuration 20 s"))
        let peak = try runABRSim([
            "run", fixture.scenario, "--set", "players[1].preferredPeakBitRate=750", "--out", fixture.directory + "/r",
        ])
        #expect(peak.status == 0)
        #expect(peak.standardError.contains("$.players[1] (tile): preferredPeakBitRate 750 bit/s is below the lowest"))
        let quiet = try runABRSim(["run", fixture.scenario, "--out", fixture.directory + "/q"])
        #expect(quiet.standardError.isEmpty, "\(quiet.standardError)")
    }

    @Test("compare counts failed runs and prints n/a for intervals of fewer than two values")
    func compareCountsFailuresAndPrintsNAForIntervalsOfFewerThanTwoValues() throws {
        let fixture = Fixture("cmpfail")
        defer { fixture.remove() }
        let outcome = try runABRSim([
            "compare", "--scenario", fixture.scenario, "--player", "main", "--traces", fixture.traces + "/t1",
            fixture.traces + "/t2", "--policies", "throughput,external(command=false)", "--out",
            fixture.directory + "/c",
        ])
        #expect(outcome.status == 1, "a failed player")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let crashed = try #require(lines.first { $0.hasPrefix("external") })
        // n 0, failed 2, and no number in any cell.
        #expect(
            crashed.split(separator: " ").filter { !$0.isEmpty }.dropFirst() == ["0", "2", "n/a", "n/a", "n/a", "n/a"])
        let stats = try Self.table(fixture.directory + "/c/stats.csv")
        let row = try #require(stats.rows.first { $0[0] == "external(command=false)" && $0[1] == "qoe_lin" })
        #expect(row[stats.columns.firstIndex(of: "failed")!] == "2" && row[stats.columns.firstIndex(of: "mean")!] == "")
        let single = try runABRSim([
            "compare", "--scenario", fixture.scenario, "--player", "main", "--traces", fixture.traces + "/t1",
            "--policies", "throughput", "--out", fixture.directory + "/one",
        ])
        #expect(single.status == 0 && single.standardOutput.contains(" ± n/a"))
        #expect(!single.standardOutput.contains("± 0.00"))
    }
}
