/// One `--set PATH=VALUE` edit of a parsed scenario document, applied before the scenario is decoded.
///
/// `PATH` is a JSON path in the syntax error messages use (`$.players[0].policy`, `$["my key"]`), with the
/// leading `$.` optional and `[*]` for every element of an array (`players[*].preferredForwardBufferDuration`).
/// `VALUE` is JSON (`4`, `true`, `"bba"`, `{"strategy": "equal"}`); a bare word that is not JSON is taken as a
/// string (`bba`). Because the edit is made on the parsed document, every key the scenario format has works, and
/// the decoder reports a bad value at its JSON path as it would in the file. Missing objects on the way are
/// created; a missing array element is an error. Made by `run`, `compare`, `sweep`, `check` and `tune` from their
/// `--set` options (and by `sweep --grid` for each value); applied by ``ScenarioLoader``.
public struct ScenarioSetting: Sendable, Equatable {
    /// One step of a path.
    public enum Step: Sendable, Equatable {
        /// An object's key.
        case key(String)
        /// An array's element.
        case index(Int)
        /// Every element of an array (`[*]`).
        case everyElement
    }

    /// The path as the user wrote it.
    public let pathText: String
    /// The path's steps from the document's root.
    public let steps: [Step]
    /// The value the path is set to.
    public let value: JSONValue
    /// The value as the user wrote it (what a sweep's setting column shows).
    public let valueText: String
    /// The option it came from, for messages (`--set`, `--grid`).
    public let option: String

    /// An edit of `path` to `value`; `option` names its source in messages.
    public init(path: String, steps: [Step], value: JSONValue, valueText: String, option: String = "--set") {
        self.pathText = path
        self.steps = steps
        self.value = value
        self.valueText = valueText
        self.option = option
    }

    /// Parses `PATH=VALUE`.
    public static func parse(_ argument: String, option: String = "--set") throws -> ScenarioSetting {
        guard let equals = argument.firstIndex(of: "=") else {
            throw InputError(.option(option), .expected("PATH=VALUE", found: "'\(argument)'"))
        }
        let path = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        let steps = try parsePath(path, option: option)
        return ScenarioSetting(
            path: path, steps: steps, value: try parseValue(text, path: path, option: option), valueText: text,
            option: option)
    }

    /// A JSON value as written on a command line: JSON, or else a bare word as a string.
    public static func parseValue(_ text: String, path: String, option: String) throws -> JSONValue {
        guard !text.isEmpty else { throw InputError(.option(option), .within(path, .missing("a value after '='"))) }
        do {
            return try JSONParser.parse(Array(text.utf8), file: option)
        } catch let error as InputError {
            let first = text.unicodeScalars.first!
            let looksLikeJSON = "{[\"".unicodeScalars.contains(first)
            guard !looksLikeJSON else {
                throw InputError(.option(option), .within("\(path)=\(text)", error.problem))
            }
            return .string(text)
        }
    }

    /// The steps of a path: `$` optional, then `.key`, `["key"]`, `[N]` or `[*]`; the first key may omit its dot.
    public static func parsePath(_ path: String, option: String) throws -> [Step] {
        let scalars = Array(path.unicodeScalars)
        var position = 0
        var steps: [Step] = []
        func fail(_ problem: InputProblem) -> InputError {
            InputError(.option(option), .within("bad path '\(path)'", problem))
        }
        func found(at index: Int) -> String { index < scalars.count ? "'\(scalars[index])'" : "the end" }
        if position < scalars.count, scalars[position] == "$" { position += 1 }
        func isKeyScalar(_ s: Unicode.Scalar) -> Bool {
            s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "-"
        }
        func readKey() throws -> String {
            let start = position
            while position < scalars.count, isKeyScalar(scalars[position]) { position += 1 }
            guard position > start else {
                throw fail(.expected("a key at character \(start + 1)", found: found(at: start)))
            }
            var key = ""
            key.unicodeScalars.append(contentsOf: scalars[start..<position])
            return key
        }
        if position < scalars.count, isKeyScalar(scalars[position]) { steps.append(.key(try readKey())) }
        while position < scalars.count {
            switch scalars[position] {
            case ".":
                position += 1
                steps.append(.key(try readKey()))
            case "[":
                guard let close = scalars[position...].firstIndex(of: "]") else {
                    throw fail(.missing("the ']' that closes the '['"))
                }
                var inner = ""
                inner.unicodeScalars.append(contentsOf: scalars[(position + 1)..<close])
                position = close + 1
                if inner == "*" {
                    steps.append(.everyElement)
                } else if let index = Int(inner), index >= 0 {
                    steps.append(.index(index))
                } else if inner.hasPrefix("\""), inner.hasSuffix("\""), inner.count >= 2,
                    case .string(let key) = try? JSONParser.parse(Array(inner.utf8), file: option)
                {
                    steps.append(.key(key))
                } else {
                    throw fail(.isNot("[N], [*] or [\"key\"]", subject: nil, found: "'[\(inner)]'"))
                }
            default:
                throw fail(.expected("'.' or '[' at character \(position + 1)", found: found(at: position)))
            }
        }
        guard !steps.isEmpty else {
            throw fail(.mustBe(nil, rule: "a key or element, not the whole document", found: "'\(path)'"))
        }
        return steps
    }

