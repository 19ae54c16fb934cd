import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("the sweep store")
struct SweepStoreTests {
    func rows(_ run: Int) -> SweepRunRows {
        SweepRunRows(run: run, summary: Array("s\(run)\n".utf8), segments: Array("g\(run)a\ng\(run)b\n".utf8))
    }

    func text(_ path: String) -> String { String(decoding: fileBytes(path), as: UTF8.self) }

    @Test("committed sweep rows survive reopening, a torn tail is cut off, and the index and progress add up")
    func committedRowsSurviveReopeningAndATornTailIsCutOff() throws {
        let directory = TestPaths.scratch("store")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summaryHeader = RunTables.summaryColumns.joined(separator: ",") + "\n"
        do {
            let store = try SweepStore(directory: directory, manifest: "m\n", runCount: 4, writesSegments: true)
            #expect(store.completedRuns == 0)
            try store.commit([rows(0), rows(1)])
        }
        // Rows of an uncommitted batch, cut mid-line, as a killed process leaves them.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/summary.csv"))
        handle.seekToEndOfFile()
        handle.write(Data("s2\ns".utf8))
        handle.closeFile()
        let store = try SweepStore(directory: directory, manifest: "m\n", runCount: 4, writesSegments: true)
        #expect(store.resumedRuns == 2)
        #expect(text(directory + "/summary.csv") == summaryHeader + "s0\ns1\n")
        try store.commit([rows(2), rows(3)])
        #expect(store.isComplete)
        #expect(text(directory + "/summary.csv") == summaryHeader + "s0\ns1\ns2\ns3\n")
        #expect(text(directory + "/segments.csv").hasSuffix("\ng0a\ng0b\ng1a\ng1b\ng2a\ng2b\ng3a\ng3b\n"))
        #expect(
            text(directory + "/.sweep/runs.csv") == "run,summary_bytes,segments_bytes\n0,3,8\n1,3,8\n2,3,8\n3,3,8\n")
        #expect(
            text(directory + "/.sweep/progress").hasPrefix("done 4\nsummary.csv \(summaryHeader.utf8.count + 12)\n"))
    }

    @Test("a sweep folder is refused to a second writer and to a sweep with another manifest")
    func anotherManifestOrASecondWriterIsRefused() throws {
        let directory = TestPaths.scratch("store2")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SweepStore(directory: directory, manifest: "a\nb\n", runCount: 2, writesSegments: false)
            let busy = try #require(throws: InputError.self) {
                _ = try SweepStore(directory: directory, manifest: "a\nb\n", runCount: 2, writesSegments: false)
            }
            #expect(busy == InputError(.file(directory), .invalid("another abrsim sweep is writing this folder")))
            try store.commit([rows(0)])
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/segments.csv"))
        let other = try #require(throws: InputError.self) {
            _ = try SweepStore(directory: directory, manifest: "a\nc\n", runCount: 2, writesSegments: false)
        }
        #expect(other.file == directory)
        #expect(
            other.problem
                == .withAdvice(
                    .differs("the sweep this folder holds", from: "this one", difference: "it has 'b', this sweep 'c'"),
                    advice: "use --force to replace it, or another --out"))
    }

    @Test("a sweep state without a progress file starts afresh")
    func aStateWithoutProgressStartsAfresh() throws {
        let directory = TestPaths.scratch("store3")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let store = try SweepStore(directory: directory, manifest: "m\n", runCount: 3, writesSegments: false)
            try store.commit([rows(0)])
        }
        // A crash after the manifest but before the first progress file: nothing is committed.
        try FileManager.default.removeItem(atPath: directory + "/.sweep/progress")
        let store = try SweepStore(directory: directory, manifest: "m\n", runCount: 3, writesSegments: false)
        #expect(store.completedRuns == 0)
        #expect(text(directory + "/summary.csv") == RunTables.summaryColumns.joined(separator: ",") + "\n")
    }
}
