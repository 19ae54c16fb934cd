import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh, empty directory under /tmp for one test, removed (with its files) by ``remove()``.
private struct ScratchDirectory {
    let path: String

    init() {
        var template = Array("/tmp/abrsim-atomic-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, sorted, without `.` and `..`.
    func listing(_ directory: String? = nil) -> [String] {
        guard let handle = opendir(directory ?? path) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func remove() { _ = system("rm -rf '\(path)'") }
}

private func contents(_ path: String) throws -> String {
    String(decoding: try InputFile.readAll(path), as: UTF8.self)
}

@Suite("atomic file writes")
struct AtomicFileWriterTests {
    @Test("an atomic write creates a file, replaces an existing one and leaves no temporary")
    func writeCreatesAFileAndReplacesAnExistingOne() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let target = scratch.file("summary.csv")
        try AtomicFileWriter.write(Array("old\n".utf8), to: target)
        #expect(try contents(target) == "old\n")
        try AtomicFileWriter.write(Array("new, longer\n".utf8), to: target)
        #expect(try contents(target) == "new, longer\n")
        #expect(scratch.listing() == ["summary.csv"])
    }

    @Test("an atomic write of no bytes leaves an empty file")
    func anEmptyFileCanBeWritten() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write([], to: scratch.file("empty"))
        #expect(try InputFile.size(scratch.file("empty")) == 0)
    }

    @Test("writing under a regular file fails with not-a-directory, naming the path, and writes nothing")
    func aPathUnderARegularFileFailsWithNotADirectory() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write(Array("x".utf8), to: scratch.file("plain"))
        let target = scratch.file("plain/out.csv")
        let error = #expect(throws: OutputError.self) { try AtomicFileWriter.write([1, 2], to: target) }
        #expect(error?.path == target)
        #expect(error?.code == ENOTDIR)
        #expect(error?.description == "\(target): cannot create a file there: Not a directory")
        #expect(scratch.listing() == ["plain"])
    }

    @Test("writing into a missing folder fails with no-such-file, naming the path")
    func aMissingParentDirectoryFailsClearly() {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let target = scratch.file("missing/out.csv")
        let error = #expect(throws: OutputError.self) { try AtomicFileWriter.write([1], to: target) }
        #expect(error?.code == ENOENT)
        #expect(error?.description == "\(target): cannot create a file there: No such file or directory")
    }

    @Test("a directory is never replaced by a file of the same name")
    func aDirectoryIsNotReplacedByAFile() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.createDirectory(scratch.file("results"))
        let error = #expect(throws: OutputError.self) { try AtomicFileWriter.write([1], to: scratch.file("results")) }
        #expect(error?.code == EISDIR)
        #expect(error?.message == "is a directory, expected a file name")
        #expect(scratch.listing() == ["results"])
    }

    @Test("creating a folder makes its parents, tolerates doubled slashes and accepts an existing one")
    func createDirectoryMakesParentsAndAcceptsExistingOnes() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.createDirectory(scratch.file("a/b//c/"))
        try AtomicFileWriter.createDirectory(scratch.file("a/b"))
        #expect(InputFile.isDirectory(scratch.file("a/b/c")))
    }

    @Test("creating a folder under a regular file fails with not-a-directory, naming the path")
    func createDirectoryRefusesToGoThroughAFile() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write([0], to: scratch.file("f"))
        let path = scratch.file("f/sub")
        let error = #expect(throws: OutputError.self) { try AtomicFileWriter.createDirectory(path) }
        #expect(error?.code == ENOTDIR)
        #expect(error?.path == path)
    }
}

@Suite("output bundles")
struct OutputBundleTests {
    @Test("committing a bundle creates the folder and writes each file once, the last content added winning")
    func commitWritesEveryFileAndCreatesTheDirectory() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var bundle = OutputBundle()
        bundle.add(name: "segments.csv", bytes: Array("s\n".utf8))
        bundle.add(name: "summary.csv", bytes: Array("first\n".utf8))
        bundle.add(name: "summary.csv", bytes: Array("second\n".utf8))
        #expect(bundle.names == ["segments.csv", "summary.csv"])
        let directory = scratch.file("run/1")
        try bundle.commit(to: directory)
        #expect(scratch.listing(directory) == ["segments.csv", "summary.csv"])
        #expect(try contents(directory + "/summary.csv") == "second\n")
    }

    @Test("when one file of a bundle cannot be written every old file stays and no temporary is left")
    func aFailingFileLeavesEveryOldFileAndNoTemporaries() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write(Array("old a".utf8), to: scratch.file("a.csv"))
        try AtomicFileWriter.createDirectory(scratch.file("b.csv"))  // a directory where a file should go
        var bundle = OutputBundle()
        bundle.add(name: "a.csv", bytes: Array("new a".utf8))
        bundle.add(name: "b.csv", bytes: Array("new b".utf8))
        let error = #expect(throws: OutputError.self) { try bundle.commit(to: scratch.path) }
        #expect(error?.code == EISDIR)
        #expect(try contents(scratch.file("a.csv")) == "old a")
        #expect(scratch.listing() == ["a.csv", "b.csv"])
    }

    @Test("when a later file's temporary cannot be created the earlier temporaries are removed and old files stay")
    func aFileThatCannotBeWrittenRemovesTheOthersTemporaries() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write(Array("old a".utf8), to: scratch.file("a.csv"))
        // 250 characters is a legal file name, but its temporary (`.<name>.tmp-<pid>-<n>`) is too long to create,
        // so the failure comes after a.csv's temporary has been written.
        let long = String(repeating: "x", count: 250)
        var bundle = OutputBundle()
        bundle.add(name: "a.csv", bytes: Array("new a".utf8))
        bundle.add(name: long, bytes: [1])
        let error = #expect(throws: OutputError.self) { try bundle.commit(to: scratch.path) }
        #expect(error?.code == ENAMETOOLONG)
        #expect(try contents(scratch.file("a.csv")) == "old a")
        #expect(scratch.listing() == ["a.csv"])
    }

    @Test("a bundle aimed under a regular file fails with not-a-directory and writes nothing")
    func anUnwritableDirectoryWritesNothing() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        try AtomicFileWriter.write([0], to: scratch.file("file"))
        var bundle = OutputBundle()
        bundle.add(name: "a.csv", bytes: [1])
        let error = #expect(throws: OutputError.self) { try bundle.commit(to: scratch.file("file/out")) }
        #expect(error?.code == ENOTDIR)
        #expect(scratch.listing() == ["file"])
    }
}

