import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Makes Ctrl-C (SIGINT) and SIGTERM stop a sweep at once while leaving only complete, committed rows.
///
/// Output files only change inside ``SweepStore`` commits, which run inside ``writing(_:)``. A signal that
/// arrives outside a commit ends the process immediately (status 128 + signal): the files are exactly at their
/// committed length, and the runs in flight are simply redone on resume. A signal during a commit lets the commit
/// finish; ``isRequested`` then tells ``SweepRunner`` to stop, and the command exits with the same status. A
/// second signal ends the process at once in any case (resume then cuts off the torn tail). Ending the process
/// kills the external policies' children first (``ChildProcessRegistry/stopAndKillAll()``). Installed by
/// `abrsim sweep`; without ``install()`` nothing changes (tests and library callers keep default signals).
public enum SweepInterruption {
    /// The signal that asked to stop (`SIGINT`, `SIGTERM`), 0 while none has.
    public static var signal: Int32 { received.load(ordering: .relaxed) }

    /// Whether a stop was requested.
    public static var isRequested: Bool { signal != 0 }

    /// Installs the handlers for SIGINT and SIGTERM.
    public static func install() {
        // A parent may have started us with these signals blocked (some process launchers do); unblock them.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // Nothing the handler reads may be initialised lazily inside it.
        _ = received.load(ordering: .relaxed)
        _ = state.load(ordering: .relaxed)
        ChildProcessRegistry.prepareForSignals()
        for number in [SIGINT, SIGTERM] {
            _ = Glibc.signal(number) { number in
                let first = received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
                if first.exchanged {
                    // Stop now unless a commit is under way; a commit that starts later sees the request.
                    let idle = state.compareExchange(
                        expected: idle, desired: stopping, ordering: .sequentiallyConsistent)
                    if !idle.exchanged { return }
                }
                _ = write(2, interruptedMessage.utf8Start, interruptedMessage.utf8CodeUnitCount)
                // External policies' children lead their own process groups: kill them, and let no run that goes on
                // until `_exit` takes effect start another.
                ChildProcessRegistry.stopAndKillAll()
                _exit(128 + number)
            }
        }
    }

    /// Runs `body` (a commit) unless a stop was requested first; returns whether it ran. While it runs, a signal
    /// waits for it to finish.
    public static func writing(_ body: () throws -> Void) rethrows -> Bool {
        guard state.compareExchange(expected: idle, desired: busy, ordering: .sequentiallyConsistent).exchanged else {
            return false
        }
        defer { state.store(idle, ordering: .sequentiallyConsistent) }
        try body()
        return true
    }
}

private let interruptedMessage: StaticString =
    "\nsweep: interrupted; every committed run is kept: run the same command again to finish\n"
private let received = Atomic<Int32>(0)
private let state = Atomic<Int>(0)
private let idle = 0
private let busy = 1
private let stopping = 2
