/// Small text helpers shared by the trace readers and writers: trimming and splitting byte lines, parsing and
/// printing numbers. Internal to the Network folder's readers (``MahimahiTrace``, ``PensieveTrace``, ``CSVTrace``,
/// ``SabreTrace``, ``TraceFormat``).
enum TraceText {
    /// Whether `byte` is a space or a tab.
    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// `line` without leading and trailing spaces and tabs.
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lower = line.startIndex
        var upper = line.endIndex
        while lower < upper, isBlank(line[lower]) { lower += 1 }
        while upper > lower, isBlank(line[upper - 1]) { upper -= 1 }
        return line[lower..<upper]
    }

    /// Whether the line is a `#` comment (after optional blanks).
    static func isComment(_ line: ArraySlice<UInt8>) -> Bool { trimmed(line).first == UInt8(ascii: "#") }

    /// The runs of non-blank bytes in `line` (whitespace-separated fields).
    static func whitespaceFields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        line.split(whereSeparator: isBlank)
    }

    /// The comma-separated fields of `line`, each trimmed (empty fields kept).
    static func commaFields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(trimmed)
    }

    /// The bytes as text, for error messages (invalid UTF-8 is replaced).
    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A decimal number (Swift's `Double` syntax, which includes `nan` and `inf`; callers reject those), or `nil`.
    static func number(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count < 64 else { return nil }
        return DecimalText.double(bytes)
    }

    /// A non-negative decimal integer of at most 18 digits, or `nil`.
    @inline(__always) static func unsignedInteger(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            let digit = Int(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value &* 10 &+ digit
        }
        return value
    }

    /// Shortest text that reads back as exactly `value`; integral values print without a fraction.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return value.description
    }
}
