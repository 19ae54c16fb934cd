import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim compare` on chunked live content writes `chunks.csv` led by the place columns of `segments.csv`; on
/// content without chunks it writes no such file.
@Suite("compare writes chunk rows for chunked content only")
struct CompareChunkRowsTests {
    static let chunked = TestPaths.packageRoot + "/scenarios/ci/live/chunked-latency.json"
    static let constant = TestPaths.packageRoot + "/scenarios/ci/live/constant-latency.json"
    static let trace = TestPaths.packageRoot + "/Tests/Fixtures/bad/ok/constant.csv"

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test("each policy's chunk rows number four 0.5 Mbit chunks, 0 to 3, for every segment it downloaded")
    func compareOnChunkedContentWritesFourChunksPerSegment() throws {
        let out = TestPaths.scratch("compare-chunks")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim([
            "compare", "--scenario", Self.chunked, "--traces", Self.trace, "--policies", "throughput,bba", "--out", out,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("stats.csv, chunks.csv"))
        let chunks = try Self.table(out + "/chunks.csv")
        #expect(
            chunks.columns == [
                "scenario", "player", "policy", "trace", "segment", "chunk", "bits", "available_s", "first_byte_s",
                "last_byte_s",
            ])
        let segments = try Self.table(out + "/segments.csv")
        for policy in ["throughput", "bba"] {
            let chunkRows = chunks.rows.filter { $0[2] == policy }
            let segmentRows = segments.rows.filter { $0[2] == policy }
            // One 1000 kbit/s rung of 2 s segments in 0.5 s chunks: 4 chunks of 0.5 Mbit per segment.
            #expect(!segmentRows.isEmpty)
            #expect(chunkRows.count == 4 * segmentRows.count)
            #expect(chunkRows.allSatisfy { Double($0[6]) == 500_000 })
            let segmentIndex = segments.columns.firstIndex(of: "segment")!
            for (row, segment) in segmentRows.enumerated() {
                for chunk in 0..<4 {
                    let rowValues = chunkRows[4 * row + chunk]
                    #expect(rowValues[4] == segment[segmentIndex])
                    #expect(rowValues[5] == String(chunk))
                    // A chunk's last byte is never before its first, nor its first before it is encoded.
                    #expect(Double(rowValues[9])! >= Double(rowValues[8])!)
                    #expect(Double(rowValues[8])! >= Double(rowValues[7])! - 1e-9)
                }
            }
        }
    }

    @Test("compare on live content without chunks writes no chunks.csv and names none")
    func compareWithoutChunksWritesNoChunkRows() throws {
        let out = TestPaths.scratch("compare-no-chunks")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim([
            "compare", "--scenario", Self.constant, "--traces", Self.trace, "--policies", "throughput", "--out", out,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/chunks.csv"))
        #expect(!outcome.standardOutput.contains("chunks.csv"))
    }
}
