import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// An external policy's child leads its own process group, so a signal that ends abrsim must end the child too.
@Suite("signals and policy children")
struct ExternalSignalTests {
    /// A policy that records its pid in `pids/` and then never answers.
    static let sleeper = """
        import os, sys, time
        open(os.path.join('pids', str(os.getpid())), 'w').close()
        sys.stdin.readline()
        time.sleep(600)
        """

    /// Starts abrsim with `arguments` in `directory` (with `environment` added to ours), waits for `children` pid
    /// files, sends `signal`, and once abrsim has ended (and `settle` more seconds, so that a child started late has
    /// written its pid) expects every child gone and no process left in `directory`. Returns the children's pids.
    ///
    /// Survivors are killed before waiting for abrsim through `Process`: Foundation learns that a process ended
    /// when a socket it shares with it closes, and the children inherit that socket, so a surviving child would
    /// hold `waitUntilExit()` (and the test) until it ends by itself.
    func signalled(
        _ arguments: [String], in directory: String, children: Int, signal: Int32,
        environment: [String: String] = [:], settle: Double = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int32] {
        let pids = directory + "/pids"
        try FileManager.default.createDirectory(atPath: pids, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.abrsim)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        let stderrPath = directory + "/abrsim-stderr.txt"
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        let deadline = Date().addingTimeInterval(30 * TestPaths.timeScale)
        func started() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: pids)) ?? []).compactMap { Int32($0) }
        }
        while started().count < children, process.isRunning, Date() < deadline { usleep(2000) }
        usleep(50_000)  // let the last one reach its sleep
        let abrsim = process.processIdentifier
        kill(abrsim, signal)
        while !ExternalMisbehaviourTests.isGone(abrsim), Date() < deadline { usleep(2000) }
        if settle > 0 { usleep(UInt32(settle * 1e6)) }
        let children = started()
        expectAllGone(children, sourceLocation: sourceLocation)
        let left = Self.processes(in: directory)
        #expect(left.isEmpty, "processes left in the folder: \(left)", sourceLocation: sourceLocation)
        for pid in left { kill(pid, SIGKILL) }
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        #expect(
            process.terminationReason == .uncaughtSignal || process.terminationStatus == 128 + signal,
            "status \(process.terminationStatus); stderr: \(stderr.prefix(30000))", sourceLocation: sourceLocation)
        return children
    }

    /// Expects every one of `pids` to end within 2 s; kills any survivor.
    func expectAllGone(_ pids: [Int32], sourceLocation: SourceLocation = #_sourceLocation) {
        for pid in pids {
            var waited = 0
            while !ExternalMisbehaviourTests.isGone(pid) && waited < 100 {
                usleep(20_000)
                waited += 1
            }
            let gone = ExternalMisbehaviourTests.isGone(pid)
            #expect(gone, "child \(pid) survived", sourceLocation: sourceLocation)
            if !gone { kill(pid, SIGKILL) }
        }
    }

    /// The live processes (zombies aside) whose working folder is `directory`: what abrsim started there, even a
    /// child that never got to write its pid.
    static func processes(in directory: String) -> [Int32] {
        guard let resolved = realpath(directory, nil) else { return [] }
        let target = String(cString: resolved)
        free(resolved)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            let folder = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
            return folder == target && !ExternalMisbehaviourTests.isGone(pid)
        }
    }

    /// A scratch folder holding the sleeper and `s.json`, one player whose policy is the sleeper.
    static func runFolder(_ name: String) -> String {
        let scratch = TestPaths.scratch(name)
        writeFile(scratch, "sleeper.py", sleeper)
        writeFile(
            scratch, "s.json",
            """
            { "name": "s", "network": {"preset": "lte"},
              "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 4},
              "players": [{"id": "p", "policy": {"name": "external", "command": ["python3", "sleeper.py"],
                                                 "timeout": 60}}] }
            """)
        return scratch
    }

    /// `abrsim sweep --jobs 2` of the sleeper over a ``SweepFixture`` (4 traces: 4 runs, one child each), signalled
    /// with SIGTERM once `children` pids are written (see
    /// ``signalled(_:in:children:signal:environment:settle:sourceLocation:)``).
    func signalledSweep(
        _ name: String, children: Int, environment: [String: String] = [:], settle: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int32] {
        let fixture = SweepFixture(name)
        defer { fixture.remove() }
        writeFile(fixture.directory, "sleeper.py", Self.sleeper)
        let arguments = [
            "sweep", "scenario.json", "--traces", "traces", "--policies",
            "external(command=python3 sleeper.py,timeout=60)", "--jobs", "2", "--out", "out",
        ]
        return try signalled(
            arguments, in: fixture.directory, children: children, signal: SIGTERM, environment: environment,
            settle: settle, sourceLocation: sourceLocation)
    }

    /// SIGTERM rather than SIGINT: a launcher may start abrsim with SIGINT ignored (shells do for background
    /// jobs), and an ignored signal is respected. Ctrl-C takes the same path when it is not ignored.
    @Test("a SIGTERM on a run kills the policy's child and writes no output")
    func sigtermOnARunKillsThePolicysChild() throws {
        let scratch = Self.runFolder("signal-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let pids = try signalled(["run", "s.json", "--out", "out"], in: scratch, children: 1, signal: SIGTERM)
        #expect(pids.count == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch + "/out"))
    }

    @Test("a SIGTERM on a sweep kills every running policy's child")
    func sigtermOnASweepKillsThePoliciesChildren() throws {
        // One child per run in flight (the validation child is killed before Python gets to write its pid).
        let pids = try signalledSweep("signal-sweep", children: 2)
        #expect(pids.count >= 2)
    }
}
