import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to write an output file or directory: which path, what went wrong, and the system's reason.
///
/// Thrown by ``AtomicFileWriter`` and ``OutputBundle``. Unlike ``InputError`` it is about where results go, not
/// about what the user gave, so the command line reports it with its own exit status.
public struct OutputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path the user asked to write (a file or a directory).
    public var path: String
    /// What failed, with the system's reason, e.g. `cannot write: No space left on device`.
    public var message: String
    /// The `errno` value behind the failure (`ENOTDIR`, `ENOSPC`, …), 0 when there was none.
    public var code: Int32

    /// Creates an error for `path`.
    public init(path: String, _ message: String, code: Int32 = 0) {
        self.path = path
        self.message = message
        self.code = code
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Writes output files so that a reader never sees a half-written file, even if the process dies mid-write.
///
/// Each file is written to a temporary file in the same directory (`.name.tmp-<pid>-<counter>`), flushed to disk
/// with fsync(2), then renamed over the target with rename(2), which replaces it atomically. On any failure the
/// temporary file is removed and an ``OutputError`` names the path and the system's reason. Used for every CSV,
/// SVG and report the command line writes; ``OutputBundle`` does the same for a set of files.
public enum AtomicFileWriter {
    /// Replaces (or creates) the file at `path` with `bytes`, atomically. The directory must exist.
    ///
    /// A target that is a character device, a pipe or a socket (`/dev/stdout`, `/dev/full`, a FIFO) is written
    /// directly instead: there is nothing to replace atomically, and renaming over it would replace the device.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        if isStream(path) {
            try writeStream(bytes, to: path)
            return
        }
        let temporary = try writeTemporary(bytes, for: path)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputError(path: path, "cannot replace the file: \(reason(code))", code: code)
        }
        syncDirectory(of: path)
    }

    /// Whether `path` exists and is a character device, a FIFO or a socket (symbolic links followed).
    static func isStream(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK
    }

    /// Writes `bytes` to the stream `path` (no temporary, no rename).
    static func writeStream(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw OutputError(path: path, "cannot open for writing: \(reason(code))", code: code)
        }
        var failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == nil, errno != EINVAL { failure = errno }
        if let failure { throw OutputError(path: path, "cannot write: \(reason(failure))", code: failure) }
    }

    /// Creates `path` and any missing parent directories (like `mkdir -p`); an existing directory is fine.
    public static func createDirectory(_ path: String) throws {
        guard !path.isEmpty else { throw OutputError(path: path, "empty directory name", code: ENOENT) }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            if code == EEXIST {
                if InputFile.isDirectory(prefix) { continue }
                throw OutputError(
                    path: path, "cannot create directory: \(prefix) exists and is not a directory",
                    code: ENOTDIR)
            }
            throw OutputError(path: path, "cannot create directory \(prefix): \(reason(code))", code: code)
        }
    }

    /// Writes `bytes` to a new temporary file beside `path`, fsyncs and closes it, and returns its path; on
    /// failure removes it and throws. Shared with ``OutputBundle``.
    static func writeTemporary(_ bytes: [UInt8], for path: String) throws -> String {
        try writeTemporary(for: path) { write in try write(bytes) }
    }

    /// ``writeTemporary(_:for:)`` for a file written in pieces: `produce` is handed a function that writes one
    /// piece (and throws the ``OutputError`` of a failed write).
    static func writeTemporary(
        for path: String, producing produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws -> String {
        let name = InputFile.fileName(of: path)
        if name.isEmpty || name == "." || name == ".." || InputFile.isDirectory(path) {
            throw OutputError(path: path, "is a directory, expected a file name", code: EISDIR)
        }
        let serial = temporaryCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        let temporary = InputFile.resolve(".\(name).tmp-\(getpid())-\(serial)", against: InputFile.directory(of: path))
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw OutputError(path: path, "cannot create a file there: \(reason(code))", code: code)
        }
        var failure: (step: String, code: Int32)?
        do {
            try produce { piece in
                if let code = writeAll(piece, to: descriptor) {
                    throw OutputError(path: path, "cannot write: \(reason(code))", code: code)
                }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        if fsync(descriptor) != 0 {
            failure = ("cannot flush to disk", errno)
        }
        if close(descriptor) != 0, failure == nil { failure = ("cannot write", errno) }
        if let failure {
            unlink(temporary)
            throw OutputError(path: path, "\(failure.step): \(reason(failure.code))", code: failure.code)
        }
        return temporary
    }

    /// Flushes the directory holding `path`, so a completed rename survives a power cut. Best effort.
    static func syncDirectory(of path: String) {
        let descriptor = open(InputFile.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The system's text for `code`.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Writes all of `bytes`, retrying short writes and interruptions; returns `errno` on failure, else `nil`.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if written == 0 { return EIO }
                offset += written
            }
            return nil
        }
    }
}

