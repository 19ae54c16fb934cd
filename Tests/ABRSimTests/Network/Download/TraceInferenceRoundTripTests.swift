import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The trace-replay bias and its inversion (issue 19): a low-bitrate player under CausalSim's slow start on a
/// known constant capacity; its segments.csv, read back as a throughput log and inverted under the same model,
/// gives the capacity back, while plain replay (fluid) is off by exactly the ratio the model predicts.
@Suite("capacity inferred back from a run")
struct TraceInferenceRoundTripTests {
    /// 20 capacities from 1.5 to 6 Mbit/s: a 150 kB segment (300 kbit/s × 4 s) leaves the ramp at all of them.
    static let capacitiesKbps = (0..<20).map { 1500 + Double($0) * 4500 / 19 }

    @Test(
        "inverting a slow-start segments log gives capacity within 5 %, where plain replay is off by the model's ratio")
    func inferredCapacityIsWithinFivePercentWherePlainReplayIsOffByTheModelsRatio() throws {
        let folder = TestPaths.scratch("infer-round-trip")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let model = SlowStartModel()
        for kbps in Self.capacitiesKbps {
            let path = folder + "/scenario.json"
            let json = """
                {"network": {"stretches": [{"constantKbps": \(kbps), "seconds": 600}], "rttMs": 100,
                 "downloadModel": "slow-start"},
                 "content": {"ladderKbps": [300, 1200, 4300], "segmentSeconds": 4, "segments": 8},
                 "players": [{"id": "low", "policy": "fixed(variant=0)"}]}
                """
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            let report = try ScenarioRunner().run(try ScenarioLoader().load(path), recordsTimeline: false)
            var segments = CSVWriter(columns: RunTables.segmentColumns)
            RunTables.appendSegments(report, to: &segments)
            let csv = folder + "/segments.csv"
            try Data(segments.takeBytes()).write(to: URL(fileURLWithPath: csv))
            let log = try ThroughputLogReader.read(path: csv, format: .segments)
            #expect(log.samples.count == 8)
            let inferred = try CapacityInference.trace(log, model: model, name: "inferred").estimates
            let replayed = try CapacityInference.trace(log, model: FluidModel(), name: "replayed").estimates
            let truth = kbps * 1000
            let bits = 150_000.0 * 8
            let predicted =
                bits
                / model.plan(
                    DownloadRequest(bits: bits, availableBps: truth, peakBps: truth, roundTripSeconds: 0.1)
                ).modelSeconds / truth
            #expect(predicted < 0.75, "the bias is there to see: \(predicted)")
            for (estimate, plain) in zip(inferred, replayed) {
                #expect(abs(estimate.capacityBps / truth - 1) < 0.05, "\(kbps) kbit/s: \(estimate.capacityBps)")
                #expect(!estimate.isLowerBound)
                #expect(abs(plain.capacityBps / truth - predicted) < 1e-9, "\(kbps): \(plain.capacityBps / truth)")
            }
        }
    }
}
