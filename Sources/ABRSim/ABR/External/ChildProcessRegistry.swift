import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process groups of the live external-policy children, so that a signal that ends abrsim (Ctrl-C, SIGTERM,
/// SIGHUP) ends them too: each child leads its own group (see ``ChildProcess``), so the terminal's signal no
/// longer reaches it by itself.
///
/// Children are started through ``track(_:)``, which installs, once and before the first child, a handler for
/// SIGINT, SIGTERM and SIGHUP wherever the signal still has its default action, unblocking it in the calling
/// thread (a handler someone installed, such as ``SweepInterruption``'s, is left alone and calls
/// ``stopAndKillAll()`` itself). The handler kills every registered group and re-raises the signal with its default
/// action.
///
/// No child can be missed by a handler that ends the process, whatever the interleaving:
/// - a spawn and its registration happen with those signals blocked in the spawning thread, counted as in flight;
///   ``stopAndKillAll()`` first sets a stopping flag, then waits (bounded, `nanosleep`) until no spawn is in
///   flight, and only then kills the registered groups;
/// - a spawn that begins after the flag is set is refused, so threads that go on running while the process ends
///   (ThreadSanitizer's `_exit` sleeps a second first) start no child that nobody would kill;
/// - a spawn still in flight when the wait gives up kills its own child as soon as it sees the flag.
///
/// The slots are atomics, claimed and cleared with compare-and-exchange and read by the handler without a lock
/// (only atomic loads, `kill(2)` and `nanosleep(2)` there, which are async-signal-safe). A mutex would not do: a
/// handler must not wait for a lock its own thread may hold, and ThreadSanitizer does not see the ordering given by
/// the contended path of `Synchronization.Mutex` (it reported a false race on the slots).
enum ChildProcessRegistry {
    /// Most children tracked at once; ``track(_:)`` refuses more (an untracked child would survive a signal).
    static var capacity: Int { slots.count }
    /// Longest a handler waits for spawns in flight to register, in milliseconds. A spawn returns once the child
    /// has called `exec`, normally within milliseconds.
    static let spawnWaitMilliseconds = 5000

    /// Why ``track(_:)`` started no child.
    enum Refusal: Error, Equatable {
        /// A handler is ending the process.
        case stopping
        /// ``capacity`` children are already running.
        case full
    }

    /// Runs `spawn` (which starts a child that leads its own process group and returns its pid) and registers the
    /// child so that ``stopAndKillAll()`` cannot miss it; refuses (``Refusal``) when the process is stopping or the
    /// registry is full, killing and reaping a child it could not register. Called by ``ChildProcess``.
    static func track(_ spawn: () throws -> pid_t) throws -> pid_t {
        _ = handlersInstalled
        let pid = try withSignalsBlocked { () throws -> pid_t in
            inFlight.add(1, ordering: .sequentiallyConsistent)
            defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
            guard !stopping.load(ordering: .sequentiallyConsistent) else { throw Refusal.stopping }
            let pid = try spawn()
            pause(milliseconds: spawnDelayMilliseconds)
            guard record(pid) else {
                kill(-pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw Refusal.full
            }
            return pid
        }
        // Set here only if a handler gave up waiting for this spawn before registering it (or registered and killed
        // it already: killing it twice is harmless, it is not reaped yet).
        if stopping.load(ordering: .sequentiallyConsistent) { kill(-pid, SIGKILL) }
        return pid
    }

    /// Forgets `pid` (before it is reaped, so a handler never kills a group id that may be reused).
    static func unregister(_ pid: pid_t) {
        for index in 0..<capacity {
            _ = slots[index].compareExchange(expected: pid, desired: 0, ordering: .sequentiallyConsistent)
        }
    }

    /// For a signal handler that ends the process: refuses new children from now on, waits (at most
    /// ``spawnWaitMilliseconds``) until no spawn is in flight, and sends SIGKILL to every registered group.
    /// Async-signal-safe. With `ABRSIM_TEST_EXIT_DELAY_MS` set (tests only), then waits that long, as
    /// ThreadSanitizer's `_exit` does while the other threads run on.
    static func stopAndKillAll() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        var waited = 0
        while inFlight.load(ordering: .sequentiallyConsistent) > 0 && waited < spawnWaitMilliseconds {
            pause(milliseconds: 1)
            waited += 1
        }
        killAll()
        pause(milliseconds: exitDelayMilliseconds.load(ordering: .relaxed))
    }

    /// Sends SIGKILL to every registered group. Async-signal-safe. When the children are ``PolicyKeeper``s, first
    /// asks each (SIGTERM) to end its policy and the policy's descendants, and waits (at most
    /// ``keeperWaitMilliseconds``) until all have exited, so that nothing of theirs outlives abrsim's exit.
    private static func killAll() {
        if keepers.load(ordering: .sequentiallyConsistent) {
            for index in 0..<capacity {
                let pid = slots[index].load(ordering: .sequentiallyConsistent)
                if pid > 0 { kill(pid, SIGTERM) }
            }
            var waited = 0
            while waited < keeperWaitMilliseconds && !allRegisteredExited() {
                pause(milliseconds: 1)
                waited += 1
            }
        }
        for index in 0..<capacity {
            let pid = slots[index].load(ordering: .sequentiallyConsistent)
            if pid > 0 { kill(-pid, SIGKILL) }
        }
    }

    /// Whether every registered child has exited (seen without reaping it). Async-signal-safe.
    private static func allRegisteredExited() -> Bool {
        for index in 0..<capacity {
            let pid = slots[index].load(ordering: .sequentiallyConsistent)
            guard pid > 0 else { continue }
            var info = siginfo_t()
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == 0 && info._sifields._sigchld.si_pid != pid { return false }
        }
        return true
    }

    /// Longest a handler waits for keepers to end their policies, in milliseconds.
    static let keeperWaitMilliseconds = 3000

    /// Marks every child as a ``PolicyKeeper`` (called once by ``PolicyKeeper/enable()``, before any child).
    static func childrenAreKeepers() {
        keepers.store(true, ordering: .sequentiallyConsistent)
    }

    /// Makes everything ``stopAndKillAll()`` reads ready before a handler may run (a handler must not run a lazy
    /// initialiser): called when a handler that uses it is installed.
    static func prepareForSignals() {
        _ = stopping.load(ordering: .relaxed)
        _ = keepers.load(ordering: .relaxed)
        _ = inFlight.load(ordering: .relaxed)
        _ = slots[0].load(ordering: .relaxed)
        exitDelayMilliseconds.store(testHook("ABRSIM_TEST_EXIT_DELAY_MS"), ordering: .relaxed)
    }

    /// Adds `pid` to a free slot; `false` when none is free.
    private static func record(_ pid: pid_t) -> Bool {
        for index in 0..<capacity
        where slots[index].compareExchange(expected: 0, desired: pid, ordering: .sequentiallyConsistent).exchanged {
            return true
        }
        return false
    }

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP blocked in this thread: a handler then cannot run in this thread
    /// while it has a child spawned but not yet registered (it would wait for this very spawn). A signal that
    /// arrives meanwhile is delivered once they are unblocked (or to another thread).
    private static func withSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in handledSignals { sigaddset(&blocked, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Sleeps `milliseconds` (none when 0) with `nanosleep`, which is async-signal-safe.
    private static func pause(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// The whole number of milliseconds in the environment variable `name`, 0 when unset or not a number.
    /// The hooks only widen race windows so that tests can hit them at will; nothing sets them otherwise.
    private static func testHook(_ name: String) -> Int {
        guard let value = getenv(name) else { return 0 }
        return max(0, Int(String(cString: value)) ?? 0)
    }

    private static let handledSignals = [SIGINT, SIGTERM, SIGHUP]
    private static let stopping = Atomic<Bool>(false)
    private static let keepers = Atomic<Bool>(false)
    private static let inFlight = Atomic<Int>(0)
    private static let exitDelayMilliseconds = Atomic<Int>(0)
    /// `ABRSIM_TEST_SPAWN_DELAY_MS` (tests only): a pause between a spawn and its registration.
    private static let spawnDelayMilliseconds = testHook("ABRSIM_TEST_SPAWN_DELAY_MS")
    /// The registered pids, 0 for a free slot.
    private static let slots = InlineArray<1024, Atomic<pid_t>> { _ in Atomic<pid_t>(0) }

    /// Installs the handler for each signal that has its default action; evaluated once, before the first child.
    private static let handlersInstalled: Bool = {
        prepareForSignals()
        for number in handledSignals {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else {
                continue
            }
            _ = signal(number) { number in
                ChildProcessRegistry.stopAndKillAll()
                _ = signal(number, SIG_DFL)
                _ = raise(number)
            }
            // Some launchers (Foundation's Process among them) start us with signals blocked; as
            // ``SweepInterruption`` does, unblock them in this thread so that they can end the run.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
        return true
    }()
}
