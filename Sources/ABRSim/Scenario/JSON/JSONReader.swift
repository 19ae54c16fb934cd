/// Typed, path-tracking access to one value of a parsed JSON document, for decoding scenarios and content.
///
/// A reader is a value plus where it is: the file and the JSON path (`$`, `$.players[0].policy`,
/// `$["my key"]`). Every accessor either returns the Swift value or throws an ``InputError`` located at that
/// path and saying what was expected and what was found, so decoders never write their own messages for type
/// errors. Objects are read through ``JSONObjectReader``, which also reports unknown keys.
public struct JSONReader {
    /// The value read.
    public let value: JSONValue
    /// Where the value is, as a JSON path starting at `$`.
    public let path: String
    /// The file the value came from, for messages.
    public let file: String

    /// A reader for `value` located at `path` in `file`; the root of a document is `$`.
    public init(_ value: JSONValue, file: String, path: String = "$") {
        self.value = value
        self.file = file
        self.path = path
    }

    /// An error located at this value: `file: path: message`.
    public func error(_ problem: InputProblem) -> InputError {
        InputError(.jsonPath(file, path), problem)
    }

    /// Runs `body`, which reads the file this value names (a trace, a playlist, a size folder). A problem with
    /// that file as a whole (missing, a directory, unreadable, too large, inconsistent) is reported here, at this
    /// value: `s.json: $.network.trace: x.down: no such file`, so the message says where the reference is.
    /// Problems inside the file keep its own line or path. Called by the scenario decoders.
    public func readingReferencedFile<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as InputError where error.location == nil && error.file != nil && error.file != file {
            throw self.error(.inReferencedFile(error.file!, error.problem))
        }
    }

    /// The error for a value of the wrong kind: "expected `expected`, found …".
    public func typeError(expected: String) -> InputError {
        error(.expected(expected, found: value.foundDescription))
    }

    // MARK: - Kinds

    /// Whether the value is a string.
    public var isString: Bool {
        if case .string = value { return true }
        return false
    }

    /// Whether the value is a number.
    public var isNumber: Bool {
        if case .number = value { return true }
        return false
    }

    /// Whether the value is `true` or `false`.
    public var isBool: Bool {
        if case .bool = value { return true }
        return false
    }

    /// Whether the value is an object.
    public var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    /// Whether the value is an array.
    public var isArray: Bool {
        if case .array = value { return true }
        return false
    }

    /// Whether the value is `null`.
    public var isNull: Bool { value == .null }

    // MARK: - Containers

    /// The value as an object, with key lookup that tracks which keys were read.
    public func object() throws -> JSONObjectReader {
        guard case .object(let object) = value else { throw typeError(expected: "an object") }
        return JSONObjectReader(self, object)
    }

    /// The elements of an array, each a reader at `path[i]`.
    public func array() throws -> [JSONReader] {
        guard case .array(let elements) = value else { throw typeError(expected: "an array") }
        return elements.indices.map { JSONReader(elements[$0], file: file, path: JSONPath.index(path, $0)) }
    }

    /// An array of numbers.
    public func doubleArray() throws -> [Double] {
        try array().map { try $0.double() }
    }

    /// An array of strings.
    public func stringArray() throws -> [String] {
        try array().map { try $0.string() }
    }

    // MARK: - Scalars

    /// The value as a string. Names, paths and labels end up in messages, file names, CSV, HTML and SVG, so a
    /// string holding a control character, a line or paragraph separator or a byte-order mark (``VisibleText``;
    /// JSON lets `\u0000` through as an escape) is refused here, at its path.
    public func string() throws -> String {
        guard case .string(let text) = value else { throw typeError(expected: "a string") }
        if let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { VisibleText.isEscaped($0.1) }) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw error(
                .expected(
                    "a string without control characters or line separators",
                    found: "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
                        + " at character \(offset + 1)"))
        }
        return text
    }

    /// The value as a finite number (any JSON number but a denormal one: a magnitude below 2.2e-308, which no
    /// key means and whose reciprocal overflows, is an error).
    public func double() throws -> Double {
        guard case .number(let number) = value else { throw typeError(expected: "a number") }
        guard number.isFinite else { throw error(.expected("a finite number", found: JSONPath.format(number))) }
        guard !number.isSubnormal else {
            throw error(.expected("0 or a number of magnitude at least 2.2e-308", found: "the denormal \(number)"))
        }
        return number
    }

    /// A finite number within the key's documented bounds `range` (docs/reliability/bad-inputs.md lists them).
    public func double(in range: ClosedRange<Double>) throws -> Double {
        let number = try double()
        guard range.contains(number) else {
            throw error(
                .outOfRange(
                    what: "a number",
                    bound: "in \(JSONPath.format(range.lowerBound))…\(JSONPath.format(range.upperBound))",
                    found: JSONPath.format(number)))
        }
        return number
    }

    /// A whole number within the key's documented bounds `range`.
    public func int(in range: ClosedRange<Int>) throws -> Int {
        let whole = try int()
        guard range.contains(whole) else {
            throw error(
                .outOfRange(what: "an integer", bound: "in \(range.lowerBound)…\(range.upperBound)", found: "\(whole)"))
        }
        return whole
    }

    /// A finite number greater than zero.
    public func positiveDouble() throws -> Double {
        let number = try double()
        guard number > 0 else {
            throw error(.outOfRange(what: "a number", bound: "> 0", found: JSONPath.format(number)))
        }
        return number
    }

    /// A finite number greater than or equal to zero.
    public func nonNegativeDouble() throws -> Double {
        let number = try double()
        guard number >= 0 else {
            throw error(.outOfRange(what: "a number", bound: ">= 0", found: JSONPath.format(number)))
        }
        return number
    }

    /// A whole number that fits in `Int` (written `3` or `3.0` or `3e0` in the file).
    public func int() throws -> Int {
        guard case .number(let number) = value else { throw typeError(expected: "an integer") }
        guard number.rounded() == number, let whole = Int(exactly: number) else {
            throw error(.expected("an integer", found: JSONPath.format(number)))
        }
        return whole
    }

    /// A whole number >= 0 that fits in `Int`.
    public func nonNegativeInt() throws -> Int {
        let whole = try int()
        guard whole >= 0 else { throw error(.outOfRange(what: "an integer", bound: ">= 0", found: "\(whole)")) }
        return whole
    }

    /// A whole number > 0 that fits in `Int`.
    public func positiveInt() throws -> Int {
        let whole = try int()
        guard whole > 0 else { throw error(.outOfRange(what: "an integer", bound: "> 0", found: "\(whole)")) }
        return whole
    }

    /// `true` or `false`.
    public func bool() throws -> Bool {
        guard case .bool(let flag) = value else { throw typeError(expected: "true or false") }
        return flag
    }
}

