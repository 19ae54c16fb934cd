/// One parsed JSON value (RFC 8259), as produced by ``JSONParser`` and read through ``JSONReader``.
///
/// Numbers are `Double` (every JSON number the parser accepts is finite); objects keep their keys in document
/// order so that messages and round trips follow the file. Scenario, content and trace readers build on this.
public indirect enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number, as a finite `Double`.
    case number(Double)
    /// A string, already unescaped.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object with unique keys.
    case object(JSONObject)

    /// The kind of value with an article, for messages: "a number", "a string", "an object", "an array",
    /// "true or false", "null".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "true or false"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// How this value reads after "found" in a message: the type name, except that `true`, `false` and
    /// `null` are written as themselves.
    public var foundDescription: String {
        switch self {
        case .bool(let flag): return flag ? "true" : "false"
        default: return typeName
        }
    }
}

/// A JSON object: its keys in document order plus a dictionary for lookup. Keys are unique (the parser
/// rejects duplicates). Built by ``JSONParser``; read through ``JSONObjectReader``.
public struct JSONObject: Equatable, Sendable {
    /// The keys in the order they appear in the document.
    public var keys: [String]
    /// The values by key.
    public var values: [String: JSONValue]

    /// An object from keys in order and their values; `values` must hold exactly `keys`.
    public init(keys: [String] = [], values: [String: JSONValue] = [:]) {
        self.keys = keys
        self.values = values
    }

    /// An object from key–value pairs in order; a repeated key keeps its last value and first position.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// The value for `key`, or `nil` when absent. Setting appends a new key at the end; setting `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The number of keys.
    public var count: Int { keys.count }
}