    /// The path in canonical form (`$.players[*].policy`).
    public var canonicalPath: String {
        steps.reduce("$") { path, step in
            switch step {
            case .key(let key): JSONPath.key(path, key)
            case .index(let index): JSONPath.index(path, index)
            case .everyElement: path + "[*]"
            }
        }
    }

    /// `document` with this edit made; errors name `file` and the JSON path where the path cannot be followed.
    public func apply(to document: JSONValue, file: String) throws -> JSONValue {
        try apply(steps[...], to: document, file: file, path: "$")
    }

    private func apply(_ rest: ArraySlice<Step>, to node: JSONValue?, file: String, path: String) throws -> JSONValue {
        guard let step = rest.first else { return value }
        let remaining = rest.dropFirst()
        func fail(_ problem: InputProblem) -> InputError {
            InputError(
                InputPlace(file: file, position: InputPlace.Position(text: path)),
                .within("\(option) \(pathText)", problem))
        }
        func notAnArray(_ node: JSONValue?) -> InputError {
            fail(node.map { .expected("an array", found: $0.foundDescription) } ?? .missing("the array"))
        }
        switch step {
        case .key(let key):
            var object: JSONObject
            switch node {
            case .object(let existing)?: object = existing
            case nil: object = JSONObject()
            case let other?: throw fail(.expected("an object", found: other.foundDescription))
            }
            object[key] = try apply(remaining, to: object[key], file: file, path: JSONPath.key(path, key))
            return .object(object)
        case .index(let index):
            guard case .array(var elements)? = node else { throw notAnArray(node) }
            guard index < elements.count else {
                throw fail(
                    .mustBeRelative(
                        "index", found: "\(index)", rule: "less than", other: "the array's length",
                        otherValue: "\(elements.count)"))
            }
            elements[index] = try apply(
                remaining, to: elements[index], file: file, path: JSONPath.index(path, index))
            return .array(elements)
        case .everyElement:
            guard case .array(var elements)? = node else { throw notAnArray(node) }
            for index in elements.indices {
                elements[index] = try apply(
                    remaining, to: elements[index], file: file, path: JSONPath.index(path, index))
            }
            return .array(elements)
        }
    }

    /// Whether an error located at `location` (a concrete JSON path) is about the value this edit wrote: at its
    /// path or inside it (`[*]` matching any index), or an unknown-key error at its parent naming its last key.
    public func isCause(ofErrorAt location: String, problem: InputProblem) -> Bool {
        if Self.location(location, isWithin: canonicalPath) { return true }
        guard case .key(let key)? = steps.last, case .unknownKeys(let names, _) = problem else { return false }
        let parent = ScenarioSetting(path: pathText, steps: Array(steps.dropLast()), value: value, valueText: valueText)
        return (steps.count == 1 ? location == "$" : Self.location(location, isWithin: parent.canonicalPath))
            && names.contains(JSONString.quoted(key))
    }

    /// Whether `location` equals `pattern` or lies inside it, `[*]` in the pattern matching any `[N]`.
    static func location(_ location: String, isWithin pattern: String) -> Bool {
        var text = Substring(location)
        var rest = Substring(pattern)
        while !rest.isEmpty {
            if rest.hasPrefix("[*]") {
                guard text.hasPrefix("["), let close = text.firstIndex(of: "]"),
                    Int(text[text.index(after: text.startIndex)..<close]) != nil
                else { return false }
                text = text[text.index(after: close)...]
                rest = rest.dropFirst(3)
            } else {
                guard let first = text.first, first == rest.first else { return false }
                text = text.dropFirst()
                rest = rest.dropFirst()
            }
        }
        return text.isEmpty || text.hasPrefix(".") || text.hasPrefix("[")
    }

    /// Whether this edit's path starts with the steps of `prefix` (keys given as strings, `[*]` matching any
    /// element).
    public func touches(_ prefix: [String]) -> Bool {
        guard steps.count >= prefix.count else { return false }
        for (step, name) in zip(steps, prefix) {
            switch step {
            case .key(let key): if key != name { return false }
            case .index, .everyElement: if name != "[]" { return false }
            }
        }
        return true
    }
}
