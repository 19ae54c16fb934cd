import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Live costs at most twice the events per downloaded unit of the same content on demand: a unit not yet known is
/// waited for on one timer, and a catch-up controller is asked only where its answer can change the rate (every
/// update for ExoPlayer). Two players (bba and throughput), 60 segments of 2 s each (or 240 parts of 0.5 s), 3 then
/// 8 Mbit/s, 80 ms RTT; counts `Simulation.eventCount`, stale events included.
@Suite("the events a live run costs")
struct LiveEventCountTests {
    static func eventsPerUnit(live: String?, player: String, partSeconds: Double? = nil) throws -> Double {
        let folder = TestPaths.scratch("live-event-count")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/scenario.json"
        // On demand, the content is cut into the units the live player downloads, so both count the same requests.
        let segment = live == nil ? (partSeconds ?? 2) : 2
        let segments = Int((120 / segment).rounded())
        let liveKey = live.map { ", \"live\": \($0)" } ?? ""
        let playerKey = live == nil ? "" : ", \"live\": \(player)"
        let json = """
            {"network": {"stretches": [{"constantKbps": 3000, "seconds": 20}, {"constantKbps": 8000, "seconds": 20}],
             "rttMs": 80},
             "content": {"ladderKbps": [300, 1200, 2000], "segmentSeconds": \(segment), "segments": \(segments)\(liveKey)},
             "players": [{"id": "a", "policy": "bba"\(playerKey)},
                         {"id": "b", "policy": "throughput", "startSeconds": 3\(playerKey)}]}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let (simulation, result) = try eventCountingRun(path: path, folder: folder)
        let units = result.segments.map { $0.filter { !$0.abandoned && !$0.cancelled }.count }.reduce(0, +)
        #expect(units > 0)
        return Double(simulation.eventCount) / Double(units)
    }

    static let stream = "{\"availabilityStartSeconds\": -30, \"refresh\": \"reload\"}"
    static let lowLatencyStream =
        "{\"availabilityStartSeconds\": -30, \"partTargetSeconds\": 0.5, \"refresh\": \"blockingReload\"}"

    @Test(
        "a live player with each catch-up controller costs at most twice the events per segment on demand",
        arguments: ["none", "dashjs", "dashjs-lolp", "shaka", "exoplayer"])
    func liveCostsAtMostTwiceTheEventsPerSegmentOfOnDemand(_ controller: String) throws {
        let vod = try Self.eventsPerUnit(live: nil, player: "")
        let player = "{\"catchUp\": \"\(controller)\", \"targetLatencySeconds\": 6}"
        let live = try Self.eventsPerUnit(live: Self.stream, player: player)
        #expect(live <= 2 * vod, "\(controller): \(live) events per segment live, \(vod) on demand")
    }

    @Test(
        "a low-latency player with each catch-up controller costs at most twice the events per 0.5 s part on demand",
        arguments: ["none", "dashjs", "dashjs-lolp", "shaka", "exoplayer"])
    func lowLatencyCostsAtMostTwiceTheEventsPerPartOfOnDemand(_ controller: String) throws {
        let vod = try Self.eventsPerUnit(live: nil, player: "", partSeconds: 0.5)
        let player = "{\"catchUp\": \"\(controller)\", \"targetLatencySeconds\": 1.5}"
        let live = try Self.eventsPerUnit(live: Self.lowLatencyStream, player: player, partSeconds: 0.5)
        #expect(live <= 2 * vod, "\(controller): \(live) events per part live, \(vod) on demand")
    }
}
