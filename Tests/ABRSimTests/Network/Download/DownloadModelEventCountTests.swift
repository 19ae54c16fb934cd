import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The ramp is closed-form inside the link: slow start costs at most twice the events per segment of fluid.
@Suite("the download models' event cost")
struct DownloadModelEventCountTests {
    static func eventsPerSegment(model: String) throws -> Double {
        let folder = TestPaths.scratch("event-count")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/scenario.json"
        let json = """
            {"network": {"stretches": [{"constantKbps": 3000, "seconds": 20}, {"constantKbps": 8000, "seconds": 20}],
             "rttMs": 80, "downloadModel": "\(model)"},
             "content": {"ladderKbps": [300, 1200, 4300], "segmentSeconds": 4, "segments": 60},
             "players": [{"id": "a", "policy": "bba"}, {"id": "b", "policy": "throughput", "startSeconds": 3}]}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let (simulation, result) = try eventCountingRun(path: path, folder: folder)
        let segments = result.segments.map(\.count).reduce(0, +)
        #expect(segments == 120)
        return Double(simulation.eventCount) / Double(segments)
    }

    @Test("slow-start, Veritas and tcp models cost at most twice the events per segment of the fluid model")
    func slowStartCostsAtMostTwiceTheEventsPerSegmentOfFluid() throws {
        let fluid = try Self.eventsPerSegment(model: "fluid")
        for model in ["slow-start", "veritas-v3", "veritas-v7", "tcp"] {
            let other = try Self.eventsPerSegment(model: model)
            #expect(other <= 2 * fluid, "\(model): \(other) events per segment, fluid \(fluid)")
        }
    }
}
