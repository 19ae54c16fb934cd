import Foundation
import Testing

@testable import ABRSim

/// An external policy's child leads its own process group, so a signal that ends abrsim must end the child too.
struct ExternalSignalTests {
    /// A policy that records its pid in `pids/` and then never answers.
    static let sleeper = """
        import os, sys, time
        open(os.path.join('pids', str(os.getpid())), 'w').close()
        sys.stdin.readline()
        time.sleep(600)
        """

    /// Starts abrsim with `arguments` in `directory`, waits for `children` pid files, sends `signal`, and returns
    /// the children's pids once abrsim has ended.
    func signalled(_ arguments: [String], in directory: String, children: Int, signal: Int32) throws -> [Int32] {
        let pids = directory + "/pids"
        try FileManager.default.createDirectory(atPath: pids, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.abrsim)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        func started() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: pids)) ?? []).compactMap { Int32($0) }
        }
        while started().count < children, process.isRunning, Date() < deadline { usleep(2000) }
        usleep(50_000)  // let the last one reach its sleep
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 128 + signal)
        return started()
    }

    func expectAllGone(_ pids: [Int32]) {
        for pid in pids {
            var waited = 0
            while !ExternalMisbehaviourTests.isGone(pid) && waited < 100 {
                usleep(20_000)
                waited += 1
            }
            #expect(ExternalMisbehaviourTests.isGone(pid), "child \(pid) survived")
        }
    }

    /// SIGTERM rather than SIGINT: a launcher may start abrsim with SIGINT ignored (shells do for background
    /// jobs), and an ignored signal is respected. Ctrl-C takes the same path when it is not ignored.
    @Test func sigtermOnARunKillsThePolicysChild() throws {
        let scratch = TestPaths.scratch("signal-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(scratch, "sleeper.py", Self.sleeper)
        writeFile(
            scratch, "s.json",
            """
            { "name": "s", "network": {"preset": "lte"},
              "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 4},
              "players": [{"id": "p", "policy": {"name": "external", "command": ["python3", "sleeper.py"],
                                                 "timeout": 60}}] }
            """)
        let pids = try signalled(["run", "s.json", "--out", "out"], in: scratch, children: 1, signal: SIGTERM)
        #expect(pids.count == 1)
        expectAllGone(pids)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/out"))
    }

    @Test func sigtermOnASweepKillsThePoliciesChildren() throws {
        let fixture = SweepFixture("signal-sweep")
        defer { fixture.remove() }
        writeFile(fixture.directory, "sleeper.py", Self.sleeper)
        let arguments = [
            "sweep", "scenario.json", "--traces", "traces", "--policies",
            "external(command=python3 sleeper.py,timeout=60)",
            "--jobs", "2", "--out", "out",
        ]
        // One child per run in flight (the validation child is killed before Python gets to write its pid).
        let pids = try signalled(arguments, in: fixture.directory, children: 2, signal: SIGTERM)
        #expect(pids.count >= 2)
        expectAllGone(pids)
    }
}
