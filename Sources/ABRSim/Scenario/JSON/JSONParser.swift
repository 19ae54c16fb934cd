/// A strict RFC 8259 JSON parser over raw bytes, for scenario files, sabre movies and other JSON inputs.
///
/// It exists (instead of Foundation's `JSONSerialization`) so that every error names the line and column,
/// duplicate keys are rejected instead of silently dropped, and nesting is bounded. A leading UTF-8 byte-order
/// mark is skipped. Lines end at LF, CRLF or a lone CR; columns count Unicode scalars from 1.
///
/// Called by the scenario loader, sabre movies and sabre traces; errors are ``InputError``s located at
/// `line L, column C`.
public enum JSONParser {
    /// The largest JSON file ``parseFile(_:)`` reads: 64 MiB.
    public static let fileLimitBytes = 64 << 20

    /// Parses one JSON document from `bytes`; `file` names it in errors. Containers nested more than
    /// `maxDepth` levels deep are an error (which also bounds the parser's recursion).
    public static func parse(_ bytes: [UInt8], file: String, maxDepth: Int = 64) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, file: file, maxDepth: maxDepth)
            return try parser.parseDocument()
        }
    }

    /// Parses one JSON document from `bytes` whose top level should be an array, handing each element to `body`
    /// (its index and value) as soon as it is read, so that a long array is never held whole. Returns `nil` after
    /// an array, or the value found instead (for the caller's "expected an array" message). Syntax errors are
    /// those of ``parse(_:file:maxDepth:)``, raised when the parser reaches them.
    public static func parseElements(
        _ bytes: [UInt8], file: String, maxDepth: Int = 64, _ body: (Int, JSONValue) throws -> Void
    ) throws -> JSONValue? {
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, file: file, maxDepth: maxDepth)
            return try parser.parseDocument(streamingArray: body)
        }
    }

    /// ``parseElements(_:file:maxDepth:_:)`` for a top-level array of flat records of numbers, such as a sabre
    /// network: an element that is an object whose members are exactly `keys` (in any order, each once, each
    /// value a number, keys without escapes) goes to `record` as its numbers in the order of `keys`, without
    /// building a ``JSONValue``. Every other element, and one for which `record` returns `false`, is parsed as a
    /// value and handed to `body`, so errors and their places are those of ``parseElements(_:file:maxDepth:_:)``.
    public static func parseRecords(
        _ bytes: [UInt8], file: String, keys: [String], maxDepth: Int = 64,
        record: (Int, UnsafeBufferPointer<Double>) throws -> Bool, _ body: (Int, JSONValue) throws -> Void
    ) throws -> JSONValue? {
        precondition(!keys.isEmpty && keys.count <= 64, "1 to 64 keys")
        precondition(
            keys.allSatisfy {
                $0.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            },
            "plain keys")
        var recordKeys = RecordKeys(keys.map { Array($0.utf8) })
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: keys.count)
        defer { values.deallocate() }
        return try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, file: file, maxDepth: maxDepth)
            return try parser.parseDocument { parser -> JSONValue? in
                guard parser.bytes[parser.index] == UInt8(ascii: "[") else { return try parser.parseValue() }
                try parser.parseRecordElements(keys: &recordKeys, values: values, record: record, body)
                return nil
            }
        }
    }

    /// Reads the file at `path` (at most ``fileLimitBytes``) and parses it, naming `path` in errors.
    public static func parseFile(_ path: String) throws -> JSONValue {
        try parse(InputFile.readAll(path, limitBytes: fileLimitBytes), file: path)
    }

    /// One step of a JSON path, for ``location(of:in:)``.
    public enum PathStep: Sendable, Equatable {
        /// An object member.
        case key(String)
        /// An array element (from 0).
        case index(Int)
    }

    /// `line L, column C` of the value at `steps` in `bytes`, a document ``parse(_:file:maxDepth:)`` accepts;
    /// `nil` when there is no such value. For messages that name a value by its JSON path and also want its line
    /// in a long file; it reads the document again, so it is meant for the error path only.
    public static func location(of steps: [PathStep], in bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, file: "", maxDepth: .max)
            guard let offset = try? parser.offset(of: steps) else { return nil }
            return parser.location(of: offset)
        }
    }
}

