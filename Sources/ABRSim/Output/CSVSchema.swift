/// One column of a CSV table: its header name and how a row's value of it is written.
///
/// Made with the kind factories (``number(_:_:)``, ``integer(_:_:)``, ``text(_:_:)``, ``bool(_:_:)``, and
/// ``optionalNumber(_:_:)`` and ``optionalText(_:_:)``, which write an empty field for `nil`) and gathered into a
/// ``CSVSchema``. The column keeps its kind beside the value function, so writing a field is one call of that
/// function and the writer's formatting of its value (``CSVSchema/append(_:to:extra:)``).
public struct CSVColumn<Row>: Sendable {
    /// The header name (with its unit, as `stall_s`).
    public let name: String
    /// The value function, by kind.
    let field: Field

    /// A column's value function, by the kind of value it gives.
    enum Field: Sendable {
        case number(@Sendable (borrowing Row) -> Double)
        case optionalNumber(@Sendable (borrowing Row) -> Double?)
        case integer(@Sendable (borrowing Row) -> Int)
        case text(@Sendable (borrowing Row) -> String)
        case optionalText(@Sendable (borrowing Row) -> String?)
        case bool(@Sendable (borrowing Row) -> Bool)
    }

    /// Appends this column's field of `row` to a writer that is in the middle of the row.
    @inline(__always) func write(_ row: borrowing Row, to writer: inout CSVWriter) {
        switch field {
        case .number(let value): writer.append(value(row))
        case .optionalNumber(let value):
            if let number = value(row) { writer.append(number) } else { writer.appendEmpty() }
        case .integer(let value): writer.append(value(row))
        case .text(let value): writer.append(value(row))
        case .optionalText(let value):
            if let text = value(row) { writer.append(text) } else { writer.appendEmpty() }
        case .bool(let value): writer.append(value(row))
        }
    }

    /// A number column (``formatCSVNumber(_:)``).
    public static func number(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> Double) -> Self {
        Self(name: name, field: .number(value))
    }

    /// A number column, empty where the value is `nil`.
    public static func optionalNumber(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> Double?) -> Self {
        Self(name: name, field: .optionalNumber(value))
    }

    /// An integer column.
    public static func integer(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> Int) -> Self {
        Self(name: name, field: .integer(value))
    }

    /// A text column (quoted where RFC 4180 needs it).
    public static func text(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> String) -> Self {
        Self(name: name, field: .text(value))
    }

    /// A text column, empty where the value is `nil`.
    public static func optionalText(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> String?) -> Self {
        Self(name: name, field: .optionalText(value))
    }

    /// A `true`/`false` column.
    public static func bool(_ name: String, _ value: @escaping @Sendable (borrowing Row) -> Bool) -> Self {
        Self(name: name, field: .bool(value))
    }
}

/// A CSV table's columns declared once, each with its value function, so that the header and every row come from
/// the same list and cannot disagree in count or order.
///
/// A table may end with extra text columns not known in advance (a sweep's grid settings): name them in
/// ``writer(extraColumns:reservingBytes:writingHeader:)`` and pass their values to ``append(_:to:extra:)``. Used by
/// ``RunTables``, the plot tables, ``ComparisonStatistics`` and the sweep stores.
public struct CSVSchema<Row>: Sendable {
    /// The columns, in file order.
    public let columns: ContiguousArray<CSVColumn<Row>>

    /// A schema of `columns` (at least one).
    public init(_ columns: [CSVColumn<Row>]) {
        precondition(!columns.isEmpty, "a CSV table needs at least one column")
        self.columns = ContiguousArray(columns)
    }

    /// The header names, in order.
    public var names: [String] { columns.map(\.name) }

    /// A writer whose header is these columns, then `extraColumns` (without `writingHeader`, a writer of rows
    /// only, for a file that has its header).
    public func writer(extraColumns: [String] = [], reservingBytes: Int = 0, writingHeader: Bool = true) -> CSVWriter {
        CSVWriter(columns: names + extraColumns, reservingBytes: reservingBytes, writingHeader: writingHeader)
    }

    /// Appends `row` to `writer` (made by ``writer(extraColumns:reservingBytes:writingHeader:)``), then `extra` as text fields.
    @inline(__always) public func append(_ row: borrowing Row, to writer: inout CSVWriter, extra: [String] = []) {
        writer.beginRow()
        // The row is borrowed all the way down: each value function reads it in place, without a copy.
        for index in columns.indices { columns[index].write(row, to: &writer) }
        for value in extra { writer.append(value) }
        writer.endRow()
    }

    /// The first `count` fields of `row` as CSV text, for rows that share them (a player's rows share its labels):
    /// written by the columns' own functions, once, and appended by ``append(_:after:to:extra:)``.
    public func prefix(of row: borrowing Row, count: Int) -> CSVRowPrefix {
        precondition(count >= 1 && count <= columns.count, "a prefix of 1 to \(columns.count) columns")
        var writer = CSVWriter(columns: Array(names.prefix(count)), writingHeader: false)
        writer.beginRow()
        for index in 0..<count { columns[index].write(row, to: &writer) }
        writer.endRow()
        return CSVRowPrefix(bytes: writer.takeBytes().dropLast(), count: count)
    }

    /// Appends `row` whose first fields are `prefix` (made by ``prefix(of:count:)`` from a row that shares them),
    /// then `extra` as text fields.
    @inline(__always) public func append(
        _ row: borrowing Row, after prefix: CSVRowPrefix, to writer: inout CSVWriter, extra: [String] = []
    ) {
        writer.beginRow()
        writer.appendRendered(prefix.bytes, fields: prefix.count)
        for index in prefix.count..<columns.count { columns[index].write(row, to: &writer) }
        for value in extra { writer.append(value) }
        writer.endRow()
    }

    /// The whole file for `rows`.
    public func csv(_ rows: some Sequence<Row>) -> [UInt8] {
        var writer = writer()
        for row in rows { append(row, to: &writer) }
        return writer.takeBytes()
    }
}

/// The first fields of a CSV row, written once for many rows that share them (see
/// ``CSVSchema/prefix(of:count:)``).
public struct CSVRowPrefix: Sendable {
    /// The fields as CSV text, separated by commas.
    let bytes: [UInt8]
    /// How many fields.
    let count: Int

    init(bytes: some Sequence<UInt8>, count: Int) {
        self.bytes = Array(bytes)
        self.count = count
    }
}
