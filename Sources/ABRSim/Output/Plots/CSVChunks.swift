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
        try InputFile.checkReadable(file)
        guard let handle = fopen(file, "rb") else {
            throw InputError(.file(file), .unreadable("cannot open: \(InputFile.errnoText())"))
        }
        defer { fclose(handle) }
        var scanner = RecordScanner()
        var header: (bytes: [UInt8], lines: Int)?
        var firstRow = 0
        var linesBefore = 0
        var emitted = false
        var atEnd = false
        var piece = [UInt8](repeating: 0, count: max(pieceBytes, 1))
        func emit(_ count: Int, lines: Int) throws {
            let head = header ?? (bytes: [], lines: 0)
            var text = head.bytes
            text.append(contentsOf: scanner.pending[0..<count])
            let table: CSVTable
            do {
                table = try CSVTable.parse(text, file: file)
            } catch var error as InputError {
                error.location = Self.shifted(error.location, headerLines: head.lines, linesBefore: linesBefore)
                throw error
            }
            try body(NamedTable(file: file, table: table, firstRow: firstRow))
            firstRow += table.rows.count
            linesBefore += lines
            emitted = true
        }
        while true {
            let wanted = header == nil ? 1 : max(rowsPerChunk, 1)
            if let cut = scanner.scan(records: wanted) {
                if header == nil {
                    header = (Array(scanner.pending[0..<cut.end]), cut.lines)
                    linesBefore = cut.lines
                } else {
                    try emit(cut.end, lines: cut.lines)
                }
                scanner.drop(cut)
                continue
            }
            if atEnd { break }
            let read = fread(&piece, 1, piece.count, handle)
            if ferror(handle) != 0 {
                throw InputError(.file(file), .unreadable("read error: \(InputFile.errnoText())"))
            }
            scanner.pending.append(contentsOf: piece[0..<read])
            atEnd = read == 0
        }
        // The rest: rows without a final line end, or (for a file of one line) the header itself.
        if header == nil {
            header = (scanner.pending, 0)
            scanner.pending = []
        }
        if !scanner.pending.isEmpty || !emitted { try emit(scanner.pending.count, lines: 0) }
    }

    /// `line N` of a chunk's text (the header's `headerLines` lines, then the chunk's, which start after
    /// `linesBefore` lines of the file) as the line of the whole file; any other location unchanged.
    static func shifted(_ location: String?, headerLines: Int, linesBefore: Int) -> String? {
        guard let location, location.hasPrefix("line "), let line = Int(location.dropFirst(5)), line > headerLines
        else { return location }
        return "line \(line - headerLines + linesBefore)"
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
