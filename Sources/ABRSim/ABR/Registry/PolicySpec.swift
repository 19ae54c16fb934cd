/// A policy as a user names it: a name and parameters, from a scenario (`{"name": "bba", "reservoir": 5}` or
/// `"bba(reservoir=5)"`) or from the command line (`--policies bba(reservoir=5,cushion=10),throughput`).
public struct PolicySpec: Equatable, Sendable {
    /// One parameter value: a number, a word, or a list of words (a scenario's JSON array of strings, such as
    /// an external policy's `command`).
    public enum Value: Equatable, Sendable, CustomStringConvertible {
        case number(Double)
        case text(String)
        case list([String])

        public var description: String {
            switch self {
            case .number(let x): formatParameterNumber(x)
            case .text(let s): s
            case .list(let items): "[" + items.joined(separator: " ") + "]"
            }
        }
    }

    /// The policy's registered name (`bba`, `robust-mpc`, …).
    public var name: String
    /// Parameters in the order given.
    public var parameters: [(name: String, value: Value)]

    /// A spec from parts.
    public init(name: String, parameters: [(name: String, value: Value)] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// The spec as written in outputs' `policy` column: `name` alone, or `name(k=v,k2=v2)`.
    public var label: String {
        parameters.isEmpty
            ? name : name + "(" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ",") + ")"
    }

    /// Parses `name` or `name(k=v,…)`; `source` names where the text came from in errors.
    public static func parse(_ text: String, source: String = "policy") throws -> PolicySpec {
        let trimmed = text.trimmingWhitespace()
        guard let open = trimmed.firstIndex(of: "(") else {
            try checkName(trimmed, source: source)
            return PolicySpec(name: trimmed)
        }
        guard trimmed.hasSuffix(")") else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: source)),
                .expected("name(key=value,…) with a closing parenthesis", found: "'\(text)'"))
        }
        let name = String(trimmed[..<open]).trimmingWhitespace()
        try checkName(name, source: source)
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        var parameters: [(name: String, value: Value)] = []
        if !inner.allSatisfy({ $0 == " " }) {
            for item in inner.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: source)),
                        .within("'\(text)'", .isNot("key=value", subject: "parameter", found: "'\(item)'")))
                }
                let key = String(parts[0]).trimmingWhitespace()
                let raw = String(parts[1]).trimmingWhitespace()
                guard !key.isEmpty, !raw.isEmpty else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: source)),
                        .within("'\(text)'", .isNot("key=value", subject: "parameter", found: "'\(item)'")))
                }
                if parameters.contains(where: { $0.name == key }) {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: source)),
                        .within("'\(text)'", .duplicate(key, of: "parameter")))
                }
                if let number = Double(raw), number.isFinite {
                    parameters.append((key, .number(number)))
                } else {
                    parameters.append((key, .text(raw)))
                }
            }
        }
        return PolicySpec(name: name, parameters: parameters)
    }

    static func checkName(_ name: String, source: String) throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: source)),
                .isNot("a policy name", subject: nil, found: "'\(name)'"))
        }
    }

    public static func == (a: PolicySpec, b: PolicySpec) -> Bool {
        a.name == b.name && a.parameters.map(\.name) == b.parameters.map(\.name)
            && a.parameters.map(\.value) == b.parameters.map(\.value)
    }
}

/// A parameter number as users write it: `5` for integral values, the shortest round-trip form otherwise.
func formatParameterNumber(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return String(x)
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