/// Key lookup in one JSON object that remembers which keys the decoder asked for, so ``finish()`` can report
/// keys the decoder does not know (usually typos) with the list of keys it does.
///
/// Scenario and content decoders call ``required(_:)`` and ``optional(_:)`` for every key they understand and
/// then ``finish()``. A class, because the set of known keys grows as the decoder reads.
public final class JSONObjectReader {
    /// The reader for the object itself (its path is where "missing key" errors are located).
    public let reader: JSONReader
    private let object: JSONObject
    private var known: [String] = []
    private var knownSet: Set<String> = []

    init(_ reader: JSONReader, _ object: JSONObject) {
        self.reader = reader
        self.object = object
    }

    /// The keys present, in document order.
    public var keys: [String] { object.keys }

    /// The value at `key`, which must be present; the error is located at the object: missing key "x".
    public func required(_ key: String) throws -> JSONReader {
        markKnown(key)
        guard let value = object[key] else { throw reader.error(.missing("key \(JSONString.quoted(key))")) }
        return child(key, value)
    }

    /// The value at `key` if present (including an explicit `null`); records `key` as known either way.
    public func optional(_ key: String) -> JSONReader? {
        markKnown(key)
        return object[key].map { child(key, $0) }
    }

    /// Whether `key` is present. Does not mark it known.
    public func has(_ key: String) -> Bool {
        object[key] != nil
    }

    /// Records keys as known without reading them (for keys handled elsewhere).
    public func markKnown(_ keys: String...) {
        for key in keys where knownSet.insert(key).inserted { known.append(key) }
    }

    /// Throws if the object has keys never asked for via ``required(_:)``, ``optional(_:)`` or
    /// ``markKnown(_:)``: `unknown key "foo" (expected one of: a, b, c)`, located at the object's path.
    public func finish() throws {
        let unknown = object.keys.filter { !knownSet.contains($0) }
        guard !unknown.isEmpty else { return }
        throw reader.error(.unknownKeys(unknown.map(JSONString.quoted), known: known))
    }

    private func child(_ key: String, _ value: JSONValue) -> JSONReader {
        JSONReader(value, file: reader.file, path: JSONPath.key(reader.path, key))
    }
}

/// Building JSON path strings and quoting names for messages; used by the parser and the readers.
enum JSONPath {
    /// `path.key` for identifier-like keys, `path["key"]` otherwise.
    static func key(_ path: String, _ key: String) -> String {
        isIdentifier(key) ? path + "." + key : path + "[" + JSONString.quoted(key) + "]"
    }

    /// `path[index]`.
    static func index(_ path: String, _ index: Int) -> String {
        path + "[\(index)]"
    }

    /// Whether `key` is an ASCII identifier (letter or `_`, then letters, digits, `_`).
    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }

    /// A number as a user would write it: `3` for whole values, `2.5`, `1e-07` otherwise.
    static func format(_ number: Double) -> String {
        if number.isFinite, number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }
}
