import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// External policies that misbehave in the ways not covered by ``ExternalPolicyTests``: a flood of stderr, an
/// early clean exit, a child that stops reading, endless output without a newline, grandchildren; and the
/// guarantees around them: the reason names the policy, the time is bounded, the child is killed and reaped, and
/// the other players of the run go on.
@Suite("external policies that misbehave")
struct ExternalMisbehaviourTests {
    /// A policy running `command` (program and arguments) with `timeout` seconds per decision.
    func external(_ command: [String], timeout: Double = 2) throws -> ExternalPolicy {
        let spec = PolicySpec(
            name: "external", parameters: [("command", .list(command)), ("timeout", .number(timeout))])
        let policy = try PolicyRegistry.builtIn.makePolicy(
            spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        return try #require(policy as? ExternalPolicy)
    }

    func python(_ code: String, timeout: Double = 2) throws -> ExternalPolicy {
        try external(["python3", "-c", code], timeout: timeout)
    }

    /// One player with `policy` (and, when given, a second one with `other`) on a constant 3 Mbit/s link.
    func run(_ policy: any ABRPolicy, other: (any ABRPolicy)? = nil, segments: Int = 20) throws -> SimulationResult {
        let curve = try CapacityCurve(starts: [0], ratesBps: [3_000_000], duration: 100)
        let content = try Content.constantBitrate(
            ladderKbps: [300, 750, 1200, 1850], segmentSeconds: 2, segmentCount: segments)
        var players = [
            PlayerConfiguration(
                id: "outside", content: content, policy: policy, policyLabel: "external", settings: PlayerSettings(),
                estimator: LastSampleEstimator())
        ]
        if let other {
            players.append(
                PlayerConfiguration(
                    id: "inside", content: content, policy: other, policyLabel: "bba", settings: PlayerSettings(),
                    estimator: LastSampleEstimator()))
        }
        return Simulation(curve: curve, players: players).run()
    }

    func reason(_ result: SimulationResult, player: Int = 0) -> String? {
        if case .failed(let reason) = result.totals[player].finalState { return reason }
        return nil
    }

    /// Whether process `pid` is gone: no such process, or (when PID 1 does not reap orphans) a zombie.
    static func isGone(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test("a megabyte of stderr per decision blocks neither the policy nor the run")
    func aFloodOfStderrNeitherBlocksTheChildNorTheRun() throws {
        // 1 MB of stderr per decision, far beyond a socket buffer, then a valid reply.
        let code = """
            import sys
            for line in sys.stdin:
                sys.stderr.write('log ' + 'x' * 1000000 + '\\n')
                sys.stderr.write('decided segment %d\\n' % (len(line) % 7))
                sys.stderr.flush()
                print('{"variant": 1}', flush=True)
            """
        let result = try run(try python(code))
        #expect(result.totals[0].finalState == .ended)
        #expect(result.segments[0].count == 20)
        #expect(result.segments[0].allSatisfy { $0.variant == 1 })
    }

    @Test("a crash after a flood of stderr fails the player quickly, quoting only the last lines")
    func aFloodOfStderrBeforeACrashKeepsOnlyTheLastLines() throws {
        let code = """
            import sys
            sys.stdin.readline()
            for i in range(5000):
                sys.stderr.write('noise line %d %s\\n' % (i, 'y' * 200))
            sys.stderr.write('fatal: weights not found\\n')
            sys.exit(4)
            """
        let start = ChildProcess.now()
        let failure = try #require(reason(try run(try python(code))))
        #expect(failure.hasPrefix("external policy 'external(command=[python3 -c"))
        #expect(failure.contains("segment 0") && failure.contains("exit status 4"))
        #expect(failure.hasSuffix("fatal: weights not found"))
        #expect(!failure.contains("noise line 4990"))  // at most three lines of stderr are quoted
        #expect(failure.utf8.count < 3000)
        #expect(ChildProcess.now() - start < 10 * TestPaths.timeScale)
    }

    @Test("endless stderr without a reply still times out, quoting the stderr")
    func endlessStderrWithoutAReplyStillTimesOut() throws {
        let start = ChildProcess.now()
        let code = "import sys\nwhile True:\n    sys.stderr.write('still thinking ' + 'z' * 1000 + '\\n')"
        // 2 s: time for the interpreter to start and write something even on a loaded machine.
        let failure = try #require(reason(try run(try python(code, timeout: 2))))
        #expect(failure.contains("no reply within 2 s; its stderr: ") && failure.contains("still thinking"))
        #expect(ChildProcess.now() - start < 10 * TestPaths.timeScale)
    }

    @Test("a policy that exits cleanly before its first reply fails the player with one reason")
    func aCleanExitBeforeTheFirstReplyFailsThePlayer() throws {
        // Whether the child is gone before the request is written (EPIPE) or after (end of its output), the
        // reason is the same.
        let goneBefore = try external(["true"])
        usleep(300_000)
        let goneAfter = try python("import time\ntime.sleep(0.2)")
        for policy in [goneBefore, goneAfter] {
            let failure = try #require(reason(try run(policy)))
            #expect(failure.hasSuffix("segment 0: it closed its output before replying (exit status 0)"), "\(failure)")
        }
    }

    @Test("a policy that exits cleanly after two replies fails the player at the third decision")
    func aCleanExitBetweenRepliesFailsAtTheNextDecision() throws {
        let code = "import sys\nfor i in range(2):\n    sys.stdin.readline()\n    print('{\"variant\": 2}', flush=True)"
        let result = try run(try python(code))
        let failure = try #require(reason(result))
        #expect(failure.contains("segment 2") && failure.contains("exit status 0"))
        #expect(result.segments[0].map(\.variant) == [2, 2])
    }

    @Test("a policy that fails to reply is killed and reaped at once, not when released")
    func aFailedChildIsKilledAndReapedAtOnce() throws {
        let policy = try python("import sys, time\nsys.stdin.readline()\ntime.sleep(60)", timeout: 0.3)
        let pid = policy.childProcessID
        #expect(kill(pid, 0) == 0)
        let start = ChildProcess.now()
        let failure = try #require(reason(try run(policy)))
        #expect(failure.contains("no reply within 0.3 s"))
        #expect(ChildProcess.now() - start < 5 * TestPaths.timeScale)
        // The policy is still alive here: the child was killed and reaped when it failed, not on release.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        withExtendedLifetime(policy) {}
    }

    @Test("a policy's own children are killed with it")
    func theChildsOwnChildrenAreKilledWithIt() throws {
        // A shell that starts a long sleep, reports its pid on stderr, and never replies.
        let policy = try external(["sh", "-c", "sleep 60 & echo grandchild $! >&2; wait"], timeout: 0.3)
        let failure = try #require(reason(try run(policy)))
        let words = failure.split(separator: " ")
        let pidWord = try #require(words.lastIndex(of: "grandchild").map { words[$0 + 1] })
        let grandchild = try #require(Int32(pidWord))
        var waited = 0.0
        while !Self.isGone(grandchild) && waited < 2 {
            usleep(20_000)
            waited += 0.02
        }
        #expect(Self.isGone(grandchild))
        #expect(kill(policy.childProcessID, 0) == -1 && errno == ESRCH)
    }

    @Test("a policy that stops reading its input times out the next write instead of blocking")
    func aChildThatStopsReadingItsInputCannotBlockTheSimulator() throws {
        // `yes` answers forever without reading a single request: the requests fill the socket and the next
        // write must time out rather than block.
        let start = ChildProcess.now()
        let policy = try external(["yes", "{\"variant\": 0}"], timeout: 0.5)
        let failure = try #require(reason(try run(policy, segments: 5000)))
        #expect(failure.hasPrefix("external policy '") && failure.contains("stopped reading its input"))
        #expect(ChildProcess.now() - start < 20 * TestPaths.timeScale)
    }

    @Test("a reply line longer than 1 MiB is refused")
    func endlessOutputWithoutANewlineIsRefused() throws {
        let policy = try external(["head", "-c", "3000000", "/dev/zero"])
        let failure = try #require(reason(try run(policy)))
        #expect(
            failure.contains("segment 0") && failure.contains("a reply line longer than 1048576 bytes"), "\(failure)")
    }

    @Test("an out-of-range reply fails only its player, and the other player ends")
    func anOutOfRangeReplyFailsOnlyItsPlayer() throws {
        let policy = try python("import sys\nfor line in sys.stdin: print('{\"variant\": 4}', flush=True)")
        let result = try run(policy, other: BufferBasedPolicy())
        let failure = try #require(reason(result))
        #expect(failure.contains("variant 4 is outside 0…3"))
        #expect(result.totals[1].finalState == .ended)
        #expect(result.segments[1].count == 20)
    }

    @Test("a hanging policy fails only its player, within the timeout")
    func aHangFailsOnlyItsPlayerWithinTheTimeout() throws {
        let start = ChildProcess.now()
        let policy = try python("import sys, time\nsys.stdin.readline()\ntime.sleep(60)", timeout: 0.4)
        let result = try run(policy, other: BufferBasedPolicy())
        #expect(reason(result)?.contains("no reply within 0.4 s") == true)
        #expect(result.totals[1].finalState == .ended)
        #expect(ChildProcess.now() - start < 5 * TestPaths.timeScale)
    }

    @Test("a policy that only ever waits fails after an hour of simulated waits")
    func waitingForEverFailsInsteadOfKeepingTheRunAlive() throws {
        let start = ChildProcess.now()
        let policy = try python("import sys\nfor line in sys.stdin: print('{\"wait\": 0.5}', flush=True)")
        let failure = try #require(reason(try run(policy)))
        // 3600 s of simulated waiting are 7200 waits of 0.5 s; the next one is too many.
        #expect(failure.contains("segment 0: 7201 waits in a row (3601 s) without choosing a variant"))
        #expect(ChildProcess.now() - start < 15 * TestPaths.timeScale)
    }

    @Test("a policy alternating waits and variants plays to the end")
    func waitsBetweenVariantsAreFine() throws {
        let code = """
            import sys
            for i, line in enumerate(sys.stdin):
                print('{"wait": 1}' if i % 2 == 0 else '{"variant": 1}', flush=True)
            """
        let result = try run(try python(code))
        #expect(result.totals[0].finalState == .ended)
        #expect(result.segments[0].count == 20)
    }
}
