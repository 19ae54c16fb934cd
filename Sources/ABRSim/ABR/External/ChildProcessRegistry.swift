import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The process groups of the live external-policy children, so that a signal that ends abrsim (Ctrl-C, SIGTERM,
/// SIGHUP) ends them too: each child leads its own group (see ``ChildProcess``), so the terminal's signal no
/// longer reaches it by itself.
///
/// ``register(_:)`` is called when a child starts and installs, once, a handler for SIGINT, SIGTERM and SIGHUP
/// wherever the signal still has its default action, unblocking it in the calling thread (a handler someone
/// installed, such as
/// ``SweepInterruption``'s, is left alone and calls ``killAll()`` itself). The handler kills every registered group
/// and re-raises the signal with its default action. The slots are plain `Int32`s read without a lock by the
/// handler (only `kill(2)` is called there, which is async-signal-safe); writers take a mutex.
enum ChildProcessRegistry {
    /// Most children tracked at once; more still run, but are not killed by a signal.
    static let capacity = 1024

    /// Records the child `pid` (a group leader); installs the signal handlers on first use.
    static func register(_ pid: pid_t) {
        _ = handlersInstalled
        lock.withLock { _ in
            for index in 0..<capacity where slots[index] == 0 {
                slots[index] = pid
                return
            }
        }
    }

    /// Forgets `pid` (before it is reaped, so a handler never kills a group id that may be reused).
    static func unregister(_ pid: pid_t) {
        lock.withLock { _ in
            for index in 0..<capacity where slots[index] == pid { slots[index] = 0 }
        }
    }

    /// Sends SIGKILL to every registered group. Async-signal-safe.
    static func killAll() {
        for index in 0..<capacity {
            let pid = slots[index]
            if pid > 0 { kill(-pid, SIGKILL) }
        }
    }

    private static let lock = Mutex<Void>(())
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<pid_t> = {
        let pointer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        pointer.initialize(repeating: 0, count: capacity)
        return pointer
    }()

    /// Installs the handler for each signal that has its default action; evaluated once.
    private static let handlersInstalled: Bool = {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else {
                continue
            }
            _ = signal(number) { number in
                ChildProcessRegistry.killAll()
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
