import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small process between abrsim and each external-policy child that ends the child and everything it started
/// (background processes, grandchildren that called `setsid`) however abrsim ends, SIGKILL included.
///
/// The `abrsim` executable turns it on (``enable()``) and runs it when started as `abrsim __policy-keeper DIR
/// PROGRAM ARGS...` (``main(_:)``); ``ChildProcess`` then starts every policy through it. The keeper:
/// - becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`), so every orphaned descendant of the policy, in whatever
///   process group or session, becomes its child and stays findable;
/// - watches a pipe (descriptor 3) whose other end only abrsim holds: it reads end-of-file when abrsim has ended in
///   any way, or when ``ChildProcess/terminate()`` closes it (a SIGTERM from abrsim's signal handler does the
///   same);
/// - starts the policy with `fork` (it is single-threaded) in a process group of its own, with
///   `PR_SET_PDEATHSIG` = SIGKILL and a re-check of its parent after setting it, so the policy dies even if the
///   keeper itself is killed; a failed `exec` is reported on descriptor 4 (four bytes of `errno`), which
///   otherwise closes on `exec`;
/// - when the policy ends, or abrsim goes away, kills the policy's group and then, round after round, every child
///   it has (each orphan, and its group), until it has none left; then it exits as the policy did (same status or
///   signal), so abrsim's messages say how the policy ended.
///
/// `PR_SET_PDEATHSIG` is not used between abrsim and the keeper: it fires when the *thread* that started the child
/// ends, and abrsim starts children on worker threads. No cgroup and no extra service is needed, as root or not.
public enum PolicyKeeper {
    /// The first argument that makes `abrsim` run as a keeper.
    public static let argument = "__policy-keeper"

    /// The executable started as the keeper; `nil` until ``enable()`` (children are then started directly, in a
    /// process group of their own, as in-process tests of the library do).
    static var executable: String? { path.withLock { $0 } }

    private static let path = Mutex<String?>(nil)

    /// Starts every later external-policy child through this executable as its keeper. Called by `abrsim`'s `main`
    /// before any command runs. The keeper is started as `/proc/self/exe`, which the spawned process resolves to
    /// its own image, the running abrsim, even if the file has since been replaced or deleted (a rebuild during a
    /// long sweep).
    public static func enable() {
        guard access("/proc/self/exe", X_OK) == 0 else { return }
        path.withLock { $0 = "/proc/self/exe" }
        ChildProcessRegistry.childrenAreKeepers()
    }

