import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

@Suite("interrupted sweeps")
struct SweepResumeTests {
    /// 4 traces × 25 policies.
    static let arguments = ["--policies", "bba(reservoir=1..25:1)", "--jobs", "2"]

    /// Starts `abrsim sweep` on `fixture` into `out` and waits until at least `runs` runs are committed.
    func startAndWait(_ fixture: SweepFixture, out: String, runs: Int) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.abrsim)
        // Committed one run at a time: slow enough to stop halfway.
        process.arguments =
            ["sweep", fixture.scenario, "--traces", fixture.traces, "--out", out] + Self.arguments + ["--batch", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while committedRuns(out) < runs, process.isRunning, Date() < deadline { usleep(1000) }
        return process
    }

    func committedRuns(_ out: String) -> Int {
        let text = String(decoding: fileBytes(out + "/.sweep/progress"), as: UTF8.self)
        guard let line = text.split(separator: "\n").first, line.hasPrefix("done ") else { return 0 }
        return Int(line.dropFirst(5)) ?? 0
    }

    @Test("a sweep killed halfway, with a torn row, resumes to the bytes of an uninterrupted one")
    func aSweepKilledHalfwayResumesToTheBytesOfAnUninterruptedOne() throws {
        let fixture = SweepFixture("sweep-kill")
        defer { fixture.remove() }
        let whole = try fixture.sweep(Self.arguments + ["--out", fixture.directory + "/whole"])
        #expect(whole.status == 0, "\(whole.standardError)")
        let out = fixture.directory + "/killed"
        let process = try startAndWait(fixture, out: out, runs: 2)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let done = committedRuns(out)
        #expect(done >= 2 && done < 100, "killed after \(done) of 100 runs")
        // A torn write past the committed rows, as a kill in the middle of a batch leaves.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out + "/summary.csv"))
        handle.seekToEndOfFile()
        handle.write(Data("tiny,solo,bba(reserv".utf8))
        handle.closeFile()
        let resumed = try fixture.sweep(Self.arguments + ["--out", out])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("resuming"))
        expectSameSweepFolders(fixture.directory + "/whole", out)
        let summary = try sweepSummary(out)
        let keys = zip(summary.column("trace")!, summary.column("policy")!).map { "\($0)|\($1)" }
        #expect(keys.count == 100 && Set(keys).count == 100, "duplicated or missing rows")
    }

    @Test("a SIGTERM stops a sweep after a committed batch, only complete rows left, and it resumes to the same bytes")
    func sigtermStopsAfterACommittedBatchLeavingOnlyCompleteRows() throws {
        let fixture = SweepFixture("sweep-term")
        defer { fixture.remove() }
        let out = fixture.directory + "/stopped"
        let process = try startAndWait(fixture, out: out, runs: 3)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + SIGTERM)
        let done = committedRuns(out)
        #expect(done >= 3 && done < 100)
        // Exactly the committed rows: one summary row per run, every line complete.
        let summary = fileBytes(out + "/summary.csv")
        #expect(summary.last == UInt8(ascii: "\n"))
        #expect(try sweepSummary(out).rows.count == done)
        let progress = String(decoding: fileBytes(out + "/.sweep/progress"), as: UTF8.self)
        #expect(progress.contains("summary.csv \(summary.count)\n"))
        let resumed = try fixture.sweep(Self.arguments + ["--out", out])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let whole = try fixture.sweep(Self.arguments + ["--out", fixture.directory + "/whole"])
        #expect(whole.status == 0)
        expectSameSweepFolders(fixture.directory + "/whole", out)
    }
}
