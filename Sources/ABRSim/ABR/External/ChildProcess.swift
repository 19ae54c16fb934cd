#if canImport(Glibc)
    import Glibc
#endif

/// A child process spoken to in lines: started with `posix_spawnp`, its stdin fed through a socket pair (so that
/// writing to a child that died is an `EPIPE` error, never a `SIGPIPE` that kills the simulator), its stdout
/// read line by line with a deadline (`poll(2)`), its stderr drained all the while so that a chatty child
/// cannot block on a full pipe; the last lines of stderr are kept for error messages.
///
/// The child leads its own process group, so ``terminate()`` kills (`SIGKILL`) it and anything it started (a shell
/// wrapper's interpreter, say) and reaps it; deinit does the same. Under the `abrsim` executable the child is a
/// ``PolicyKeeper`` that starts the policy and ends it and all its descendants when told (``terminate()`` closes its
/// watch pipe and sends SIGTERM) or when abrsim ends in any way; its exit status is the policy's. It is started through
/// ``ChildProcessRegistry/track(_:)``, so that a signal ending abrsim kills it too, and with no signal blocked.
/// Every wait is bounded: writing a request, reading a reply (at most ``maximumLineBytes``) and draining stderr all
/// poll against the caller's deadline, so a child that stops reading, floods its output or never answers cannot
/// hang the simulator. Used by ``ExternalPolicy``.
final class ChildProcess {
    /// What went wrong talking to the child, in words for a message.
    struct Failure: Error, Equatable {
        var message: String
    }

    let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    /// Our end of the keeper's watch pipe (-1 without a keeper): closing it tells the keeper to end everything.
    private var watch: Int32 = -1
    private var pending: [UInt8] = []
    /// Bytes at the start of `pending` already known to hold no newline.
    private var scanned = 0
    private var errorTail: [UInt8] = []
    private var exitDescription: String?
    /// Bytes of stderr kept for messages.
    static let errorTailBytes = 2048
    /// Longest reply line accepted; a longer one (or endless output without a newline) is a failure.
    static let maximumLineBytes = 1 << 20

    /// Starts `command` (program looked up in `PATH`, then its arguments) in `directory` (`nil`: ours).
    init(command: [String], directory: String?) throws {
        guard let program = command.first, !program.isEmpty else { throw Failure(message: "the command is empty") }
        // Socket pairs rather than pipes: created close-on-exec atomically (so children spawned by other threads
        // at the same moment never inherit them), and `send(MSG_NOSIGNAL)` turns a dead reader into EPIPE.
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &stdinPair) == 0, socketpair(AF_UNIX, kind, 0, &stdoutPipe) == 0,
            socketpair(AF_UNIX, kind, 0, &stderrPipe) == 0
        else {
            let code = errno
            for fd in stdinPair + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
            throw Failure(message: "cannot create socket pairs: \(Self.errorText(code))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        var command = command
        // Under a keeper: the watch pipe (its end of it as descriptor 3) and the start report (descriptor 4), both
        // moved above the descriptors the file actions write to.
        let keeper = PolicyKeeper.executable
        var watchPair: [Int32] = [-1, -1]
        var reportPair: [Int32] = [-1, -1]
        if let keeper {
            guard socketpair(AF_UNIX, kind, 0, &watchPair) == 0, socketpair(AF_UNIX, kind, 0, &reportPair) == 0 else {
                let code = errno
                for fd in stdinPair + stdoutPipe + stderrPipe + watchPair + reportPair where fd >= 0 { close(fd) }
                throw Failure(message: "cannot create socket pairs: \(Self.errorText(code))")
            }
            for index in 0..<2 {
                watchPair[index] = Self.moveAbove(watchPair[index], 16)
                reportPair[index] = Self.moveAbove(reportPair[index], 16)
            }
            posix_spawn_file_actions_adddup2(&actions, watchPair[1], PolicyKeeper.watchDescriptor)
            posix_spawn_file_actions_adddup2(&actions, reportPair[1], PolicyKeeper.reportDescriptor)
            command = [keeper, PolicyKeeper.argument, directory ?? ""] + command
        } else if let directory {
            if let addChdir = Self.addChdir {
                _ = addChdir(&actions, directory)
            } else {
                command = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory] + command
            }
        }
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        // Its own process group (leader: the child), so that killing the group also ends its own children; no
        // signal blocked (the spawning thread may block some, a Dispatch worker nearly all).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        let child: pid_t
        do {
            // Registered before any signal handler that ends the process can miss it (see ChildProcessRegistry).
            child = try ChildProcessRegistry.track {
                var child: pid_t = 0
                let status = posix_spawnp(&child, command[0], &actions, &attributes, argv, environ)
                guard status == 0 else {
                    throw Failure(message: "cannot start '\(program)': \(Self.errorText(status))")
                }
                return child
            }
        } catch {
            for fd in stdinPair + stdoutPipe + stderrPipe + watchPair + reportPair where fd >= 0 { close(fd) }
            switch error {
            case ChildProcessRegistry.Refusal.stopping:
                throw Failure(message: "not started: abrsim is ending on a signal")
            case ChildProcessRegistry.Refusal.full:
                throw Failure(message: "not started: \(ChildProcessRegistry.capacity) policy processes already run")
            default: throw error
            }
        }
        close(stdinPair[1])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        pid = child
        input = stdinPair[0]
        output = stdoutPipe[0]
        errors = stderrPipe[0]
        if keeper != nil {
            close(watchPair[1])
            close(reportPair[1])
            watch = watchPair[0]
            let code = Self.startReport(reportPair[0])
            close(reportPair[0])
            if let code {
                terminate()
                throw Failure(message: "cannot start '\(program)': \(Self.errorText(code))")
            }
        }
    }

