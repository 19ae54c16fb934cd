import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim tune --calibrate`: reading measurements, binning shares, and recovering known weights.
@Suite("tune --calibrate")
struct TuningCalibrationTests {
    @Test("calibration recovers known 1:3:9 weights within 10 % and fits far better than the default table")
    func calibrationRecoversKnownWeightsWithASmallFitError() throws {
        let directory = TestPaths.scratch("calibrate")
        let path = writeFile(
            directory, "measured.csv",
            try TuningFixture.measurementsText(weights: PriorityWeights(low: 1, standard: 3, high: 9))
        )
        let scenario = try ScenarioLoader().load(TuningFixture.threeLevels)
        let measured = try MeasuredThroughput.load(path, scenario: scenario)
        #expect(measured.players == [0, 1, 2])
        var settings = TuneSettings()
        settings.maxSimplexEvaluations = 80
        let fit = try ShareFit(measured: measured, binSeconds: 10, file: path)
        let outcome = try Tuner(scenario: scenario, scoring: .fit(fit), settings: settings, seed: nil, jobs: 2).run()
        let best = outcome.best.weights
        // Stated tolerance: both ratios within 10 %, RMS share error below 0.02 (the default 1/2/4 table is off
        // by more than that).
        #expect(abs(best.standard / best.low / 3 - 1) < 0.1)
        #expect(abs(best.high / best.low / 9 - 1) < 0.1)
        #expect(outcome.best.score.value! < 0.02)
        #expect(outcome.baseline.score.value! > outcome.best.score.value! * 2)
    }

    @Test("measured shares are compared bin by bin, skipping bins where a player is absent")
    func sharesAreComparedBinByBin() throws {
        let scenario = try ScenarioLoader().load(TuningFixture.threeLevels)
        // Bin 0: a 1000, b 3000 (c absent: the bin is skipped). Bin 1: a 1000 and 3000 (mean 2000), b 2000, c 4000.
        let table = CSVTable(
            columns: ["t_s", "player", "throughput_kbps"],
            rows: [
                ["1", "a", "1000"], ["2", "b", "3000"], ["10", "a", "1000"], ["19.9", "a", "3000"],
                ["12", "b", "2000"], ["15", "c", "4000"],
            ])
        let measured = try MeasuredThroughput.parse(table, file: "m.csv", scenario: scenario)
        let fit = try ShareFit(measured: measured, binSeconds: 10, file: "m.csv")
        #expect(fit.measuredShares.count == 1)
        #expect(fit.measuredShares[0].bin == 1)
        #expect(fit.measuredShares[0].shares == [0.25, 0.25, 0.5])
    }

    @Test("the simulated bits are spread over each transfer's bins, keeping each player's total")
    func simulatedBitsAreSpreadOverEachTransfer() throws {
        let scenario = try ScenarioLoader().load(TuningFixture.threeLevels)
        let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let table = CSVTable(
            columns: ["t_s", "player", "observed_bitrate"], rows: [["0", "a", "1"], ["0", "b", "1"]])
        let fit = try ShareFit(
            measured: try MeasuredThroughput.parse(table, file: "m.csv", scenario: scenario), binSeconds: 7,
            file: "m.csv")
        let bins = fit.simulatedBits(report)
        for (index, player) in report.players.enumerated() {
            let total = player.segments.map { $0.bytes * 8 }.reduce(0, +)
            #expect(abs(bins[index].values.reduce(0, +) - total) < 1e-6 * total)
        }
    }

    @Test("each mistake in a measurements file is refused, naming the file and line, or the missing bins")
    func badMeasurementFilesNameTheFileAndLine() throws {
        let scenario = try ScenarioLoader().load(TuningFixture.threeLevels)
        let directory = TestPaths.scratch("measured")
        let ids = scenario.players.map(\.id)
        let cases: [(String, Int?, InputProblem)] = [
            ("time,player,throughput_kbps\n1,a,5\n", 1, .missing("column t_s (expected t_s,player,throughput_kbps)")),
            ("t_s,who,throughput_kbps\n1,a,5\n", 1, .missing("column player (expected t_s,player,throughput_kbps)")),
            (
                "t_s,player,kbps\n1,a,5\n", 1,
                .missing("column throughput_kbps (or observed_bitrate in bit/s, as in an access log)")
            ),
            (
                "t_s,player,throughput_kbps\n1,a,5\n2,b,fast\n", 3,
                .mustBe("throughput_kbps", rule: "a number ≥ 0", found: "'fast'")
            ),
            ("t_s,player,throughput_kbps\n1,a,5\n-2,b,5\n", 3, .mustBe("t_s", rule: "a number ≥ 0", found: "'-2'")),
            (
                "t_s,player,throughput_kbps\n1,a,5\n2,z,5\n", 3,
                .within("player", .unknownName("z", kind: "player", known: ids))
            ),
            (
                "t_s,player,throughput_kbps\n1,a,5\n2,a,5\n", nil,
                .tooFew("measured players", atLeast: 2, found: 1, in: "fitting their shares")
            ),
            ("t_s,player,throughput_kbps\n1,a,5\n2,b,5,9\n", 3, .expected("3 fields as in the header", found: "4")),
        ]
        for (text, line, problem) in cases {
            let path = writeFile(directory, "m.csv", text)
            let error = try #require(throws: InputError.self) { try MeasuredThroughput.load(path, scenario: scenario) }
            #expect(error.place == InputPlace(file: path, position: line.map(InputPlace.Position.line)))
            #expect(error.problem == problem, "\(error)")
        }
        let table = CSVTable(
            columns: ["t_s", "player", "throughput_kbps"], rows: [["1", "a", "5"], ["20", "b", "5"]])
        let apart = try MeasuredThroughput.parse(table, file: "m.csv", scenario: scenario)
        let unfit = try #require(throws: InputError.self) {
            try ShareFit(measured: apart, binSeconds: 10, file: "m.csv")
        }
        #expect(
            unfit
                == InputError(
                    .file("m.csv"), .missing("a 10 s bin with a positive measurement of every measured player")))
    }
}
