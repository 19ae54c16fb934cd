import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// An external policy's children and grandchildren end with abrsim however abrsim ends (issue 14, class 5): a
/// normal exit, an error exit, SIGTERM, SIGINT and SIGKILL, through the built binary. The policy starts a
/// grandchild in a session of its own (`setsid`, out of the policy's process group) and one in the background of
/// its group; ``PolicyKeeper`` is what ends them.
@Suite("an external policy's descendants")
struct ExternalDescendantsTests {
    /// A policy that starts the two grandchildren, records the three pids in `pids/`, then answers variant 0
    /// (`ok`), never answers (`hang`), or answers garbage (`garbage`).
    static let spawner = """
        import os, subprocess, sys, time
        mode = sys.argv[1]
        quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        session = subprocess.Popen(['sleep', '600'], start_new_session=True, **quiet)
        background = subprocess.Popen(['sleep', '600'], **quiet)
        for pid in (os.getpid(), session.pid, background.pid):
            open(os.path.join('pids', str(pid)), 'w').close()
        for line in sys.stdin:
            if mode == 'hang':
                time.sleep(600)
            sys.stdout.write('garbage\\n' if mode == 'garbage' else '{"variant": 0}\\n')
            sys.stdout.flush()
        """

    /// A scratch folder with the spawner, `pids/`, and `s.json` (one player whose policy runs it in `mode`).
    static func folder(_ name: String, mode: String) throws -> String {
        let scratch = TestPaths.scratch(name)
        try FileManager.default.createDirectory(atPath: scratch + "/pids", withIntermediateDirectories: true)
        writeFile(scratch, "spawner.py", spawner)
        writeFile(
            scratch, "s.json",
            """
            { "name": "s", "network": {"preset": "lte"},
              "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 4},
              "players": [{"id": "p", "policy": {"name": "external", "command": ["python3", "spawner.py", "\(mode)"],
                                                 "timeout": 60}}] }
            """)
        return scratch
    }

    static func recordedPids(_ scratch: String) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch + "/pids")) ?? []).compactMap { Int32($0) }
    }

    /// Expects the policy and both grandchildren recorded, and all of them gone within 2 s; then no process left in
    /// the folder within 5 s (after a SIGKILL of abrsim the keeper ends them on its own, a moment later).
    static func expectDescendantsGone(_ scratch: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let pids = recordedPids(scratch)
        #expect(pids.count == 3, "policy and two grandchildren recorded: \(pids)", sourceLocation: sourceLocation)
        ExternalSignalTests().expectAllGone(pids, sourceLocation: sourceLocation)
        let deadline = Date().addingTimeInterval(5 * TestPaths.timeScale)
        while !ExternalSignalTests.processes(in: scratch).isEmpty, Date() < deadline { usleep(10_000) }
        let left = ExternalSignalTests.processes(in: scratch)
        #expect(left.isEmpty, "processes left in the folder: \(left)", sourceLocation: sourceLocation)
        for pid in left { kill(pid, SIGKILL) }
    }

    @Test("when a run ends normally the external policy and both its grandchildren are gone")
    func aNormalExitEndsThePolicysGrandchildren() throws {
        let scratch = try Self.folder("descendants-exit", mode: "ok")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: scratch)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        Self.expectDescendantsGone(scratch)
    }

    @Test("when a run fails on a garbage reply the policy and both its grandchildren are gone")
    func anErrorExitEndsThePolicysGrandchildren() throws {
        let scratch = try Self.folder("descendants-error", mode: "garbage")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the reply is not a JSON object"), "\(outcome.standardError)")
        Self.expectDescendantsGone(scratch)
    }

    @Test("a policy program that cannot start is a one-line input error naming the file, path and program")
    func aPolicyThatCannotStartIsStillReportedAsSuch() throws {
        let scratch = TestPaths.scratch("descendants-missing")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(
            scratch, "s.json",
            """
            { "name": "s", "network": {"preset": "lte"},
              "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 4},
              "players": [{"id": "p", "policy": {"name": "external", "command": ["no-such-policy-program"]}}] }
            """)
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: scratch)
        BadInputCatalogueTests.expectOneLineError(
            outcome, mentions: ["s.json", "$.players[0].policy", "cannot start 'no-such-policy-program'"])
    }

    /// Runs the hanging spawner, sends `signal` to abrsim once the three pids are recorded, and expects every
    /// descendant gone. SIGINT goes through a launcher that restores its default action (a test runner may start
    /// us with it ignored, which abrsim respects).
    func signalled(_ signal: Int32, name: String) throws {
        let scratch = try Self.folder(name, mode: "hang")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
            TestPaths.abrsim, "run", "s.json", "--out", "out",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: scratch)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30 * TestPaths.timeScale)
        while Self.recordedPids(scratch).count < 3, process.isRunning, Date() < deadline { usleep(2000) }
        usleep(50_000)
        let abrsim = process.processIdentifier
        kill(abrsim, signal)
        while !ExternalMisbehaviourTests.isGone(abrsim), Date() < deadline { usleep(2000) }
        Self.expectDescendantsGone(scratch)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "status \(process.terminationStatus)")
        #expect(process.terminationStatus == signal)
    }

    @Test("a SIGTERM to abrsim ends the policy and both its grandchildren, and abrsim dies of it")
    func sigtermEndsThePolicyAndItsGrandchildren() throws { try signalled(SIGTERM, name: "descendants-term") }

    @Test("a SIGINT to abrsim ends the policy and both its grandchildren, and abrsim dies of it")
    func sigintEndsThePolicyAndItsGrandchildren() throws { try signalled(SIGINT, name: "descendants-int") }

    @Test("a SIGKILL of abrsim still ends the policy and both its grandchildren")
    func sigkillOfAbrsimEndsThePolicyAndItsGrandchildren() throws {
        try signalled(SIGKILL, name: "descendants-kill")
    }

    @Test("a SIGKILL of a sweep ends every running policy and their grandchildren")
    func sigkillOfASweepEndsEveryRunsPolicyAndGrandchildren() throws {
        let fixture = SweepFixture("descendants-sweep-kill")
        defer { fixture.remove() }
        writeFile(fixture.directory, "spawner.py", Self.spawner)
        // Two runs in flight, three pids each; the keepers end them on their own after the SIGKILL (settle 1 s).
        let pids = try ExternalSignalTests().signalled(
            [
                "sweep", "scenario.json", "--traces", "traces", "--policies",
                "external(command=python3 spawner.py hang,timeout=60)", "--jobs", "2", "--out", "out",
            ], in: fixture.directory, children: 6, signal: SIGKILL, settle: 1)
        #expect(pids.count >= 6)
    }

    @Test("when a sweep ends every run's policy and grandchildren are gone")
    func aSweepsPoliciesAndTheirGrandchildrenEndWithIt() throws {
        let fixture = SweepFixture("descendants-sweep")
        defer { fixture.remove() }
        try FileManager.default.createDirectory(atPath: fixture.directory + "/pids", withIntermediateDirectories: true)
        writeFile(fixture.directory, "spawner.py", Self.spawner)
        let outcome = try runABRSim(
            [
                "sweep", "scenario.json", "--traces", "traces", "--policies",
                "external(command=python3 spawner.py ok,timeout=60)", "--jobs", "2", "--out", "out",
            ], in: fixture.directory)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let pids = Self.recordedPids(fixture.directory)
        #expect(pids.count >= 12, "every run's policy and grandchildren recorded: \(pids.count)")
        ExternalSignalTests().expectAllGone(pids)
    }
}