/// The parser's state: the bytes, the read position and the current nesting depth.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let maxDepth: Int
    var index = 0
    var depth = 0
    var hasByteOrderMark = false

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, maxDepth: Int) {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws -> JSONValue {
        try parseDocument { try $0.parseValue() }
    }

    /// A top-level array's elements to `body` one by one (then `nil`), or any other top-level value.
    mutating func parseDocument(streamingArray body: (Int, JSONValue) throws -> Void) throws -> JSONValue? {
        try parseDocument { parser -> JSONValue? in
            guard parser.bytes[parser.index] == UInt8(ascii: "[") else { return try parser.parseValue() }
            var count = 0
            try parser.parseElements { element in
                try body(count, element)
                count += 1
            }
            return nil
        }
    }

    /// Skips a byte-order mark and white space, reads the one top-level value with `top`, and refuses an empty
    /// document or text after the value.
    mutating func parseDocument<Result>(_ top: (inout Parser) throws -> Result) throws -> Result {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            hasByteOrderMark = true
            index = 3
        }
        skipWhitespace()
        if index == bytes.count { throw error("empty document", at: index) }
        let value = try top(&self)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(at: index)) after the end of the document", at: index)
        }
        return value
    }

    /// The offset of the value at `steps`, skipping every value before it; `nil` when there is none.
    mutating func offset(of steps: [JSONParser.PathStep]) throws -> Int? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            hasByteOrderMark = true
            index = 3
        }
        skipWhitespace()
        for step in steps {
            guard index < bytes.count else { return nil }
            switch step {
            case .index(let wanted):
                guard bytes[index] == UInt8(ascii: "[") else { return nil }
                index += 1
                for _ in 0..<wanted {
                    skipWhitespace()
                    _ = try parseValue()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
                skipWhitespace()
            case .key(let wanted):
                guard bytes[index] == UInt8(ascii: "{") else { return nil }
                index += 1
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                    let key = try parseString()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    skipWhitespace()
                    if key == wanted { break }
                    _ = try parseValue()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                }
            }
        }
        return index < bytes.count ? index : nil
    }

    // MARK: - Values

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            throw error("invalid number '\(token(at: index))': JSON numbers start with a digit or '-'", at: index)
        default:
            if isWordByte(bytes[index]) {
                throw error("invalid value '\(token(at: index))', expected a value", at: index)
            }
            throw error("unexpected \(describe(at: index)), expected a value", at: index)
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let length = word.utf8CodeUnitCount
        let matches =
            index + length <= bytes.count
            && (0..<length).allSatisfy { bytes[index + $0] == word.utf8Start[$0] }
            && (index + length == bytes.count || !isWordByte(bytes[index + length]))
        guard matches else { throw error("invalid value '\(token(at: index))', expected a value", at: index) }
        index += length
        return value
    }

    mutating func enterContainer() throws {
        depth += 1
        if depth > maxDepth { throw error("nested deeper than \(maxDepth) levels", at: index) }
    }

    mutating func parseArray() throws -> JSONValue {
        var elements: [JSONValue] = []
        try parseElements { elements.append($0) }
        return .array(elements)
    }

    /// Parses an array starting at its `[`, handing each element to `body` as soon as it is read.
    @inline(__always) mutating func parseElements(_ body: (JSONValue) throws -> Void) throws {
        let open = index
        guard try !openContainer(closing: UInt8(ascii: "]")) else { return }
        repeat {
            try body(try parseValue())
        } while try !endOfItem(closing: UInt8(ascii: "]"), container: "array", open: open)
        depth -= 1
    }

    /// The elements of the array at `index` for ``JSONParser/parseRecords(_:file:keys:maxDepth:record:_:)``.
    mutating func parseRecordElements(
        keys: inout RecordKeys, values: UnsafeMutableBufferPointer<Double>,
        record: (Int, UnsafeBufferPointer<Double>) throws -> Bool, _ body: (Int, JSONValue) throws -> Void
    ) throws {
        let open = index
        guard try !openContainer(closing: UInt8(ascii: "]")) else { return }
        var count = 0
        repeat {
            let start = index
            if depth < maxDepth, scanRecord(keys: &keys, into: values),
                try record(count, UnsafeBufferPointer(values))
            {
            } else {
                index = start
                try body(count, try parseValue())
            }
            count += 1
        } while try !endOfItem(closing: UInt8(ascii: "]"), container: "array", open: open)
        depth -= 1
    }

    /// Reads the object at `index` when it is a record of exactly `keys` (each once, plain keys, number values)
    /// into `values`, leaving `index` after it; `false` otherwise, with `index` anywhere (the caller rewinds).
    /// Never throws: anything unusual is left to the full parser. Each key is first compared with the key the last
    /// record had at the same place (records of one file almost always list their keys in one order).
    mutating func scanRecord(keys: inout RecordKeys, into values: UnsafeMutableBufferPointer<Double>) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return false }
        index += 1
        var seen: UInt64 = 0
        var place = 0
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            let keyStart = index + 1
            let keyEnd: Int
            let slot: Int
            if place < keys.count, let end = keys.match(keys.lastOrder[place], in: bytes, at: keyStart) {
                slot = keys.lastOrder[place]
                keyEnd = end
            } else {
                var end = keyStart
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                    bytes[end] >= 0x20
                {
                    end += 1
                }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "\""),
                    let found = keys.slot(of: UnsafeBufferPointer(rebasing: bytes[keyStart..<end]))
                else { return false }
                slot = found
                keyEnd = end
            }
            guard seen & (1 << slot) == 0 else { return false }
            seen |= 1 << slot
            if place < keys.count { keys.lastOrder[place] = slot }
            place += 1
            index = keyEnd + 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard let value = scanNumber() else { return false }
            values[slot] = value
            skipWhitespace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return seen == (keys.count == 64 ? ~0 : (1 << keys.count) - 1)
            }
            guard bytes[index] == UInt8(ascii: ",") else { return false }
            index += 1
        }
    }

    /// The number at `index` when it is a valid JSON number with a finite value (then `index` is after it), else
    /// `nil`; never throws (``parseNumber()`` names the problem).
    mutating func scanNumber() -> Double? {
        let begin = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(index) else { return nil }
        let digitsStart = index
        var integer: UInt64 = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return nil }
        } else {
            while isDigit(index) {
                integer = integer &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
        }
        let isInteger =
            index >= bytes.count || (bytes[index] != UInt8(ascii: ".") && bytes[index] | 0x20 != UInt8(ascii: "e"))
        // At most 15 digits: the integer is below 2^53, so the double is exactly the text's value (as
        // `Double(String)` gives it, −0 included).
        if isInteger && index - digitsStart <= 15 {
            let value = Double(integer)
            return negative ? -value : value
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { return nil }
            skipDigits()
        }
        let token = UnsafeBufferPointer(rebasing: bytes[begin..<index])
        guard let value = DecimalText.double(token), value.isFinite else { return nil }
        return value
    }

    mutating func parseObject() throws -> JSONValue {
        let open = index
        var keys: [String] = []
        var values: [String: JSONValue] = [:]
        guard try !openContainer(closing: UInt8(ascii: "}")) else { return .object(JSONObject()) }
        repeat {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describe(at: index)), expected a string key", at: index)
            }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describe(at: index)), expected ':' after the key", at: index)
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            if values.updateValue(value, forKey: key) != nil {
                throw error("duplicate key \(JSONString.quoted(key))", at: keyStart)
            }
            keys.append(key)
        } while try !endOfItem(closing: UInt8(ascii: "}"), container: "object", open: open)
        depth -= 1
        return .object(JSONObject(keys: keys, values: values))
    }

    /// Enters the container whose opening bracket is at `index` and skips it and the white space after; whether
    /// it closes at once with `closing` (then it is left, too).
    @inline(__always) mutating func openContainer(closing: UInt8) throws -> Bool {
        try enterContainer()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After an element or member: skips white space, then consumes `,` (more follow: `false`) or `closing` (the
    /// container ends: `true`). Anything else, the end of input or a trailing comma is an error naming the
    /// `container` and where it opened.
    @inline(__always) mutating func endOfItem(closing: UInt8, container: String, open: Int) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw error(
                "unexpected end of input, expected ',' or '\(UnicodeScalar(closing))' to close the \(container) at "
                    + location(of: open), at: index)
        }
        let byte = bytes[index]
        if byte == closing {
            index += 1
            return true
        }
        guard byte == UInt8(ascii: ",") else {
            throw error("unexpected \(describe(at: index)), expected ',' or '\(UnicodeScalar(closing))'", at: index)
        }
        let comma = index
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing {
            throw error("trailing comma before '\(UnicodeScalar(closing))'", at: comma)
        }
        return false
    }

    // MARK: - Numbers

    func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    mutating func skipDigits() {
        while isDigit(index) { index += 1 }
    }

    mutating func parseNumber() throws -> Double {
        let begin = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(index) else {
            throw error("invalid number '\(token(at: begin))': expected a digit after '-'", at: begin)
        }
        let digitsStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("invalid number '\(token(at: begin))': leading zero", at: begin) }
        } else {
            skipDigits()
        }
        let integerDigits = index - digitsStart
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else {
                throw error("invalid number '\(token(at: begin))': expected a digit after '.'", at: begin)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else {
                throw error("invalid number '\(token(at: begin))': expected a digit in the exponent", at: begin)
            }
            skipDigits()
        }
        if isInteger, integerDigits <= 15 {
            var magnitude = 0
            for offset in digitsStart..<index { magnitude = magnitude * 10 + Int(bytes[offset] &- 48) }
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        let token = UnsafeBufferPointer(rebasing: bytes[begin..<index])
        if let value = DecimalText.fastDouble(token) { return value }
        let text = String(decoding: token, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number out of range: \(text)", at: begin)
        }
        return value
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote; the common case without escapes copies once.
    mutating func parseString() throws -> String {
        let quote = index
        index += 1
        let contentStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacterError(at: index) }
            index += byte < 0x80 ? 1 : try scalarLength(at: index)
        }
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                if index + 1 >= bytes.count { break }
                try parseEscape(into: &buffer)
            } else if byte < 0x20 {
                throw controlCharacterError(at: index)
            } else if byte < 0x80 {
                buffer.append(byte)
                index += 1
            } else {
                let length = try scalarLength(at: index)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
                index += length
            }
        }
        throw error("unterminated string", at: quote)
    }

    func controlCharacterError(at offset: Int) -> InputError {
        error("control character \(hexScalar(UInt32(bytes[offset]))) in a string (write it as an escape)", at: offset)
    }

    /// Decodes one escape sequence starting at a backslash and appends its UTF-8 bytes.
    mutating func parseEscape(into buffer: inout [UInt8]) throws {
        let backslash = index
        guard index + 1 < bytes.count else { throw error("unterminated string", at: backslash) }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(escapeAt: backslash)
            if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw error("lone low surrogate \\u\(hex4(scalar)) in a string", at: backslash)
            }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                let second = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error(
                        "lone high surrogate \\u\(hex4(scalar)) in a string (expected a \\u low surrogate)",
                        at: backslash)
                }
                index += 2
                let low = try hexQuad(escapeAt: second)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw error(
                        "lone high surrogate \\u\(hex4(scalar)) in a string (expected a \\u low surrogate)",
                        at: backslash)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar, to: &buffer)
        default:
            index = backslash
            throw error("invalid escape '\\\(describeEscapeLetter(letter))' in a string", at: backslash)
        }
    }

    func describeEscapeLetter(_ letter: UInt8) -> String {
        letter >= 0x21 && letter < 0x7F ? String(UnicodeScalar(letter)) : hexScalar(UInt32(letter))
    }

    /// Reads the four hex digits after `\u`.
    mutating func hexQuad(escapeAt escape: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("invalid \\u escape: expected four hex digits", at: escape) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid \\u escape: expected four hex digits", at: escape)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed multi-byte UTF-8 sequence at `offset`, or an "invalid UTF-8" error.
    func scalarLength(at offset: Int) throws -> Int {
        guard let length = validScalarLength(at: offset) else { throw error("invalid UTF-8", at: offset) }
        return length
    }

    func validScalarLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        guard bytes[offset + 1] >= low && bytes[offset + 1] <= high else { return nil }
        for next in offset + 2..<offset + length where bytes[next] & 0xC0 != 0x80 { return nil }
        return length
    }

    // MARK: - Messages

    func error(_ message: String, at offset: Int) -> InputError {
        InputError(InputPlace(file: file, position: position(of: offset)), .syntax(message))
    }

    /// `line L, column C` for a byte offset, as a message names it.
    func location(of offset: Int) -> String { InputErrorMessage.text(of: position(of: offset)) }

    /// The line and column of a byte offset, computed only when an error is reported.
    func position(of offset: Int) -> InputPlace.Position {
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = hasByteOrderMark ? 3 : 0
        var position = lineStart
        while position < end {
            let byte = bytes[position]
            if byte == 0x0A || (byte == 0x0D && (position + 1 == bytes.count || bytes[position + 1] != 0x0A)) {
                line += 1
                lineStart = position + 1
            }
            position += 1
        }
        var column = 1
        for position in lineStart..<max(lineStart, end) where bytes[position] & 0xC0 != 0x80 { column += 1 }
        return .lineColumn(line: line, column: column)
    }

    /// What is at `offset`, for "unexpected …" messages.
    func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(UnicodeScalar(byte))'" }
        if byte < 0x80 { return "character \(hexScalar(UInt32(byte)))" }
        guard let length = validScalarLength(at: offset) else { return "invalid UTF-8" }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        return "'\(text)'"
    }

    /// The word-like run of bytes at `offset` (at most 24), to quote a bad literal or number.
    func token(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 24, isWordByte(bytes[end]) { end += 1 }
        if end == offset { end = min(offset + 1, bytes.count) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func hexScalar(_ value: UInt32) -> String { "U+" + hex4(value) }
}

/// The keys of a record scan (``JSONParser/parseRecords(_:file:keys:maxDepth:record:_:)``) and the order the last
/// record listed them in, which the scanner tries first.
private struct RecordKeys {
    /// Each key's UTF-8 bytes (no quote, backslash or control character).
    let keys: [[UInt8]]
    /// The slot of the key at each place of the last record scanned (at first, the keys' own order).
    var lastOrder: [Int]

    init(_ keys: [[UInt8]]) {
        self.keys = keys
        lastOrder = Array(keys.indices)
    }

    var count: Int { keys.count }

    /// The offset of the closing quote when the key in `slot` is spelled at `start` of `bytes` and closed there.
    @inline(__always) func match(_ slot: Int, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        keys[slot].withUnsafeBufferPointer { key -> Int? in
            let end = start + key.count
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            for offset in 0..<key.count where bytes[start + offset] != key[offset] { return nil }
            return end
        }
    }

    /// The slot of the key whose bytes are `text`, if any.
    func slot(of text: UnsafeBufferPointer<UInt8>) -> Int? {
        keys.firstIndex { $0.count == text.count && $0.elementsEqual(text) }
    }
}