/// Tables written in pieces (``CSVWriter/drain(every:into:)``, ``OutputBundle/add(name:streaming:)``): the same
/// bytes as a table held whole, and a failed piece stops the commit with nothing landed.
struct StreamedTableTests {
    func table(rows: Int, drainEvery: Int?) -> (bytes: [UInt8], pieces: Int) {
        var pieces: [[UInt8]] = []
        var writer = CSVWriter(columns: ["t_s", "name", "ok"])
        let drain = CSVDrain { pieces.append($0) }
        if let drainEvery { writer.drain(every: drainEvery, into: drain) }
        for row in 0..<rows {
            writer.beginRow()
            writer.append(Double(row) / 7)
            writer.append("row \(row), quoted")
            writer.append(row % 2 == 0)
            writer.endRow()
        }
        pieces.append(writer.takeBytes())
        return (pieces.flatMap { $0 }, pieces.count)
    }

    @Test("a 5,000-row table drained every 4 KiB comes out in over 30 pieces whose bytes are the whole table")
    func drainedRowsAreTheWholeTable() {
        let whole = table(rows: 5_000, drainEvery: nil)
        let drained = table(rows: 5_000, drainEvery: 4096)
        #expect(whole.pieces == 1)
        #expect(drained.pieces > 30)
        #expect(drained.bytes == whole.bytes)
    }

    @Test("a streamed file lands beside a whole one with exactly the three pieces its producer wrote")
    func aStreamedFileLandsWithTheBytesItsProducerWrote() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var bundle = OutputBundle()
        bundle.add(name: "a.csv", bytes: Array("x\n1\n".utf8))
        bundle.add(name: "b.csv") { write in
            for piece in ["y\n", "2\n", "3\n"] { try write(Array(piece.utf8)) }
        }
        #expect(bundle.bytes(named: "b.csv") == Array("y\n2\n3\n".utf8))
        try bundle.commit(to: scratch.path)
        #expect(try contents(scratch.file("b.csv")) == "y\n2\n3\n")
        #expect(scratch.listing() == ["a.csv", "b.csv"])
    }

    @Test("a producer that throws after its first piece leaves no file of the bundle and no temporary behind")
    func aProducerErrorLeavesNoFileAndNoTemporary() {
        struct Refused: Error {}
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var bundle = OutputBundle()
        bundle.add(name: "a.csv", bytes: Array("x\n".utf8))
        bundle.add(name: "b.csv") { write in
            try write(Array("y\n".utf8))
            throw Refused()
        }
        #expect(throws: Refused.self) { try bundle.commit(to: scratch.path) }
        #expect(scratch.listing().isEmpty)
    }

    @Test("a run's segments.csv streamed in 64-byte pieces equals the table written whole")
    func aRunsStreamedTablesEqualTheTablesWrittenWhole() throws {
        let records = (0..<3).map { segment in
            SegmentRecord(
                player: 0, segment: segment, variant: segment % 2, bitrateBps: 750_000, durationSeconds: 4,
                bytes: 375_000, requestTime: Double(segment) * 4, firstByteTime: Double(segment) * 4 + 0.08,
                doneTime: Double(segment) * 4 + 1.3, throughputBps: 2.5e6, bufferBeforeSeconds: 1,
                bufferAfterSeconds: 5, stallSeconds: 0)
        }
        let summary = SessionSummary(
            segments: records, totals: PlayerTotals(), ladderBps: [300_000, 750_000], qoe: QoESettings())
        let report = RunReport(
            scenario: "s", trace: "t", endTime: 12,
            players: [
                RunReport.PlayerReport(id: "p", policy: "bba", segments: records, timeline: [], summary: summary)
            ])
        var whole = RunTables.segments.writer()
        RunTables.appendSegments(report, to: &whole)
        let bundle = RunTables.bundle(for: report, pieceBytes: 64)
        #expect(bundle.bytes(named: "segments.csv") == whole.takeBytes())
    }
}
