#if canImport(Glibc)
    import Glibc
#endif

/// An output file that grows by appending whole batches, flushed to disk with fsync(2) before a batch counts as
/// committed, and cut back to its last committed length on resume. Used by ``SweepStore`` and ``SweepMerge``
/// for tables too big to build in memory. Errors are ``OutputError``s naming the path.
final class AppendFile {
    /// The file's path.
    let path: String
    /// Bytes in the file so far.
    private(set) var length: Int
    private var descriptor: Int32

    /// Opens (creating if needed) `path`, cut to `length` bytes (0: emptied).
    init(path: String, truncatingTo length: Int) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(path: path, "cannot open for writing: \(AtomicFileWriter.reason(errno))", code: errno)
        }
        self.length = length
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw OutputError(
                path: path, "cannot cut back to \(length) bytes: \(AtomicFileWriter.reason(code))", code: code)
        }
    }

    deinit { close() }

    /// Appends `bytes` (one write(2) call unless the kernel writes less).
    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    /// Appends the bytes in `buffer`.
    func append(_ buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: path, "cannot write: \(AtomicFileWriter.reason(errno))", code: errno)
            }
            if written == 0 { throw OutputError(path: path, "cannot write: no progress", code: EIO) }
            offset += written
        }
        length += buffer.count
    }

    /// Flushes everything appended so far to disk.
    func sync() throws {
        guard fsync(descriptor) == 0 else {
            throw OutputError(path: path, "cannot flush to disk: \(AtomicFileWriter.reason(errno))", code: errno)
        }
    }

    /// Cuts the file back to `length` bytes (dropping an uncommitted tail).
    func truncate(to length: Int) throws {
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw OutputError(path: path, "cannot cut back: \(AtomicFileWriter.reason(errno))", code: errno)
        }
        self.length = length
    }

    /// Closes the file; further use is a programming error.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

/// Reads a file front to back in exact byte counts, to copy ranges of it into an ``AppendFile`` without holding
/// the file in memory. Used by ``SweepMerge``.
final class SequentialFileReader {
    /// The file's path.
    let path: String
    private var descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// Opens `path` for reading.
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError(.file(path), .unreadable("cannot open: \(AtomicFileWriter.reason(errno))"))
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Copies the next `count` bytes to `output`; the file ending first is an ``InputError``.
    func copy(_ count: Int, to output: AppendFile) throws {
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, buffer.count)
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, chunk) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                throw InputError(
                    .file(path), .damaged("ends early, \(remaining) bytes missing (was the sweep complete?)"))
            }
            try buffer.withUnsafeBytes { try output.append(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            remaining -= got
        }
    }

    /// Skips the next `count` bytes (a header already written).
    func skip(_ count: Int) throws {
        guard lseek(descriptor, off_t(count), SEEK_CUR) >= 0 else {
            throw InputError(.file(path), .unreadable("cannot seek: \(AtomicFileWriter.reason(errno))"))
        }
    }
}
