import Foundation
import Testing

@testable import ABRSim

/// The `pensieve` profile against the reference outputs of Pensieve's own simulator (Tests/Fixtures/reference/pensieve).
@Suite("the Pensieve profile against Pensieve's simulator")
struct PensieveProfileTests {
    typealias Data = PensieveReferenceData

    func checkTotals(_ run: PensieveRun, _ expected: Data.Total) {
        #expect(run.chunks.count == expected.chunkCount, "\(expected.trace)")
        #expect(run.variants == expected.variants, "\(expected.trace): variants")
        #expect(abs(run.totalReward - expected.totalReward) <= 1e-6, "\(expected.trace): total reward")
        #expect(abs(run.meanBitrateKbps - expected.meanBitrateKbps) <= 1e-9, "\(expected.trace): mean bitrate")
        #expect(abs(run.totalRebufferSeconds - expected.totalRebufferSeconds) <= 1e-6, "\(expected.trace): rebuffer")
        #expect(run.sumBitrateChangesKbps == expected.sumBitrateChangesKbps, "\(expected.trace): changes")
        #expect(run.switchCount == expected.switchCount, "\(expected.trace): switches")
    }

    func checkChunks(_ run: PensieveRun, _ expected: [Data.Chunk]) {
        #expect(run.chunks.count == expected.count)
        for (row, want) in zip(run.chunks, expected) {
            let label = "\(want.trace) chunk \(want.chunk)"
            #expect(row.chunk == want.chunk, "\(label)")
            #expect(row.bitrateKbps == want.bitrateKbps, "\(label): bitrate")
            #expect(row.chunkSizeBytes == want.chunkSizeBytes, "\(label): size")
            #expect(abs(row.bufferSecondsAfter - want.bufferSecondsAfter) <= 1e-6, "\(label): buffer")
            #expect(abs(row.rebufferSeconds - want.rebufferSeconds) <= 1e-6, "\(label): rebuffer")
            #expect(abs(row.delayMs - want.delayMs) <= 1e-6, "\(label): delay")
            #expect(abs(row.reward - want.reward) <= 1e-6, "\(label): reward")
        }
    }

    @Test("the Pensieve profile's BBA matches the totals of Pensieve's simulator on all 71 reference traces")
    func bufferBasedMatchesEveryReferenceTrace() throws {
        let totals = try Data.totals("bb_test.csv")
        #expect(totals.count == 71)
        for expected in totals {
            checkTotals(try Data.run("bba", trace: expected.trace), expected)
        }
    }

    @Test("the Pensieve profile's BBA matches Pensieve's chunk rows on three traces")
    func bufferBasedMatchesReferenceChunkRows() throws {
        let chunks = try Data.chunks("bb_test_chunks.csv")
        for name in ["norway_bus_10", "norway_ferry_11", "norway_tram_54"] {
            checkChunks(try Data.run("bba", trace: name), try #require(chunks[name]))
        }
    }

    @Test("the Pensieve profile's RobustMPC matches the totals of Pensieve's simulator on all 71 reference traces")
    func robustMPCMatchesReferenceTraces() throws {
        let totals = try Data.totals("robustmpc_test.csv")
        #expect(totals.count == 71)
        // All 71 take about 1.5 s in a debug build, thanks to the pruned search.
        for expected in totals {
            checkTotals(try Data.run("robust-mpc", trace: expected.trace), expected)
        }
    }

    @Test("the Pensieve profile's RobustMPC matches Pensieve's chunk rows on three traces")
    func robustMPCMatchesReferenceChunkRows() throws {
        let chunks = try Data.chunks("robustmpc_test_chunks.csv")
        for name in ["norway_bus_10", "norway_car_2", "norway_train_13"] {
            checkChunks(try Data.run("robust-mpc", trace: name), try #require(chunks[name]))
        }
    }
}
