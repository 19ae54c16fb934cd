import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Each CMAF chunk of a chunked request flows under the player's download model, as a whole request does.
@Suite("chunk flows obey the download model")
struct ChunkDownloadModelTests {
    /// LL-DASH on a constant 2000 kbit/s link without latency: one 1000 kbit/s rung, 2 s segments in 0.5 s chunks
    /// (0.5 Mbit each), the player 0.5 s behind the edge from 0.5 s; `model` is the player's download model.
    static func scenario(model: String?) -> String {
        let downloadModel = model.map { #", "downloadModel": \#($0)"# } ?? ""
        return #"""
            {"name": "chunk-model", "network": {"stretches": [{"constantKbps": 2000, "seconds": 600}]},
             "content": {"ladderKbps": [1000], "segmentSeconds": 2, "durationSeconds": 60,
                         "live": {"availabilityStartSeconds": -10, "chunkDurationSeconds": 0.5, "refresh": "template"}},
             "durationSeconds": 20,
             "players": [{"id": "ll", "policy": "throughput", "startSeconds": 0.5,
                          "automaticallyWaitsToMinimizeStalling": false,
                          "live": {"configuredTimeOffsetFromLive": 0.5}\#(downloadModel)}]}
            """#
    }

    /// The last byte − first byte of every row of `chunks.csv` of the scenario run with `model`.
    static func chunkSeconds(model: String?, name: String) throws -> [Double] {
        let out = TestPaths.scratch(name)
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let path = out + "/scenario.json"
        try scenario(model: model).write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try runABRSim(["run", path, "--out", out + "/results"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let file = out + "/results/chunks.csv"
        let table = try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        let first = table.column("first_byte_s")!.map { Double($0)! }
        let last = table.column("last_byte_s")!.map { Double($0)! }
        return zip(first, last).map { $1 - $0 }
    }

    @Test("under slow start (24 kbit/s doubling every 20 ms) each 0.5 Mbit chunk takes 0.14 + 439 040/2·10⁶ s")
    func slowStartRampsEveryChunk() throws {
        // CausalSim's slow start from 3000 B/s = 24 kbit/s, doubling each 20 ms round while below 2000 kbit/s:
        // rounds 0–6 carry 24 000·(1 + 2 + … + 64)·0.02 = 480·127 = 60 960 bits in 0.14 s; round 7's 3072 kbit/s
        // is above the link, so the remaining 439 040 bits go at 2000 kbit/s in 0.21952 s. The model has no
        // connection state: every chunk ramps afresh, 0.35952 s each, under its 0.5 s encode time.
        let seconds = try Self.chunkSeconds(model: #"{"model": "slow-start", "rttMs": 20}"#, name: "chunk-slow-start")
        #expect(seconds.count >= 30)
        for value in seconds { #expect(abs(value - (0.14 + 439_040.0 / 2e6)) < 1e-9) }
    }

    @Test("under the fluid model each 0.5 Mbit chunk takes 0.25 s at 2000 kbit/s")
    func fluidChunksGoAtTheLinkRate() throws {
        let seconds = try Self.chunkSeconds(model: nil, name: "chunk-fluid")
        #expect(seconds.count >= 30)
        for value in seconds { #expect(abs(value - 0.25) < 1e-9) }
    }
}