    /// `fd` moved to a descriptor at or above `minimum` (close-on-exec); `fd` itself if that fails.
    private static func moveAbove(_ fd: Int32, _ minimum: Int32) -> Int32 {
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, minimum)
        guard moved >= 0 else { return fd }
        close(fd)
        return moved
    }

    /// The keeper's start report: `errno` of a failed start, `nil` once the policy has called `exec` (the report
    /// closes without a word). Waits at most 30 s.
    private static func startReport(_ fd: Int32) -> Int32? {
        var bytes: [UInt8] = []
        let deadline = now() + 30
        while bytes.count < 4 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = deadline - now()
            guard remaining > 0 else { return ETIMEDOUT }
            let status = poll(&ready, 1, Int32((remaining * 1000).rounded(.up)))
            if status < 0 && errno == EINTR { continue }
            guard status > 0 else { return ETIMEDOUT }
            var chunk = [UInt8](repeating: 0, count: 4)
            let count = read(fd, &chunk, 4 - bytes.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            bytes += chunk[..<count]
        }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
    }

    deinit { terminate() }

    /// Sends one line (a newline is appended), waiting for room in the child's input until `deadline`
    /// (``now()`` seconds); `timeout` is only for the message.
    func send(_ line: String, deadline: Double, timeout: Double) throws {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.send(
                    input, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                // A child that has exited gets the same message however the race with its exit went (reading its
                // reply would have found the end of its output), so the failure reason is deterministic.
                if code == EPIPE || code == ECONNRESET, let status = exitStatus(grace: 0.5) {
                    throw Failure(message: "it closed its output before replying (\(status))")
                }
                throw Failure(message: "cannot write to it (\(Self.errorText(code)))\(exitSuffix())")
            }
            guard try waitUntilReady(input, events: POLLOUT, deadline: deadline) else {
                throw Failure(
                    message: "it stopped reading its input: no room for a request within "
                        + "\(formatParameterNumber(timeout)) s")
            }
        }
    }

    /// The next line of stdout (without its newline), waiting until `deadline` (``now()`` seconds); `timeout` is
    /// only for the message.
    func readLine(deadline: Double, timeout: Double) throws -> String {
        while true {
            if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                let bytes = pending[..<newline]
                let line = String(validating: bytes, as: UTF8.self)
                let shown = line == nil ? VisibleText.escaping(bytes: bytes.prefix(120)) : ""
                pending.removeSubrange(...newline)
                scanned = 0
                guard let line else { throw Failure(message: "the reply is not valid UTF-8, got '\(shown)'") }
                return line
            }
            scanned = pending.count
            guard pending.count <= Self.maximumLineBytes else {
                throw Failure(message: "a reply line longer than \(Self.maximumLineBytes) bytes")
            }
            guard try waitUntilReady(output, events: POLLIN, deadline: deadline) else {
                throw Failure(message: "no reply within \(formatParameterNumber(timeout)) s")
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(output, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(message: "cannot read its output: \(Self.errorText(errno))")
            }
            if count == 0 {
                throw Failure(message: "it closed its output before replying\(exitSuffix())")
            }
            pending.append(contentsOf: buffer[..<count])
        }
    }

    /// Waits until `descriptor` is ready for `events` (or has hung up), draining stderr meanwhile; `false` when
    /// `deadline` passes first.
    private func waitUntilReady(_ descriptor: Int32, events: Int32, deadline: Double) throws -> Bool {
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { return false }
            var fds = [pollfd(fd: descriptor, events: Int16(events), revents: 0)]
            if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min((remaining * 1000).rounded(.up), 1e9)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "poll failed: \(Self.errorText(errno))")
            }
            if fds.count > 1, fds[1].revents != 0 { drainErrors() }
            if fds[0].revents != 0 { return true }
        }
    }

    /// Reads whatever stderr holds now, keeping the last ``errorTailBytes``; closes it at end of file.
    private func drainErrors() {
        guard errors >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(errors, &buffer, buffer.count)
        if count <= 0 {
            if count < 0, errno == EINTR || errno == EAGAIN { return }
            close(errors)
            errors = -1
            return
        }
        errorTail.append(contentsOf: buffer[..<count])
        if errorTail.count > Self.errorTailBytes { errorTail.removeFirst(errorTail.count - Self.errorTailBytes) }
    }

    /// The last lines the child wrote to stderr (at most three), for messages; empty if none.
    func stderrTail() -> String {
        // Collect what is already there without blocking, and no more than 4 MiB of it: a child that writes
        // stderr without end must not keep us here.
        for _ in 0..<64 where errors >= 0 {
            var fd = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 0) > 0 else { break }
            drainErrors()
        }
        let lines = errorTail.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).suffix(3)
        return lines.map { VisibleText.escaping(bytes: $0) }.joined(separator: " | ")
    }

    /// How the child ended, if it has (reaps it); waits up to `grace` seconds for it.
    private func exitStatus(grace: Double) -> String? {
        if let exitDescription { return exitDescription }
        let deadline = Self.now() + grace
        while true {
            // Seen without reaping it first, so that it leaves the registry while its zombie still holds the group
            // id: a signal handler never kills a group id that may have been reused.
            var info = siginfo_t()
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == 0 && info._sifields._sigchld.si_pid == pid {
                ChildProcessRegistry.unregister(pid)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let code = status & 0x7F
                exitDescription = code == 0 ? "exit status \((status >> 8) & 0xFF)" : "killed by signal \(code)"
                return exitDescription
            }
            if result < 0 || Self.now() >= deadline { return nil }
            usleep(2000)
        }
    }

    /// `" (exit status 3)"` when the child has ended, else empty.
    private func exitSuffix() -> String {
        exitStatus(grace: 0.5).map { " (\($0))" } ?? ""
    }

    /// Kills (`SIGKILL`) the child's process group, reaps the child and closes every descriptor; safe to call twice.
    /// The group is killed only while the child is unreaped (its zombie keeps the group id from being reused).
    func terminate() {
        if exitDescription == nil {
            if watch >= 0 {
                // The keeper ends the policy and its descendants, then exits; SIGKILL only if it does not in 5 s.
                close(watch)
                watch = -1
                kill(pid, SIGTERM)
                var info = siginfo_t()
                let deadline = Self.now() + 5
                while Self.now() < deadline {
                    let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
                    if result < 0 && errno != EINTR { break }
                    if result == 0 && info._sifields._sigchld.si_pid == pid { break }
                    usleep(1000)
                }
            }
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            ChildProcessRegistry.unregister(pid)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitDescription = "killed"
        }
        if watch >= 0 { close(watch) }
        for fd in [input, output, errors] where fd >= 0 { close(fd) }
        watch = -1
        input = -1
        output = -1
        errors = -1
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), looked up at run time because the Glibc module
    /// does not declare it; `nil` where it is missing (the child then changes folder through `/bin/sh`).
    static let addChdir:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
            guard let handle = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(handle, "posix_spawn_file_actions_addchdir_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)
                    .self)
        }()

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
