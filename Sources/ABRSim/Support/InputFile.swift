import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening and reading the files a user names (scenarios, traces, content), with errors that say which file
/// and why (missing, a directory, unreadable, too large) instead of a crash.
///
/// Readers that can work line by line use ``LineReader`` so a huge file is never held in memory at once;
/// JSON documents are read whole through ``readAll(_:limitBytes:)`` with a size limit.
///
/// An input that is not a regular file (a pipe such as `/dev/stdin`, a FIFO, process substitution's `/dev/fd/N`, a
/// character device) can be read only once, yet a trace is read twice (its format is detected first) and a
/// scenario is read by the loader and fingerprinted by the output manifest. Such an input is therefore read
/// exactly once, to its end, the first time any reader opens it, and kept in memory (at most
/// ``streamLimitBytes``) for every later reader in the process, keyed by its device and inode.
public enum InputFile {
    /// The default largest file read whole: 256 MiB.
    public static let defaultLimitBytes = 256 << 20

    /// Checks that `path` names a readable regular file, throwing an ``InputError`` naming it otherwise.
    public static func checkReadable(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw InputError(.file(path), .unreadable(errno == ENOENT ? "no such file" : "cannot open: \(errnoText())"))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError(.file(path), .unreadable("is a directory, expected a file"))
        }
        guard access(path, R_OK) == 0 else { throw InputError(.file(path), .unreadable("cannot read: \(errnoText())")) }
    }

    /// The size of the file in bytes (for a pipe or FIFO: of what it held, read once; see ``streamBytes(_:)``).
    public static func size(_ path: String) throws -> Int {
        try checkReadable(path)
        if let bytes = try streamBytes(path) { return bytes.count }
        var info = stat()
        guard stat(path, &info) == 0 else { throw InputError(.file(path), .unreadable("cannot open: \(errnoText())")) }
        return Int(info.st_size)
    }

    /// The most bytes read from one pipe, FIFO or device (256 MiB); a longer stream is an error naming the limit.
    public static let streamLimitBytes = 256 << 20

    /// Reads the whole file, refusing (with a clear error) one larger than `limitBytes`.
    public static func readAll(_ path: String, limitBytes: Int = defaultLimitBytes) throws -> [UInt8] {
        if let bytes = try streamBytes(path) {
            if bytes.count > limitBytes {
                throw InputError(
                    .file(path),
                    .overLimit("input of \(bytes.count) bytes", limit: "\(limitBytes) bytes for this kind of input"))
            }
            return bytes
        }
        let byteCount = try size(path)
        if byteCount > limitBytes {
            throw InputError(
                .file(path),
                .overLimit("a file of \(byteCount) bytes", limit: "\(limitBytes) bytes for this kind of input"))
        }
        guard let handle = fopen(path, "rb") else {
            throw InputError(.file(path), .unreadable("cannot open: \(errnoText())"))
        }
        defer { fclose(handle) }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var total = 0
        while total < byteCount {
            let read = bytes.withUnsafeMutableBytes { buffer in
                fread(buffer.baseAddress! + total, 1, byteCount - total, handle)
            }
            if read == 0 { break }
            total += read
        }
        if total < byteCount { bytes.removeLast(byteCount - total) }
        if ferror(handle) != 0 { throw InputError(.file(path), .unreadable("read error: \(errnoText())")) }
        return bytes
    }

    /// Whether `path` names an existing directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Resolves `path` against `directory` unless it is absolute (scenario paths are relative to the scenario).
    public static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// The folder part of a path (`"."` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// The bytes of `path` when it is not a regular file or a folder (a pipe, FIFO, socket or device): read to
    /// its end once, the first time it is asked for, and kept for every later call; `nil` for a regular file.
    public static func streamBytes(_ path: String) throws -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind != S_IFREG, kind != S_IFDIR else { return nil }
        let key = StreamKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return try streams.withLock { cache -> [UInt8] in
            if let bytes = cache[key] { return bytes }
            let bytes = try readStream(path)
            cache[key] = bytes
            return bytes
        }
    }

    /// Reads a stream to its end, refusing one longer than ``streamLimitBytes``.
    private static func readStream(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(.file(path), .unreadable("cannot open: \(errnoText())")) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError(.file(path), .unreadable("read error: \(errnoText())"))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= streamLimitBytes else {
                throw InputError(
                    .file(path),
                    .overLimit(
                        "a pipe or device input (held in memory) of \(bytes.count + count) bytes so far",
                        limit: "\(streamLimitBytes) bytes"))
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// A stream's identity: the same pipe under `/dev/stdin` and `/proc/self/fd/0` is one input.
    private struct StreamKey: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The streams read so far.
    private static let streams = Mutex<[StreamKey: [UInt8]]>([:])
}

/// Reads a text file one line at a time through a fixed-size buffer, so files of any size stream through.
///
/// Lines end at `\n`; a trailing `\r` (CRLF files) is removed. A UTF-8 byte-order mark at the start is
/// skipped. Line numbers are 1-based, for error messages.
public final class LineReader {
    /// The open file; `nil` for a stream held in memory (then `buffer` holds all of it).
    private let handle: UnsafeMutablePointer<FILE>?
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// The path, for error messages.
    public let path: String
    /// The number of the line most recently returned (1-based; 0 before the first).
    public private(set) var lineNumber = 0

    /// Opens `path` for reading, throwing an ``InputError`` naming it if that is not possible.
    public init(path: String, bufferBytes: Int = 1 << 16) throws {
        try InputFile.checkReadable(path)
        self.path = path
        if let bytes = try InputFile.streamBytes(path) {
            handle = nil
            buffer = bytes
            end = bytes.count
            atEOF = true
            return
        }
        guard let handle = fopen(path, "rb") else {
            throw InputError(.file(path), .unreadable("cannot open: \(InputFile.errnoText())"))
        }
        self.handle = handle
        // Not zeroed (64 KiB per file was 7 % of reading Pensieve's 142 short traces): only bytes `fread` wrote,
        // `buffer[start..<end]`, are ever read.
        buffer = [UInt8](unsafeUninitializedCapacity: bufferBytes) { _, count in count = bufferBytes }
    }

    deinit { if let handle { fclose(handle) } }

    /// The next line's bytes (without the line end), or `nil` at the end of the file. A line longer than
    /// `maxLineBytes` is an error, so a file without line ends cannot exhaust memory.
    public func nextLine(maxLineBytes: Int = 1 << 20) throws -> ArraySlice<UInt8>? {
        var carried: [UInt8] = []
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let line: ArraySlice<UInt8>
                if carried.isEmpty {
                    line = buffer[start..<newline]
                } else {
                    carried.append(contentsOf: buffer[start..<newline])
                    line = carried[...]
                }
                start = newline + 1
                return finish(line)
            }
            carried.append(contentsOf: buffer[start..<end])
            if carried.count > maxLineBytes {
                throw InputError(
                    .line(path, lineNumber + 1),
                    .overLimit("a line of at least \(carried.count) bytes", limit: "\(maxLineBytes) bytes"))
            }
            start = 0
            end = 0
            guard let handle, !atEOF else {
                if carried.isEmpty { return nil }
                return finish(carried[...])
            }
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, handle) }
            if read == 0 {
                if ferror(handle) != 0 {
                    throw InputError(.file(path), .unreadable("read error: \(InputFile.errnoText())"))
                }
                atEOF = true
            }
            end = read
        }
    }

    /// The next line's bytes exactly as ``nextLine(maxLineBytes:)`` gives them, handed to `body` in place when the
    /// whole line is in the read buffer (no slice, no copy), else through ``nextLine(maxLineBytes:)``; `nil` at the
    /// end of the file. For readers of many short lines; `body` must not read from this reader.
    public func withNextLine<Result>(
        maxLineBytes: Int = 1 << 20, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result? {
        let found: Result?? = try buffer.withUnsafeBufferPointer { all -> Result?? in
            guard start < end, let base = all.baseAddress,
                let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start)
            else { return .none }
            let newline = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            let text = counted(start..<newline, in: all)
            start = newline + 1
            return .some(try body(UnsafeBufferPointer(rebasing: all[text])))
        }
        if let found { return found }
        guard let line = try nextLine(maxLineBytes: maxLineBytes) else { return nil }
        return try line.withUnsafeBufferPointer(body)
    }

    /// The next line as a `String` (invalid UTF-8 is an error naming the line).
    public func nextString(maxLineBytes: Int = 1 << 20) throws -> String? {
        guard let bytes = try nextLine(maxLineBytes: maxLineBytes) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(.line(path, lineNumber), .expected("UTF-8 text", found: "bytes that are not UTF-8"))
        }
        return text
    }

    /// `line` counted and trimmed as ``counted(_:in:)`` trims it.
    private func finish(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let text = line.withUnsafeBufferPointer { counted(0..<$0.count, in: $0) }
        return line[(line.startIndex + text.lowerBound)..<(line.startIndex + text.upperBound)]
    }

    /// Counts the line at `range` of `bytes` (without its line end) and returns the range of its text: without a
    /// UTF-8 byte-order mark at the start of the file's first line, and without a trailing `\r` (CRLF files).
    private func counted(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        lineNumber += 1
        var lower = range.lowerBound
        var upper = range.upperBound
        if lineNumber == 1, upper - lower >= 3, bytes[lower] == 0xEF, bytes[lower + 1] == 0xBB, bytes[lower + 2] == 0xBF
        {
            lower += 3
        }
        if upper > lower, bytes[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        return lower..<upper
    }
}
