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
        try nextChunk { records, lines in try table(records, lines: lines) }
    }

    /// The next chunk as ``CSVFields`` (each field located in the chunk's bytes, none made into text), or `nil`
    /// after the last. A chunk ``CSVTable/parse(_:file:)`` would refuse is an error, not always the same one.
    func nextFields() throws -> CSVFields? {
        wantsColumns = true
        return try nextChunk { records, _ in
            guard let columns else { return CSVFields(bytes: [], columns: []) }
            return try CSVFields(bytes: Array(records), columns: columns, file: file)
        }
    }

    /// The header's column names, once ``nextFields()`` has read the header.
    private(set) var columns: [String]?
    private var wantsColumns = false

    /// The next chunk made by `make` from its records' bytes and line count, or `nil` after the last.
    private func nextChunk<Chunk>(_ make: (ArraySlice<UInt8>, Int) throws -> Chunk) throws -> Chunk? {
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
                    if columns == nil, wantsColumns { columns = try CSVTable.parse(header!.bytes, file: file).columns }
                    continue
                }
                defer {
                    scanner.drop(cut)
                    consumed += cut.end
                }
                chunkOffset = consumed
                let chunk = try make(scanner.pending[0..<cut.end], cut.lines)
                emitted = true
                return chunk
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
        guard !scanner.pending.isEmpty || !emitted else { return nil }
        chunkOffset = consumed
        emitted = true
        return try make(scanner.pending[...], 0)
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

    /// `records` (a chunk, `lines` lines) parsed with the header, errors at the lines of the whole file.
    private func table(_ records: ArraySlice<UInt8>, lines: Int) throws -> NamedTable {
        let head = header ?? (bytes: [], lines: 0)
        var text = head.bytes
        text.append(contentsOf: records)
        let table: CSVTable
        do {
            table = try CSVTable.parse(text, file: file)
        } catch var error as InputError {
            error.location = CSVChunks.shifted(error.location, headerLines: head.lines, linesBefore: linesBefore)
            throw error
        }
        let chunk = NamedTable(file: file, table: table, firstRow: firstRow)
        firstRow += table.rows.count
        linesBefore += lines
        return chunk
    }
}

/// The records of a chunk of CSV with each field located in its bytes (``CSVChunkReader/nextFields()``), so that
/// only the fields read become text: what ``CSVTable/parse(_:file:)`` gives for the same bytes, field for field
/// (quotes removed, `""` for a quote, a CR before a line end dropped), for bytes it accepts; the bytes it refuses
/// (a quote inside an unquoted field, text after a closing quote, an open quote, a row with another number of
/// fields than the header, bytes that are not UTF-8) are refused too.
struct CSVFields {
    /// The header's column names.
    let columns: [String]
    private let bytes: [UInt8]
    /// Per row, per field: where it starts and ends in ``bytes``, and whether it was quoted.
    private var starts: [Int32] = []
    private var ends: [Int32] = []
    private var quoted: [Bool] = []
    /// Rows.
    private(set) var count = 0

    /// No rows.
    init(bytes: [UInt8], columns: [String]) {
        self.bytes = bytes
        self.columns = columns
    }

    /// The fields of `bytes` (whole records) under a header of `columns`; `file` names it in errors.
    init(bytes: [UInt8], columns: [String], file: String) throws {
        self.bytes = bytes
        self.columns = columns
        let width = columns.count
        let refused = { InputError(.file(file), .expected("CSV as a run writes it", found: "other text")) }
        if bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) == nil { throw refused() }
        starts.reserveCapacity(bytes.count / 8)
        ends.reserveCapacity(bytes.count / 8)
        quoted.reserveCapacity(bytes.count / 8)
        let end = bytes.count
        var position = 0
        try bytes.withUnsafeBufferPointer { bytes in
            while position < end {
                var fields = 0
                while true {
                    fields += 1
                    if bytes[position] == 0x22 {
                        // Quoted: up to the closing quote (a doubled quote is a quote).
                        position += 1
                        let first = position
                        while true {
                            guard position < end else { throw refused() }
                            if bytes[position] == 0x22 {
                                if position + 1 < end, bytes[position + 1] == 0x22 {
                                    position += 2
                                    continue
                                }
                                break
                            }
                            position += 1
                        }
                        starts.append(Int32(first))
                        ends.append(Int32(position))
                        quoted.append(true)
                        position += 1
                        if position < end, bytes[position] == 0x0D, position + 1 < end, bytes[position + 1] == 0x0A {
                            position += 1
                        }
                        if position < end, bytes[position] != 0x2C, bytes[position] != 0x0A { throw refused() }
                    } else {
                        let first = position
                        while position < end, bytes[position] != 0x2C, bytes[position] != 0x0A {
                            if bytes[position] == 0x22 { throw refused() }
                            position += 1
                        }
                        var last = position
                        if last > first, bytes[last - 1] == 0x0D, position == end || bytes[position] == 0x0A {
                            last -= 1
                        }
                        starts.append(Int32(first))
                        ends.append(Int32(last))
                        quoted.append(false)
                    }
                    guard position < end else { break }
                    let terminator = bytes[position]
                    position += 1
                    if terminator != 0x2C { break }
                    // A comma at the very end: one more, empty field.
                    if position == end {
                        fields += 1
                        starts.append(Int32(position))
                        ends.append(Int32(position))
                        quoted.append(false)
                        break
                    }
                }
                guard fields == width else { throw refused() }
                count += 1
            }
        }
    }

    /// The index of column `name`, or an error naming the file.
    func column(_ name: String, file: String) throws -> Int {
        guard let index = columns.firstIndex(of: name) else {
            throw InputError(.line(file, 1), .missing("column '\(name)' in the header"))
        }
        return index
    }

    /// The text of row `row`'s field in column `column`.
    func text(_ row: Int, _ column: Int) -> String {
        let field = row * columns.count + column
        let range = Int(starts[field])..<Int(ends[field])
        guard quoted[field], bytes[range].contains(0x22) else { return String(decoding: bytes[range], as: UTF8.self) }
        var raw: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            raw.append(bytes[index])
            index += bytes[index] == 0x22 ? 2 : 1  // a doubled quote is one quote
        }
        return String(decoding: raw, as: UTF8.self)
    }

    /// Whether row `row`'s field in column `column` is `literal` (ASCII, without quotes).
    func field(_ row: Int, _ column: Int, is literal: StaticString) -> Bool {
        let field = row * columns.count + column
        let start = Int(starts[field])
        let length = Int(ends[field]) - start
        guard length == literal.utf8CodeUnitCount, !quoted[field] || !literal.description.contains("\"") else {
            return false
        }
        return literal.withUTF8Buffer { text in
            bytes.withUnsafeBufferPointer { bytes in
                (0..<length).allSatisfy { bytes[start + $0] == text[$0] }
            }
        }
    }

    /// Row `row`'s field in column `column` as a number, as ``NamedTable/numbers(_:)`` reads it (empty is NaN).
    func number(_ row: Int, _ column: Int) throws -> Double {
        let text = text(row, column)
        if text.isEmpty { return .nan }
        guard let value = Double(text) else {
            throw InputError(.file("CSV"), .isNot("a number", subject: "field", found: "'\(text)'"))
        }
        return value
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
