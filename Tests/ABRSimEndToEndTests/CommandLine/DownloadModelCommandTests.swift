import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim model download` and `abrsim trace infer` through the binary, and the scenario's `downloadModel` keys.
@Suite("abrsim model download and trace infer")
struct DownloadModelCommandTests {
    static let reference = TestPaths.packageRoot + "/Tests/Fixtures/reference/tcp/"

    @Test("model download writes CausalSim's slow-start reference times back within 1e-9")
    func modelDownloadWritesTheReferenceTimesBack() throws {
        let outcome = try runABRSim(
            ["model", "download", "--model", "slow-start", Self.reference + "causalsim_slowstart.csv"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let table = try CSVTable.parse(Array(outcome.standardOutput.utf8), file: "stdout")
        let expected = try CSVTable.parse(
            try InputFile.readAll(Self.reference + "causalsim_slowstart.csv"), file: "reference")
        #expect(table.columns == expected.columns)
        #expect(table.rows.count == expected.rows.count)
        for (got, want) in zip(table.column("download_time_s")!, expected.column("download_time_s")!) {
            #expect(abs(Double(got)! / Double(want)! - 1) <= 1e-9)
        }
        #expect(table.column("chunk_bytes") == expected.column("chunk_bytes"))
    }

    @Test(
        "trace infer under slow start gives a run's 4.5 Mbit/s capacity back from its segments, fluid the biased rate")
    func traceInferGivesTheCapacityBackFromARunsSegmentsTable() throws {
        let folder = TestPaths.scratch("infer-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = TestPaths.scenarios + "/download-models/slow-start-bias.json"
        let run = try runABRSim(["run", scenario, "--out", folder + "/out", "--plots", folder + "/plots"])
        #expect(run.status == 0, "\(run.standardError)")
        for (model, kbps) in [("slow-start", 4500.0), ("fluid", 1289.3982808022922)] {
            let outcome = try runABRSim(
                ["trace", "infer", folder + "/out/segments.csv", "--model", model, "--select", "low"])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let trace = try CSVTable.parse(Array(outcome.standardOutput.utf8), file: "stdout")
            let rates = trace.column("bandwidth_kbps")!.map { Double($0)! }
            #expect(rates.count == 31)  // 30 requests and the row that ends the trace
            for rate in rates { #expect(abs(rate / kbps - 1) < 1e-9, "\(model): \(rate)") }
        }
        let segments = try CSVTable.parse(try InputFile.readAll(folder + "/out/segments.csv"), file: "segments")
        #expect(segments.columns.suffix(2) == ["available_kbps", "model_throughput_kbps"])
        let summary = try CSVTable.parse(try InputFile.readAll(folder + "/out/summary.csv"), file: "summary")
        let ratios = summary.column("throughput_capacity_ratio")!.map { Double($0)! }
        #expect(abs(ratios[0] - 1289.3982808022922 / 4500) < 1e-9)
        #expect(abs(ratios[1] - 3833.960768773564 / 4500) < 1e-9)
    }

    @Test("a player's download model overrides the network's, and none is set by default")
    func aPlayersModelOverridesTheNetworksAndFluidIsTheDefault() throws {
        let folder = TestPaths.scratch("model-keys")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/s.json"
        try """
        {"network": {"stretches": [{"constantKbps": 4500, "seconds": 60}], "rttMs": 100,
                     "downloadModel": {"model": "slow-start", "initialRateBytesPerSecond": 6000}},
         "content": {"ladderKbps": [300], "segmentSeconds": 4, "segments": 2},
         "players": [{"id": "a", "policy": "fixed"},
                     {"id": "b", "policy": "fixed", "downloadModel": {"model": "veritas-v3", "initialWindowSegments": 4}},
                     {"id": "c", "policy": "fixed", "downloadModel": "fluid"}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader().load(path)
        let models = scenario.players.map { $0.settings.downloadModel }
        #expect((models[0] as? SlowStartModel)?.initialRateBps == 48000)
        #expect((models[1] as? VeritasModel)?.initialWindowSegments == 4)
        #expect(models[2] is FluidModel)
        try """
        {"network": {"stretches": [{"constantKbps": 4500, "seconds": 60}]},
         "content": {"ladderKbps": [300], "segmentSeconds": 4, "segments": 2},
         "players": [{"id": "a", "policy": "fixed"}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ScenarioLoader().load(path).players[0].settings.downloadModel == nil)
    }
}
