/// One field of a CSV row, for the convenient ``CSVWriter/appendRow(_:)`` path.
public enum CSVField: Sendable, Equatable {
    /// Text, quoted per RFC 4180 when it holds a comma, a double quote, CR or LF.
    case text(String)
    /// A number, formatted by ``formatCSVNumber(_:)``.
    case number(Double)
    /// An integer, printed in decimal.
    case integer(Int)
    /// `true` or `false`.
    case bool(Bool)
    /// An empty field (a missing value).
    case empty
}

/// Builds a tidy CSV file in memory: a header row that is always present, then rows of exactly as many fields.
///
/// Output follows RFC 4180 except that rows end with LF rather than CRLF (the Unix convention; every CSV reader,
/// including ``CSVTable``, accepts both). Text is UTF-8; numbers come from ``appendCSVNumber(_:to:)``.
///
/// Two ways to add rows, producing identical bytes:
/// - ``appendRow(_:)`` with an array of ``CSVField`` values, for code that is not hot;
/// - ``beginRow()``, then one `append` per field, then ``endRow()``, which writes straight into the byte buffer
///   and allocates nothing per row — for the per-segment and timeline tables of big sweeps.
///
/// The field count of every row is checked against the header (a precondition, so checked in debug builds).
/// Called by the metrics writers; the bytes usually go to ``AtomicFileWriter`` or ``OutputBundle``.
public struct CSVWriter: Sendable {
    /// The column names, as written in the header.
    public let columns: [String]
    /// The file contents so far: the header and every finished row.
    public private(set) var bytes: [UInt8] = []
    /// The number of data rows finished so far (the header not counted).
    public private(set) var rowCount = 0
    private var fieldsInRow = 0
    private var rowStart = 0
    private var inRow = false
    /// Where finished rows go once ``drainBytes`` of them have gathered (a streamed table), or `nil`.
    private var drain: CSVDrain?
    private var drainBytes = Int.max

    /// Starts a file with the header row for `columns` (at least one), reserving `reservingBytes` of buffer.
    /// Without `writingHeader`, the rows are for appending to a file that already has its header.
    public init(columns: [String], reservingBytes: Int = 0, writingHeader: Bool = true) {
        precondition(!columns.isEmpty, "a CSV file needs at least one column")
        self.columns = columns
        bytes.reserveCapacity(max(reservingBytes, 256))
        guard writingHeader else { return }
        for (index, name) in columns.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendText(name)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Hands the finished rows to `drain` whenever at least `everyBytes` have gathered, and empties the buffer, so
    /// a long table is written in pieces of about that size instead of held whole; ``takeBytes()`` gives the rest.
    public mutating func drain(every everyBytes: Int, into drain: CSVDrain) {
        precondition(everyBytes > 0, "drain a positive number of bytes")
        self.drain = drain
        drainBytes = everyBytes
        bytes.reserveCapacity(everyBytes + 4096)
    }

    /// The file contents as a `String`.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends one row; `fields` must have one entry per column.
    public mutating func appendRow(_ fields: [CSVField]) {
        precondition(
            fields.count == columns.count, "CSV row has \(fields.count) fields, the header has \(columns.count)")
        beginRow()
        for field in fields { append(field) }
        endRow()
    }

    /// Starts a row on the fast path; follow with one `append` per column and ``endRow()``.
    public mutating func beginRow() {
        precondition(!inRow, "beginRow() called twice without endRow()")
        inRow = true
        fieldsInRow = 0
        rowStart = bytes.count
    }

    /// Appends a number field (see ``formatCSVNumber(_:)``).
    public mutating func append(_ value: Double) {
        separate()
        appendCSVNumber(value, to: &bytes)
    }

    /// Appends an integer field.
    public mutating func append(_ value: Int) {
        separate()
        appendCSVInteger(value, to: &bytes)
    }

    /// Appends a text field, quoted when needed.
    public mutating func append(_ value: String) {
        separate()
        appendText(value)
    }

    /// Appends `true` or `false`.
    public mutating func append(_ value: Bool) {
        separate()
        let word: StaticString = value ? "true" : "false"
        bytes.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// Appends `fields` fields already written as CSV text (`bytes`, fields separated by commas, no line end).
    public mutating func appendRendered(_ bytes: [UInt8], fields: Int) {
        separate()
        fieldsInRow += fields - 1
        self.bytes.append(contentsOf: bytes)
    }

    /// Appends an empty field (a missing value).
    public mutating func appendEmpty() {
        separate()
    }

    /// Appends one field of any kind.
    public mutating func append(_ field: CSVField) {
        switch field {
        case .text(let value): append(value)
        case .number(let value): append(value)
        case .integer(let value): append(value)
        case .bool(let value): append(value)
        case .empty: appendEmpty()
        }
    }

    /// Finishes the row started by ``beginRow()``; it must have one field per column.
    public mutating func endRow() {
        precondition(inRow, "endRow() called without beginRow()")
        precondition(
            fieldsInRow == columns.count, "CSV row has \(fieldsInRow) fields, the header has \(columns.count)")
        // A one-column row holding an empty field would be a blank line, which many readers skip.
        if columns.count == 1, bytes.count == rowStart { bytes.append(contentsOf: [0x22, 0x22]) }
        bytes.append(UInt8(ascii: "\n"))
        inRow = false
        rowCount += 1
        if bytes.count >= drainBytes, let drain {
            drain.take(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Hands over the bytes written so far and empties the buffer (keeping its capacity), so a very long table
    /// can be streamed out in pieces. The header is in the first piece only.
    public mutating func takeBytes() -> [UInt8] {
        precondition(!inRow, "takeBytes() called in the middle of a row")
        let taken = bytes
        bytes.removeAll(keepingCapacity: true)
        return taken
    }

    private mutating func separate() {
        precondition(inRow, "CSV field appended outside beginRow()/endRow()")
        if fieldsInRow > 0 { bytes.append(UInt8(ascii: ",")) }
        fieldsInRow += 1
    }

    private mutating func appendText(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            guard needsQuotes else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(0x22)
            for byte in utf8 {
                if byte == 0x22 { bytes.append(0x22) }
                bytes.append(byte)
            }
            bytes.append(0x22)
        }
    }
}

/// Where a streamed ``CSVWriter`` hands its finished rows (``CSVWriter/drain(every:into:)``): each piece goes to
/// `write`, which writes it out (to the temporary of an ``OutputBundle`` file). The first error stops the writing;
/// ``check()`` rethrows it once the table is done. Used on one thread at a time.
public final class CSVDrain: @unchecked Sendable {
    private let write: ([UInt8]) throws -> Void
    private var failure: (any Error)?

    /// A drain handing pieces to `write`.
    public init(_ write: @escaping ([UInt8]) throws -> Void) {
        self.write = write
    }

    /// Writes `piece` unless an earlier piece failed.
    func take(_ piece: [UInt8]) {
        guard failure == nil else { return }
        do { try write(piece) } catch { failure = error }
    }

    /// Rethrows the first error of a write.
    public func check() throws {
        if let failure { throw failure }
    }
}
