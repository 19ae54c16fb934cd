import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Output folders through the binary: reruns replace and tidy, other outputs are refused (exit 2, one line,
/// nothing written) unless `--force`, sweeps and runs never share a folder.
@Suite("output folders through the binary")
struct OutputFolderCommandTests {
    @Test("rerunning an edited scenario replaces its output, removing stale plots and a moved plots folder")
    func aRerunOfAnEditedScenarioReplacesItsOutputAndRemovesStalePlots() throws {
        let scratch = TestPaths.scratch("rerun-command")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = writeFile(scratch, "s.json", OutputFixture.scenario(name: "s", players: 3, segments: 8))
        let out = scratch + "/out"
        #expect(try runABRSim(["run", scenario, "--out", out]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/plots/timeline-p3.svg"))
        writeFile(scratch, "s.json", OutputFixture.scenario(name: "s", players: 1, segments: 8))
        let again = try runABRSim(["run", scenario, "--out", out])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out + "/plots/timeline-p3.svg"))
        #expect(FileManager.default.fileExists(atPath: out + "/plots/timeline.svg"))
        let summary = try CSVTable.parse(fileBytes(out + "/summary.csv"), file: "summary.csv")
        #expect(summary.rows.count == 1)
        // Moving the plots elsewhere removes the old plots folder, which the results folder owned.
        #expect(try runABRSim(["run", scenario, "--out", out, "--plots", scratch + "/elsewhere"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/plots"))
        #expect(FileManager.default.fileExists(atPath: scratch + "/elsewhere/index.html"))
    }

    @Test("a folder holding another scenario's output is refused and left untouched unless --force")
    func anotherScenariosFolderIsRefusedUntouchedUnlessForced() throws {
        let scratch = TestPaths.scratch("other-command")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let a = writeFile(scratch, "a.json", OutputFixture.scenario(name: "a", segments: 8))
        let b = writeFile(scratch, "b.json", OutputFixture.scenario(name: "b", segments: 8))
        let out = scratch + "/out"
        #expect(try runABRSim(["run", a, "--out", out]).status == 0)
        let before = OutputFixture.files(under: out)
        let refused = try runABRSim(["run", b, "--out", out])
        #expect(refused.status == 2)
        #expect(
            refused.standardError
                == "abrsim run: \(out): holds the output of 'abrsim run' of \(a); use --force to replace it, "
                + "or another --out\n")
        #expect(OutputFixture.files(under: out) == before)
        let forced = try runABRSim(["run", b, "--out", out, "--force"])
        #expect(forced.status == 0)
        let summary = try CSVTable.parse(fileBytes(out + "/summary.csv"), file: "summary.csv")
        #expect(summary.column("scenario") == ["b"])
    }

    @Test("a run and a sweep never share a folder unless forced, and a forced sweep removes the run's files")
    func runsAndSweepsNeverShareAFolder() throws {
        let fixture = SweepFixture("run-vs-sweep")
        defer { fixture.remove() }
        let runOut = fixture.directory + "/run"
        let sweepOut = fixture.directory + "/sweep"
        #expect(try runABRSim(["run", fixture.scenario, "--out", runOut]).status == 0)
        #expect(try fixture.sweep(["--out", sweepOut]).status == 0)
        let before = OutputFixture.files(under: runOut)
        let sweepIntoRun = try fixture.sweep(["--out", runOut])
        #expect(sweepIntoRun.status == 2)
        #expect(sweepIntoRun.standardError.contains("holds the output of 'abrsim run' of"))
        #expect(OutputFixture.files(under: runOut) == before)
        let runIntoSweep = try runABRSim(["run", fixture.scenario, "--out", sweepOut])
        #expect(runIntoSweep.status == 2)
        #expect(runIntoSweep.standardError.contains("holds the output of 'abrsim sweep' of"))
        // Forced, the sweep replaces the run: the run's own tables and plots go.
        #expect(try fixture.sweep(["--out", runOut, "--force"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: runOut + "/timeline.csv"))
        #expect(!FileManager.default.fileExists(atPath: runOut + "/plots"))
        expectSameSweepFolders(runOut, sweepOut)
    }

    @Test("a folder of a different sweep is refused and left unchanged unless --force")
    func aDifferentSweepIsRefusedUnlessForced() throws {
        let fixture = SweepFixture("sweep-force")
        defer { fixture.remove() }
        let out = fixture.directory + "/out"
        #expect(try fixture.sweep(["--out", out, "--policies", "bba"]).status == 0)
        let before = OutputFixture.files(under: out)
        let refused = try fixture.sweep(["--out", out, "--policies", "throughput"])
        #expect(refused.status == 2)
        #expect(OutputFixture.files(under: out) == before)
        #expect(refused.standardError.contains("the sweep this folder holds differs from this one"))
        #expect(refused.standardError.hasSuffix("use --force to replace it, or another --out\n"))
        #expect(try fixture.sweep(["--out", out, "--policies", "throughput", "--force"]).status == 0)
        let summary = try sweepSummary(out)
        #expect(Set(try #require(summary.column("policy"))) == ["throughput"])
    }

    @Test("an interrupted sweep's manifest says incomplete until the sweep is resumed")
    func anInterruptedSweepsFolderSaysIncompleteUntilItIsResumed() throws {
        let fixture = SweepFixture("sweep-incomplete")
        defer { fixture.remove() }
        let out = fixture.directory + "/out"
        // Enough runs that a loaded machine cannot finish them between two looks at the progress file.
        let arguments = ["--policies", "bba(reservoir=1..200:1)", "--jobs", "1", "--batch", "1", "--out", out]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.abrsim)
        process.arguments = ["sweep", fixture.scenario, "--traces", fixture.traces] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
            !String(decoding: fileBytes(out + "/.sweep/progress"), as: UTF8.self).hasPrefix("done 2\n")
        {
            usleep(500)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        guard case .valid(let stopped) = OutputManifest.read(directory: out) else {
            Issue.record("no manifest after the interruption")
            return
        }
        #expect(!stopped.isComplete)
        #expect(stopped.identity.command == "sweep" && stopped.folders == [".sweep"])
        #expect(try fixture.sweep(arguments).status == 0)
        guard case .valid(let finished) = OutputManifest.read(directory: out) else {
            Issue.record("no manifest after the resume")
            return
        }
        #expect(finished.isComplete && finished.files == ["summary.csv", "segments.csv"])
    }
}
