/// A CSV file read whole into memory: the header's column names and every row's fields as text.
///
/// Reads what ``CSVWriter`` writes, and RFC 4180 files generally: quoted fields (with `""` for a quote and line
/// breaks inside quotes), LF or CRLF row ends, an optional UTF-8 byte-order mark, an optional final line end.
/// Every row must have as many fields as the header. Problems are ``InputError``s naming the file and the line
/// where the offending row starts. Used by tests to read outputs back, and by `abrsim plot` to load results.
public struct CSVTable: Sendable, Equatable {
    /// The column names from the header row.
    public let columns: [String]
    /// The data rows, each with one field per column, as written (quotes removed, nothing converted).
    public let rows: [[String]]

    /// Creates a table from already split fields (for tests and for tables built in memory).
    public init(columns: [String], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The fields of the first column called `name`, top to bottom, or `nil` when there is no such column.
    public func column(_ name: String) -> [String]? {
        guard let index = columns.firstIndex(of: name) else { return nil }
        return rows.map { $0[index] }
    }

    /// Parses CSV `bytes`; `file` names the source in error messages.
    public static func parse(_ bytes: [UInt8], file: String) throws -> CSVTable {
        var parser = CSVParser(bytes: bytes, file: file)
        guard let header = try parser.nextRecord() else {
            throw InputError(.line(file, 1), .empty("file", no: "header row"))
        }
        var rows: [[String]] = []
        while let row = try parser.nextRecord() {
            guard row.count == header.count else {
                throw InputError(
                    .line(file, parser.recordLine),
                    .expected("\(header.count) fields as in the header", found: "\(row.count)"))
            }
            rows.append(row)
        }
        return CSVTable(columns: header, rows: rows)
    }
}

/// The record-by-record scanner behind ``CSVTable/parse(_:file:)``.
private struct CSVParser {
    let bytes: [UInt8]
    let file: String
    var position = 0
    /// The current physical line (1-based).
    var line = 1
    /// The line on which the record most recently returned started.
    var recordLine = 1

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The next record's fields, or `nil` at the end of the input.
    mutating func nextRecord() throws -> [String]? {
        guard position < bytes.count else { return nil }
        recordLine = line
        var fields: [String] = []
        while true {
            fields.append(try nextField())
            guard position < bytes.count else { return fields }
            let terminator = bytes[position]
            position += 1
            if terminator == UInt8(ascii: ",") { continue }
            // Only a line feed ends a field other than a comma (a CR before it was taken off the field).
            line += 1
            return fields
        }
    }

    /// Reads one field, leaving `position` at its terminator (comma or LF) or at the end of the input.
    private mutating func nextField() throws -> String {
        var raw: [UInt8]
        if position < bytes.count, bytes[position] == 0x22 {
            raw = try quotedField()
        } else {
            let start = position
            while position < bytes.count, bytes[position] != 0x2C, bytes[position] != 0x0A {
                if bytes[position] == 0x22 {
                    throw InputError(
                        .line(file, line), .expected("a quoted field around a double quote", found: "an unquoted field")
                    )
                }
                position += 1
            }
            var end = position
            if end > start, bytes[end - 1] == 0x0D, position == bytes.count || bytes[position] == 0x0A { end -= 1 }
            raw = Array(bytes[start..<end])
        }
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw InputError(.line(file, line), .expected("UTF-8 text", found: "bytes that are not UTF-8"))
        }
        return text
    }

    private mutating func quotedField() throws -> [UInt8] {
        let openedOn = line
        var raw: [UInt8] = []
        position += 1
        while true {
            guard position < bytes.count else {
                throw InputError(
                    .line(file, openedOn), .unpaired("a quoted field's opening quote", missing: "its closing quote"))
            }
            let byte = bytes[position]
            position += 1
            if byte == 0x22 {
                if position < bytes.count, bytes[position] == 0x22 {
                    raw.append(0x22)
                    position += 1
                    continue
                }
                break
            }
            if byte == 0x0A { line += 1 }
            raw.append(byte)
        }
        // After the closing quote: a comma, a line end (LF or CRLF) or the end of the input.
        if position < bytes.count, bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A {
            position += 1
        }
        if position < bytes.count, bytes[position] != 0x2C, bytes[position] != 0x0A {
            throw InputError(
                .line(file, line), .expected("a comma or a line end after a closing quote", found: "more text"))
        }
        return raw
    }
}