    /// The keeper's whole life: `arguments` are `DIR PROGRAM ARGS...` (DIR empty: stay in this folder).
    public static func main(_ arguments: [String]) -> Never {
        guard arguments.count >= 2 else { _exit(125) }
        let directory = arguments[0]
        let command = Array(arguments.dropFirst())
        _ = prctl(36 /* PR_SET_CHILD_SUBREAPER */, 1)
        _ = terminateRequested.load(ordering: .relaxed)
        installWakeHandlers()
        // abrsim may have ended before we got here: then its end of the watch pipe is already closed.
        if watchEnded(timeoutMilliseconds: 0) { _exit(0) }
        _ = fcntl(reportDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(watchDescriptor, F_SETFD, FD_CLOEXEC)
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
        argv.append(nil)
        let keeper = getpid()
        let policy = fork()
        if policy == 0 {
            startPolicy(argv, directory: directory, keeper: keeper)
        }
        if policy < 0 {
            reportFailure(errno)
            _exit(127)
        }
        close(reportDescriptor)
        // The policy holds the sockets now; abrsim must see their end when the policy closes them.
        let null = open("/dev/null", O_RDWR)
        if null >= 0 {
            for fd: Int32 in [0, 1, 2] { dup2(null, fd) }
            if null > 2 { close(null) }
        }
        var policyStatus: Int32?
        while policyStatus == nil {
            if watchEnded(timeoutMilliseconds: 100) || terminateRequested.load(ordering: .relaxed) {
                endEverything(policy: policy, policyReaped: false)
                _exit(0)
            }
            var status: Int32 = 0
            while true {
                let reaped = waitpid(-1, &status, WNOHANG)
                if reaped <= 0 { break }
                if reaped == policy { policyStatus = status }
            }
        }
        endEverything(policy: policy, policyReaped: true)
        let status = policyStatus!
        let signalNumber = status & 0x7F
        if signalNumber == 0 { _exit((status >> 8) & 0xFF) }
        _ = signal(signalNumber, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        _ = raise(signalNumber)
        _exit(128 + signalNumber)
    }

    /// Descriptor 3: the read end of the pipe whose write end abrsim holds.
    static let watchDescriptor: Int32 = 3
    /// Descriptor 4: where a failed start is reported (four bytes of `errno`).
    static let reportDescriptor: Int32 = 4

    /// In the forked child: its own process group, death signal tied to the keeper, default signal handling, the
    /// folder, then `exec`.
    private static func startPolicy(_ argv: [UnsafeMutablePointer<CChar>?], directory: String, keeper: pid_t) -> Never {
        _ = setpgid(0, 0)
        _ = prctl(1 /* PR_SET_PDEATHSIG */, UInt(SIGKILL))
        if getppid() != keeper { _exit(127) }
        for number in [SIGTERM, SIGCHLD, SIGINT, SIGHUP, SIGPIPE] { _ = signal(number, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        close(watchDescriptor)
        if !directory.isEmpty, chdir(directory) != 0 {
            reportFailure(errno)
            _exit(127)
        }
        execvp(argv[0]!, argv)
        reportFailure(errno)
        _exit(127)
    }

    /// Writes `code` to the report descriptor.
    private static func reportFailure(_ code: Int32) {
        var value = code
        _ = withUnsafeBytes(of: &value) { write(reportDescriptor, $0.baseAddress!, 4) }
    }

    /// Whether abrsim's end of the watch pipe has closed, waiting up to `timeoutMilliseconds` (a signal wakes it).
    private static func watchEnded(timeoutMilliseconds: Int32) -> Bool {
        var fd = pollfd(fd: watchDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&fd, 1, timeoutMilliseconds)
        guard ready > 0 else { return false }
        var byte: UInt8 = 0
        let count = read(watchDescriptor, &byte, 1)
        return count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN)
    }

    /// Kills the policy's group, then every child the keeper has (orphans come to it as the subreaper), round
    /// after round, until it has none left (at most 5 s).
    private static func endEverything(policy: pid_t, policyReaped: Bool) {
        kill(-policy, SIGKILL)
        if !policyReaped { kill(policy, SIGKILL) }
        let me = getpid()
        for _ in 0..<5000 {
            for child in children(of: me) {
                kill(-child, SIGKILL)
                kill(child, SIGKILL)
            }
            var status: Int32 = 0
            while waitpid(-1, &status, WNOHANG) > 0 {}
            if waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD { return }
            usleep(1000)
        }
    }

    /// The pids whose parent is `parent`, from `/proc/PID/stat`.
    static func children(of parent: pid_t) -> [pid_t] {
        guard let folder = opendir("/proc") else { return [] }
        defer { closedir(folder) }
        var found: [pid_t] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name) else { continue }
            let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { continue }
            // After "pid (comm)": " STATE PPID ...".
            let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
            if fields.count > 1, pid_t(String(decoding: fields[1], as: UTF8.self)) == parent { found.append(pid) }
        }
        return found
    }

    /// SIGTERM asks the keeper to end everything; SIGCHLD wakes it to reap. Both only interrupt its `poll`.
    private static func installWakeHandlers() {
        _ = signal(SIGTERM) { _ in PolicyKeeper.terminateRequested.store(true, ordering: .relaxed) }
        _ = signal(SIGCHLD) { _ in }
        _ = signal(SIGINT, SIG_IGN)
        _ = signal(SIGHUP, SIG_IGN)
        _ = signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGTERM, SIGCHLD] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static let terminateRequested = Atomic<Bool>(false)

    /// glibc's `prctl`, called through a non-variadic pointer (Swift does not import C variadic functions); its
    /// arguments are all integers, which the x86-64 and AArch64 calling conventions pass alike either way.
    private static func prctl(_ option: Int32, _ value: UInt) -> Int32 {
        guard let function = prctlFunction else { return -1 }
        return function(option, value, 0, 0, 0)
    }

    private static let prctlFunction: (@convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32).self)
    }()
}
