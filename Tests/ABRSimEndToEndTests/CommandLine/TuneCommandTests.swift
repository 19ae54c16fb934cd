import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim tune` driven through the built binary: help, output, determinism across jobs, errors.
@Suite("abrsim tune")
struct TuneCommandTests {
    static var fixtures: String { TestPaths.packageRoot + "/Tests/Fixtures/tune" }

    @Test("tune's help documents the objective language and the measurement format")
    func helpDocumentsTheObjectiveLanguageAndTheMeasurementFormat() throws {
        let outcome = try runABRSim(["tune", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("subject to"))
        #expect(outcome.standardOutput.contains("rebuffer_ratio"))
        #expect(outcome.standardOutput.contains("t_s, player (an id of the scenario) and throughput_kbps"))
        #expect(try runABRSim(["--help"]).standardOutput.contains("tune"))
    }

    @Test("tune.csv is the same for one job or two, its objective the players' summed QoE, and the best point printed")
    func tuneCsvIsTheSameForAnyNumberOfJobsAndTheBestPointIsPrinted() throws {
        let directory = TestPaths.scratch("tune")
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let outcome = try runABRSim([
                "tune", Self.fixtures + "/two-views.json", "--objective", "max sum qoe_lin", "--jobs", jobs,
                "--out", directory + "/j" + jobs,
            ])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("default table"))
            #expect(outcome.standardOutput.contains("best (#"))
            outputs.append(try String(contentsOfFile: directory + "/j\(jobs)/tune.csv", encoding: .utf8))
        }
        #expect(outputs[0] == outputs[1])
        let table = try CSVTable.parse(Array(outputs[0].utf8), file: "tune.csv")
        #expect(
            table.columns.prefix(9) == [
                "phase", "evaluation", "weight_low", "weight_default", "weight_high", "priorities", "objective",
                "feasible", "violation",
            ])
        #expect(table.columns.contains("qoe_lin[main]") && table.columns.contains("rebuffer_ratio[tile]"))
        #expect(table.rows[0][0] == "baseline")
        #expect(table.column("evaluation") == table.rows.indices.map { String($0 + 1) })
        // The objective column is the sum of the players' qoe_lin on every row.
        for row in table.rows {
            let value = { (name: String) in Double(row[table.columns.firstIndex(of: name)!])! }
            #expect(abs(value("objective") - value("qoe_lin[main]") - value("qoe_lin[tile]")) < 1e-9)
        }
    }

    @Test("a scenario's tune key sets the objective and grid, and a bad objective there is named by its path")
    func theScenariosTuneKeySetsTheObjective() throws {
        let directory = TestPaths.scratch("tunekey")
        var text = try String(contentsOfFile: Self.fixtures + "/two-views.json", encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"seed\": 3,",
            with:
                "\"seed\": 3, \"tune\": {\"objective\": \"max min qoe_lin\", \"grid\": [1, 4], "
                + "\"maxSimplexEvaluations\": 0},"
        )
        let path = writeFile(directory, "s.json", text)
        let outcome = try runABRSim(["tune", path, "--out", directory + "/out"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("objective: max min qoe_lin\n"))
        // Baseline 1/2/4 (high:low = 4) is the grid's 4 as well, so only ratio 1 is new: two points.
        #expect(outcome.standardOutput.contains("2 points evaluated (1 baseline, 1 grid, 0 simplex)"))
        let bad = writeFile(
            directory, "bad.json", text.replacingOccurrences(of: "max min qoe_lin", with: "max min qoe"))
        let failure = try runABRSim(["tune", bad, "--out", directory + "/bad"])
        #expect(failure.status == 2)
        #expect(failure.standardError.contains("bad.json: $.tune.objective: bad objective 'max min qoe'"))
    }

    @Test("bad objectives, selectors, grids or measurement paths make tune exit 2 and write nothing")
    func badArgumentsExitWithStatusTwoAndWriteNothing() throws {
        let directory = TestPaths.scratch("tunebad")
        let scenario = Self.fixtures + "/two-views.json"
        let cases: [([String], String)] = [
            (
                ["--objective", "max qoe_lin[main] subject to stall_s < 1"],
                "--objective: bad objective 'max qoe_lin[main] subject to stall_s < 1'"
            ),
            (["--objective", "max qoe_lin[side]"], "qoe_lin[side]: unknown player 'side'"),
            (["--grid", "1,x"], "--grid: expected ratios separated by commas"),
            (["--grid", "0,2"], "ratios must be in 1e-06…1e+06, got 0.0"),
            (["--calibrate", directory + "/missing.csv"], "missing.csv"),
        ]
        for (arguments, fragment) in cases {
            let outcome = try runABRSim(["tune", scenario, "--out", directory + "/out"] + arguments)
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains(fragment), "\(outcome.standardError)")
            #expect(outcome.standardError.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
    }

    @Test("tune --calibrate reports the fit error and refuses a bad measurement line by number")
    func calibrationReportsTheFitAndBadMeasurementLines() throws {
        let directory = TestPaths.scratch("tunecal")
        let measured = writeFile(
            directory, "measured.csv",
            try TuningFixture.measurementsText(weights: PriorityWeights(low: 1, standard: 3, high: 9)))
        let outcome = try runABRSim([
            "tune", Self.fixtures + "/three-levels.json", "--calibrate", measured, "--out", directory + "/out",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("rms_share_error"))
        let table = try CSVTable.parse(
            Array(try String(contentsOfFile: directory + "/out/tune.csv", encoding: .utf8).utf8), file: "tune.csv")
        #expect(table.columns[6] == "rms_share_error")
        let bad = writeFile(directory, "bad.csv", "t_s,player,throughput_kbps\n1,a,10\n2,b,ten\n")
        let failure = try runABRSim([
            "tune", Self.fixtures + "/three-levels.json", "--calibrate", bad, "--out", directory + "/bad",
        ])
        #expect(failure.status == 2)
        #expect(failure.standardError.contains("bad.csv: line 3: throughput_kbps must be a number ≥ 0, got 'ten'"))
    }
}
