import Foundation
import Testing

@testable import ABRSim

/// A signal that ends abrsim while a policy child is being started, or while abrsim is still ending, leaves no child
/// behind (``ExternalSignalTests/signalled(_:in:children:signal:environment:settle:sourceLocation:)`` checks every
/// child is gone and no process is left in the folder). Test hooks widen the two windows that once did:
/// `ABRSIM_TEST_SPAWN_DELAY_MS` pauses between a spawn and its registration, `ABRSIM_TEST_EXIT_DELAY_MS` pauses after
/// the children are killed, before the process ends (ThreadSanitizer's `_exit` sleeps a second there, while the
/// other threads run on). Each test fails on the code before the fix.
@Suite("signals racing a policy child's start and abrsim's end")
struct ExternalSignalRaceTests {
    let signals = ExternalSignalTests()

    /// The stray child seen under ThreadSanitizer: the signal kills the two runs' children, their runs fail at
    /// once, and while the process is still ending a worker starts the next run, whose child nobody killed.
    @Test("while a sweep ends on a signal no new run starts a policy child")
    func noRunStartsAChildWhileTheSweepIsEndingOnASignal() throws {
        let pids = try signals.signalledSweep(
            "signal-race-exit", children: 2, environment: ["ABRSIM_TEST_EXIT_DELAY_MS": "800"], settle: 0.3)
        // Only the two runs in flight started a child (the third run's was refused).
        #expect(pids.count == 2)
    }

    /// A signal while the first child ever is between its spawn and its registration: the handler must already
    /// be installed, and must run only once the child is registered.
    @Test("a signal between a run's first spawn and its registration still kills that child")
    func aSignalDuringTheFirstSpawnOfARunKillsThatChild() throws {
        let scratch = ExternalSignalTests.runFolder("signal-race-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // The child writes its pid well within the pause, so the signal arrives before it is registered.
        let pids = try signals.signalled(
            ["run", "s.json", "--out", "out"], in: scratch, children: 1, signal: SIGTERM,
            environment: ["ABRSIM_TEST_SPAWN_DELAY_MS": "1500"])
        #expect(pids.count == 1)
    }

    /// The same in a sweep, where the two runs' children are spawned at once on two threads (the main thread,
    /// whose signals are unblocked, and a Dispatch worker): both are between spawn and registration when the
    /// signal comes.
    @Test("a signal while two sweep runs spawn their children kills both and the validation child")
    func aSignalWhileTwoRunsSpawnTheirChildrenKillsBoth() throws {
        // Three pids: the validation child (it lives through the pause, then is killed) and the two runs'.
        let pids = try signals.signalledSweep(
            "signal-race-spawn", children: 3, environment: ["ABRSIM_TEST_SPAWN_DELAY_MS": "1500"])
        #expect(pids.count == 3)
    }
}