/// write(2), under a name the ``AtomicFileWriter/write(_:to:)`` method does not shadow.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// Numbers the temporary files of this process, so concurrent writers never pick the same name.
private let temporaryCounter = Atomic<Int>(0)

/// A set of output files written so that either all of them land or none do (for one run's CSV tables).
///
/// ``commit(to:)`` creates the directory if needed, checks that no target is a directory, then writes and fsyncs
/// every file to a temporary beside its target, and only when all of them are safely on disk renames each over its
/// target. A failure while writing (disk full, say) removes all temporaries and leaves every old file untouched.
///
/// The remaining window: the renames are atomic one by one but not as a group. If the process dies between two
/// renames, or a rename fails (which, after the checks above, needs something like a concurrent change to the
/// directory), the files renamed so far are new and the rest still old; the error then lists which files landed.
public struct OutputBundle: Sendable {
    /// A file's contents: its bytes, or a producer that writes them in pieces when the bundle is committed.
    private enum Contents: Sendable {
        case bytes([UInt8])
        case streamed(@Sendable (_ write: ([UInt8]) throws -> Void) throws -> Void)
    }

    private var files: [(name: String, contents: Contents)] = []

    /// An empty bundle.
    public init() {}

    /// The file names added so far, in order.
    public var names: [String] { files.map(\.name) }

    /// The bytes of the file called `name` (a streamed file is produced into memory), or `nil` when none was added.
    public func bytes(named name: String) -> [UInt8]? {
        guard let file = files.first(where: { $0.name == name }) else { return nil }
        switch file.contents {
        case .bytes(let bytes): return bytes
        case .streamed(let produce):
            var bytes: [UInt8] = []
            try? produce { bytes += $0 }
            return bytes
        }
    }

    /// Adds a file called `name` (a plain file name, no `/`); adding a name again replaces its bytes.
    public mutating func add(name: String, bytes: [UInt8]) {
        add(name: name, .bytes(bytes))
    }

    /// Adds a file called `name` whose bytes `produce` writes in pieces, straight to the file's temporary when the
    /// bundle is committed, so a long table is never held whole. `produce` passes each piece to `write` and
    /// rethrows its errors.
    public mutating func add(
        name: String, streaming produce: @escaping @Sendable (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) {
        add(name: name, .streamed(produce))
    }

    private mutating func add(name: String, _ contents: Contents) {
        precondition(
            !name.isEmpty && name != "." && name != ".." && !name.contains("/"),
            "output file name '\(name)' must be a plain file name")
        if let index = files.firstIndex(where: { $0.name == name }) {
            files[index].contents = contents
        } else {
            files.append((name, contents))
        }
    }

    /// Writes every file into `directory` (created if missing), all or nothing as described above.
    public func commit(to directory: String) throws {
        try AtomicFileWriter.createDirectory(directory)
        let targets = files.map { InputFile.resolve($0.name, against: directory) }
        for target in targets where InputFile.isDirectory(target) {
            throw OutputError(path: target, "is a directory, expected a file name", code: EISDIR)
        }
        var temporaries: [String] = []
        do {
            for (file, target) in zip(files, targets) {
                switch file.contents {
                case .bytes(let bytes):
                    temporaries.append(try AtomicFileWriter.writeTemporary(bytes, for: target))
                case .streamed(let produce):
                    temporaries.append(try AtomicFileWriter.writeTemporary(for: target, producing: produce))
                }
            }
        } catch {
            for temporary in temporaries { unlink(temporary) }
            throw error
        }
        for index in targets.indices {
            guard rename(temporaries[index], targets[index]) != 0 else { continue }
            let code = errno
            for temporary in temporaries[index...] { unlink(temporary) }
            let landed = index == 0 ? "none" : files[..<index].map(\.name).joined(separator: ", ")
            throw OutputError(
                path: targets[index],
                "cannot replace the file: \(AtomicFileWriter.reason(code)); already replaced: \(landed)", code: code)
        }
        if let first = targets.first { AtomicFileWriter.syncDirectory(of: first) }
    }
}
