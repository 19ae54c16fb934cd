import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim sweep` on chunked live content writes `chunks.csv` (the place columns, the chunk's, then the grid's),
/// resumable and mergeable as `segments.csv` is; a sweep of content without chunks writes no such file.
@Suite("sweep writes chunk rows for chunked content only, resumable and mergeable")
struct SweepChunkRowsTests {
    static let chunked = TestPaths.packageRoot + "/scenarios/ci/live/chunked-latency.json"
    static let trace = TestPaths.packageRoot + "/Tests/Fixtures/bad/ok/constant.csv"
    /// 2 policies × 2 chunk durations: 4 runs.
    static let arguments = [
        "sweep", chunked, "--traces", trace, "--policies", "throughput,bba",
        "--grid", "content.live.chunkDurationSeconds=0.25|0.5",
    ]
    /// The files of a chunked sweep folder, compared byte for byte.
    static let files = sweepFolderFiles + ["chunks.csv"]

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(fileBytes(path), file: path)
    }

    static func sweep(_ out: String, _ extra: [String] = []) throws {
        let outcome = try runABRSim(arguments + ["--out", out] + extra)
        #expect(outcome.status == 0, "\(outcome.standardError)")
    }

    static func expectSameFolders(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectSameFiles(files, a, b, sourceLocation: sourceLocation)
    }

    @Test("every run has one chunk row per chunk of each segment it fetched: segment ÷ chunk duration of them")
    func everyRunHasOneRowPerChunkOfEverySegment() throws {
        let out = TestPaths.scratch("sweep-chunks")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try Self.sweep(out)
        let scenario = try JSONSerialization.jsonObject(with: Data(fileBytes(Self.chunked))) as! [String: Any]
        let content = scenario["content"] as! [String: Any]
        let segmentSeconds = content["segmentSeconds"] as! Double
        let bitrateBps = (content["ladderKbps"] as! [Double])[0] * 1000
        let chunks = try Self.table(out + "/chunks.csv")
        #expect(
            chunks.columns == RunTables.placedChunks.names + ["content.live.chunkDurationSeconds"])
        let segments = try Self.table(out + "/segments.csv")
        var runs = 0
        for policy in ["throughput", "bba"] {
            for chunkSeconds in [0.25, 0.5] {
                let grid = formatCSVNumber(chunkSeconds)
                let segmentRows = segments.rows.filter { $0[2] == policy && $0.last == grid }
                let chunkRows = chunks.rows.filter { $0[2] == policy && $0.last == grid }
                let perSegment = Int(segmentSeconds / chunkSeconds)
                #expect(!segmentRows.isEmpty)
                #expect(chunkRows.count == perSegment * segmentRows.count, "\(policy), \(grid) s chunks")
                for (position, row) in chunkRows.enumerated() {
                    let segment = segmentRows[position / perSegment]
                    #expect(Array(row[0..<5]) == Array(segment[0..<5]))
                    #expect(row[5] == String(position % perSegment))
                    #expect(Double(row[6]) == bitrateBps * chunkSeconds)
                    #expect(Double(row[9])! >= Double(row[8])!)
                }
                runs += 1
            }
        }
        #expect(runs == 4)
        // The same bytes on one job as on two.
        let single = TestPaths.scratch("sweep-chunks-one-job")
        defer { try? FileManager.default.removeItem(atPath: single) }
        try Self.sweep(single, ["--jobs", "1"])
        Self.expectSameFolders(out, single)
    }

    @Test("a sweep stopped after its first run, with a torn chunk row, resumes to the one-shot bytes")
    func aResumedChunkedSweepEqualsTheOneShotSweep() throws {
        let whole = TestPaths.scratch("sweep-chunks-whole")
        let cut = TestPaths.scratch("sweep-chunks-cut")
        defer {
            try? FileManager.default.removeItem(atPath: whole)
            try? FileManager.default.removeItem(atPath: cut)
        }
        try Self.sweep(whole, ["--jobs", "2"])
        try Self.sweep(cut, ["--jobs", "1"])
        // Rewind `cut` to its state after run 0's commit; the later runs' bytes stay past it, as after a kill.
        let index = try Self.table(cut + "/.sweep/runs.csv")
        #expect(index.columns == ["run", "summary_bytes", "segments_bytes", "chunks_bytes"])
        try rewindSweepToItsFirstRun(cut, tables: ["summary.csv", "segments.csv", "chunks.csv"])
        try appendTornRow("ci-live-chunked-latency,ll,thr", to: cut + "/chunks.csv")
        try expectResumedSweep(Self.arguments, folder: cut, runs: 4, equals: whole, files: Self.files)
    }

    @Test("three shards of a chunked sweep merge to the one-shot sweep's bytes")
    func shardsOfAChunkedSweepMergeToTheOneShotSweep() throws {
        let root = TestPaths.scratch("sweep-chunks-shards")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.sweep(root + "/whole")
        for k in 1...3 { try Self.sweep(root + "/s\(k)", ["--shard", "\(k)/3", "--jobs", "1"]) }
        #expect(try Self.table(root + "/s2/chunks.csv").rows.count > 0)
        let merged = try runABRSim(["merge", root + "/s3", root + "/s1", root + "/s2", "--out", root + "/merged"])
        #expect(merged.status == 0, "\(merged.standardError)")
        Self.expectSameFolders(root + "/whole", root + "/merged")
    }

    @Test("a sweep of video on demand writes no chunks.csv, names none, and keeps a three-column run index")
    func aVideoOnDemandSweepWritesNoChunkRows() throws {
        let fixture = SweepFixture("sweep-vod-no-chunks")
        defer { fixture.remove() }
        let out = fixture.directory + "/out"
        let outcome = try fixture.sweep(["--policies", "bba,throughput", "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/chunks.csv"))
        #expect(!outcome.standardOutput.contains("chunks.csv"))
        #expect(try Self.table(out + "/.sweep/runs.csv").columns == ["run", "summary_bytes", "segments_bytes"])
        #expect(!String(decoding: fileBytes(out + "/.sweep/progress"), as: UTF8.self).contains("chunks.csv"))
    }

    @Test("a chunked sweep with --no-segments writes summary.csv only, no chunk rows")
    func aChunkedSweepWithoutSegmentsWritesNoChunkRows() throws {
        let out = TestPaths.scratch("sweep-chunks-no-segments")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let outcome = try runABRSim(Self.arguments + ["--out", out, "--no-segments"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/chunks.csv"))
        #expect(try Self.table(out + "/summary.csv").rows.count == 4)
    }
}
