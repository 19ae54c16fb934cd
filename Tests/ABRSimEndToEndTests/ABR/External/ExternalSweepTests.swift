import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// A sweep in which one of the policies is an external program that crashes: every run completes, the failed
/// runs are counted on stderr and in the exit status, and every other row is whole.
@Suite("sweeps and runs with a crashing external policy")
struct ExternalSweepTests {
    /// Replies to two requests, then dies with a message on stderr.
    static let crashingPolicy = """
        import sys
        for i in range(2):
            sys.stdin.readline()
            print('{"variant": 0}', flush=True)
        sys.stdin.readline()
        sys.stderr.write('model diverged\\n')
        sys.exit(3)
        """

    @Test("a sweep with a crashing external policy completes, counts the failed runs and exits 1, also when rerun")
    func aSweepWithACrashingExternalPolicyCompletesAndReportsTheFailedRuns() throws {
        let fixture = SweepFixture("external-sweep")
        defer { fixture.remove() }
        writeFile(fixture.directory, "crash.py", Self.crashingPolicy)
        let out = fixture.directory + "/out"
        let policies = "bba,external(command=python3 crash.py,timeout=2)"
        let first = try fixture.sweep(["--policies", policies, "--out", out, "--jobs", "2"])
        #expect(first.status == 1)
        let lastLine = first.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine == "sweep: 4 of 8 runs had a failed player (final_state failed in \(out)/summary.csv)")

        let summary = try sweepSummary(out)
        #expect(summary.rows.count == 8)
        let policyColumn = try #require(summary.column("policy"))
        let states = try #require(summary.column("final_state"))
        let segments = try #require(summary.column("segments"))
        for row in 0..<summary.rows.count {
            if policyColumn[row].hasPrefix("external") {
                #expect(states[row] == "failed")
                #expect(segments[row] == "2")
            } else {
                #expect(policyColumn[row] == "bba")
                #expect(states[row] == "ended")
                #expect(segments[row] == "10")
            }
        }
        let segmentRows = try CSVTable.parse(fileBytes(out + "/segments.csv"), file: "segments.csv")
        #expect(segmentRows.rows.count == 4 * 10 + 4 * 2)

        // The folder is complete: running again does nothing and reports the same failures.
        let again = try fixture.sweep(["--policies", policies, "--out", out])
        #expect(again.status == 1)
        #expect(again.standardOutput.contains("already complete"))
        #expect(
            again.standardError.hasSuffix(
                "4 of 8 runs had a failed player (final_state failed in \(out)/summary.csv)\n"))
    }

    @Test("a sweep without failed players exits 0 without a failure line")
    func aSweepWithoutFailedPlayersExitsZero() throws {
        let fixture = SweepFixture("external-sweep-ok")
        defer { fixture.remove() }
        let outcome = try fixture.sweep(["--policies", "bba", "--out", fixture.directory + "/out"])
        #expect(outcome.status == 0)
        #expect(!outcome.standardError.contains("failed player"))
    }

    @Test("a run with a crashing policy still writes every output and names the failed player on stderr")
    func aRunWithACrashingExternalPolicyWritesEverythingAndSaysWhichPlayerFailed() throws {
        let scratch = TestPaths.scratch("external-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(scratch, "crash.py", Self.crashingPolicy)
        let scenario = writeFile(
            scratch, "s.json",
            """
            { "name": "s", "network": {"preset": "lte", "rttMs": 50},
              "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 6},
              "players": [{"id": "model", "policy": {"name": "external", "command": ["python3", "crash.py"]}},
                          {"id": "reference", "policy": "bba"}] }
            """)
        let outcome = try runABRSim(["run", scenario, "--out", scratch + "/out"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError
                == "abrsim run: player model failed: external policy 'external(command=[python3 crash.py])': "
                + "segment 2: it closed its output before replying (exit status 3); its stderr: model diverged\n")
        let summary = try CSVTable.parse(fileBytes(scratch + "/out/summary.csv"), file: "summary.csv")
        #expect(summary.column("final_state") == ["failed", "ended"])
        #expect(summary.column("segments") == ["2", "6"])
        #expect(FileManager.default.fileExists(atPath: scratch + "/out/plots/index.html"))
    }
}
