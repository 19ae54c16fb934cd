/// A minimal JSON writer for one-line messages: objects with keys in the order written, numbers in the
/// deterministic form of ``formatCSVNumber(_:)`` (non-finite numbers become `null`), escaped strings.
/// Used by ``ExternalPolicy`` to build its requests; the same context always gives the same bytes.
struct JSONLineWriter {
    /// The text so far.
    private(set) var text = "{"
    private var isFirst = true

    /// Writes `"key":` with a separating comma if needed.
    private mutating func key(_ name: String) {
        if !isFirst { text += "," }
        isFirst = false
        text += JSONString.quoted(name) + ":"
    }

    /// A number field.
    mutating func number(_ name: String, _ value: Double) {
        key(name)
        text += Self.number(value)
    }

    /// An integer field, or `null`.
    mutating func integer(_ name: String, _ value: Int?) {
        key(name)
        text += value.map { String($0) } ?? "null"
    }

    /// A string field.
    mutating func string(_ name: String, _ value: String) {
        key(name)
        text += JSONString.quoted(value)
    }

    /// A boolean field.
    mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// An array of numbers.
    mutating func numbers(_ name: String, _ values: [Double]) {
        key(name)
        text += "[" + values.map(Self.number).joined(separator: ",") + "]"
    }

    /// A field whose value is already JSON text (a nested object or array).
    mutating func raw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    /// The finished object.
    func finished() -> String { text + "}" }

    /// A number as JSON: ``formatCSVNumber(_:)`` for finite values, `null` otherwise.
    static func number(_ value: Double) -> String {
        value.isFinite ? formatCSVNumber(value) : "null"
    }
}
