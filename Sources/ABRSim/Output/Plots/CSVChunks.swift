#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A CSV file read in chunks of rows, each parsed by ``CSVTable/parse(_:file:)`` together with the file's header,
/// so that a large table (a day's `timeline.csv` has over a million rows) is never held whole, neither as bytes
/// nor as a table of strings: the file is read a piece at a time and only one chunk's bytes and fields are in
/// memory at once (so, unlike ``InputFile/readAll(_:limitBytes:)``, no size limit is needed).
///
/// The chunks together hold exactly the rows ``CSVTable/parse(_:file:)`` gives for the whole file, and a problem
/// is reported with the same message at the line of the whole file. Used by ``RunPlotData/load(directory:)``.
struct CSVChunks {
    /// The file's path, for error messages.
    let file: String
    /// Data rows per chunk (the last chunk may have fewer).
    var rowsPerChunk = 50_000
    /// Bytes read from the file at a time.
    var pieceBytes = 1 << 20

    /// Reads `file` and calls `body` with each chunk in order (a table with the header's columns; its
    /// `firstRow` is the index of its first data row in the whole file). A file without data rows gives one
    /// empty chunk.
    func forEach(_ body: (NamedTable) throws -> Void) throws {
        let reader = try CSVChunkReader(file: file, rowsPerChunk: rowsPerChunk, pieceBytes: pieceBytes)
        while let chunk = try reader.next() { try body(chunk) }
    }

    /// `line N` of a chunk's text (the header's `headerLines` lines, then the chunk's, which start after
    /// `linesBefore` lines of the file) as the line of the whole file; any other location unchanged.
    static func shifted(_ location: String?, headerLines: Int, linesBefore: Int) -> String? {
        guard let location, location.hasPrefix("line "), let line = Int(location.dropFirst(5)), line > headerLines
        else { return location }
        return "line \(line - headerLines + linesBefore)"
    }
}

/// The chunks of ``CSVChunks`` one at a time, on demand (so that two files, or two places of one file, can be
/// read side by side), with the byte offset where each chunk begins; a reader can start at such an offset (its
/// chunks then count their rows and lines from there).
final class CSVChunkReader {
    /// The file's path, for error messages.
    let file: String
    let rowsPerChunk: Int
    private let handle: UnsafeMutablePointer<FILE>
    private var scanner = RecordScanner()
    private var header: (bytes: [UInt8], lines: Int)?
    private var firstRow = 0
    private var linesBefore = 0
    private var emitted = false
    private var atEnd = false
    private var finished = false
    private var piece: [UInt8]
    private let start: Int?
    /// Bytes of the file before the first byte of ``scanner``'s pending bytes.
    private var consumed = 0
    /// Offset in the file of the first byte of the chunk ``next()`` returned last.
    private(set) var chunkOffset = 0

    /// A reader of `file` from its first data row, or from byte `offset` (a ``chunkOffset`` of an earlier reader).
    init(file: String, rowsPerChunk: Int = 50_000, pieceBytes: Int = 1 << 20, startingAt offset: Int? = nil) throws {
        self.file = file
        self.rowsPerChunk = max(rowsPerChunk, 1)
        try InputFile.checkReadable(file)
        guard let handle = fopen(file, "rb") else {
            throw InputError(.file(file), .unreadable("cannot open: \(InputFile.errnoText())"))
        }
        self.handle = handle
        piece = [UInt8](repeating: 0, count: max(pieceBytes, 1))
        start = offset
    }

    deinit { fclose(handle) }

    /// The next chunk, or `nil` after the last.
    func next() throws -> NamedTable? {
        guard !finished else { return nil }
        while true {
            let wanted = header == nil ? 1 : rowsPerChunk
            if let cut = scanner.scan(records: wanted) {
                if header == nil {
                    header = (Array(scanner.pending[0..<cut.end]), cut.lines)
                    linesBefore = cut.lines
                    scanner.drop(cut)
                    consumed = cut.end
                    if let start, start != consumed { try seek(to: start) }
                    continue
                }
                defer {
                    scanner.drop(cut)
                    consumed += cut.end
                }
                return try emit(cut.end, lines: cut.lines)
            }
            if atEnd { break }
            let read = fread(&piece, 1, piece.count, handle)
            if ferror(handle) != 0 {
                throw InputError(.file(file), .unreadable("read error: \(InputFile.errnoText())"))
            }
            scanner.pending.append(contentsOf: piece[0..<read])
            atEnd = read == 0
        }
        finished = true
        // The rest: rows without a final line end, or (for a file of one line) the header itself.
        if header == nil {
            header = (scanner.pending, 0)
            scanner.pending = []
        }
        if !scanner.pending.isEmpty || !emitted { return try emit(scanner.pending.count, lines: 0) }
        return nil
    }

    /// Continues at byte `offset` of the file (after the header), dropping what was read beyond the header.
    private func seek(to offset: Int) throws {
        guard fseeko(handle, off_t(offset), SEEK_SET) == 0 else {
            throw InputError(.file(file), .unreadable("cannot seek: \(InputFile.errnoText())"))
        }
        scanner = RecordScanner()
        consumed = offset
        atEnd = false
    }

    private func emit(_ count: Int, lines: Int) throws -> NamedTable {
        let head = header ?? (bytes: [], lines: 0)
        var text = head.bytes
        text.append(contentsOf: scanner.pending[0..<count])
        let table: CSVTable
        do {
            table = try CSVTable.parse(text, file: file)
        } catch var error as InputError {
            error.location = CSVChunks.shifted(error.location, headerLines: head.lines, linesBefore: linesBefore)
            throw error
        }
        chunkOffset = consumed
        let chunk = NamedTable(file: file, table: table, firstRow: firstRow)
        firstRow += table.rows.count
        linesBefore += lines
        emitted = true
        return chunk
    }
}

/// Finds record ends in CSV bytes read so far (a line feed outside double quotes ends a record), remembering how
/// far it has looked, so that each byte is scanned once.
private struct RecordScanner {
    /// Bytes read and not yet handed out.
    var pending: [UInt8] = []
    private var scanned = 0
    private var quoted = false
    private var lines = 0
    private var records = 0
    private var lastEnd = 0
    private var linesAtLastEnd = 0

    /// Where the first `count` records of `pending` end (just after the line feed) and how many line feeds they
    /// hold, or `nil` when `pending` does not hold that many yet.
    mutating func scan(records count: Int) -> (end: Int, lines: Int)? {
        while records < count, scanned < pending.count {
            let byte = pending[scanned]
            scanned += 1
            if byte == 0x22 {
                quoted.toggle()
            } else if byte == 0x0A {
                lines += 1
                if !quoted {
                    records += 1
                    lastEnd = scanned
                    linesAtLastEnd = lines
                }
            }
        }
        return records >= count ? (lastEnd, linesAtLastEnd) : nil
    }

    /// Removes the records up to `cut` (a result of ``scan(records:)``) from `pending`.
    mutating func drop(_ cut: (end: Int, lines: Int)) {
        pending.removeFirst(cut.end)
        scanned -= cut.end
        lines -= cut.lines
        records = 0
        lastEnd = 0
        linesAtLastEnd = 0
    }
}
