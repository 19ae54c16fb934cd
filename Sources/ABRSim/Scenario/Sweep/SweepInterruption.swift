import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into a request to stop a sweep after the batch in flight is committed, so an
/// interrupted sweep leaves only complete rows and resumes cleanly. A second signal ends the process at once (the
/// sweep still resumes, cutting the uncommitted tail). Installed by `abrsim sweep`; read by ``SweepRunner``.
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
        for number in [SIGINT, SIGTERM] {
            _ = Glibc.signal(number) { number in
                if received.exchange(number, ordering: .relaxed) != 0 {
                    Glibc.signal(number, SIG_DFL)
                    Glibc.raise(number)
                }
            }
        }
    }
}

private let received = Atomic<Int32>(0)
