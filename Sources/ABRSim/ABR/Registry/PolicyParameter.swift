/// The numbers a number parameter accepts: from ``lower`` (excluded when ``excludesLower``) to ``upper``.
///
/// Every bound lies within ±``PolicyArguments/maximumNumber``, and a denormal number is never accepted, so products
/// of parameters stay finite.
public struct ParameterRange: Sendable, Equatable {
    /// The lowest value.
    public var lower: Double
    /// Whether ``lower`` itself is refused (`> 0` rather than `≥ 0`).
    public var excludesLower: Bool
    /// The highest value.
    public var upper: Double

    /// A range; `upper ≥ lower`.
    public init(lower: Double, excludesLower: Bool = false, upper: Double = PolicyArguments.maximumNumber) {
        precondition(upper >= lower, "a parameter range ends below its start")
        self.lower = lower
        self.excludesLower = excludesLower
        self.upper = upper
    }

    /// Above 0 (factors, half-lives, estimates).
    public static let positive = ParameterRange(lower: 0, excludesLower: true)
    /// 0 or above (buffer levels, penalties, delays).
    public static let nonNegative = ParameterRange(lower: 0)
    /// `lower…upper`, both included.
    public static func closed(_ lower: Double, _ upper: Double) -> ParameterRange {
        ParameterRange(lower: lower, upper: upper)
    }

    /// Whether `x` is in the range (a denormal never is).
    public func contains(_ x: Double) -> Bool {
        !x.isSubnormal && (excludesLower ? x > lower : x >= lower) && x <= upper
    }

    /// The range as the listing and errors show it: `> 0`, `≥ 0`, `0.02…0.5`.
    public var text: String {
        if upper == PolicyArguments.maximumNumber {
            return (excludesLower ? "> " : "≥ ") + formatParameterNumber(lower)
        }
        return (excludesLower ? "> \(formatParameterNumber(lower)) and ≤ " : "\(formatParameterNumber(lower))…")
            + formatParameterNumber(upper)
    }
}

/// One parameter of a policy, declared once: its name in specs, what it accepts, its unit, its default, where the
/// default comes from, and one line on what it means.
///
/// Parsing, validation (``PolicyRegistry``), the `abrsim policies` listing and grid checks (``PolicyGrid``) all read
/// the declaration; a policy's factory reads its value through a typed ``Parameter``.
public struct PolicyParameter: Sendable {
    /// What values the parameter accepts.
    public enum Kind: Sendable, Equatable {
        /// A number in the range.
        case number(ParameterRange)
        /// A whole number in the range.
        case count(ClosedRange<Int>)
        /// A variant index: a whole number from 0 to the ladder's top index, checked when the policy meets the
        /// content.
        case variant
        /// One of these words.
        case word([String])
        /// The name of a member of a registry, read when checked (members can be registered after the
        /// declaration).
        case member(RegisteredNames)
        /// A program and its arguments: a JSON array of strings, or words split on spaces.
        case command
    }

    /// Its name in specs (`bandwidthFactor`).
    public var name: String
    /// What it accepts.
    public var kind: Kind
    /// Its unit (`s`, `bit/s`, `segments`), empty for pure numbers and words.
    public var unit: String
    /// Its default as written in a spec, or `nil` when there is none (required, or derived from another parameter:
    /// see ``defaultNote``).
    public var defaultValue: PolicySpec.Value?
    /// What the default is when ``defaultValue`` is `nil` (`the QoE model's`, `required`).
    public var defaultNote: String
    /// Where the default comes from: the player's setting and file, or the paper.
    public var source: String
    /// What it means, in one line.
    public var help: String

    /// A declaration; prefer the typed constructors of ``Parameter``.
    public init(
        _ name: String, kind: Kind, unit: String = "", default defaultValue: PolicySpec.Value?,
        defaultNote: String = "", source: String, _ help: String
    ) {
        self.name = name
        self.kind = kind
        self.unit = unit
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.source = source
        self.help = help
    }

    /// The default as the listing shows it.
    public var defaultText: String { defaultValue?.description ?? defaultNote }

    /// The values accepted, as the listing and errors show them (`> 0`, `whole number 1…10`, `on or off`).
    public var acceptedText: String {
        switch kind {
        case .number(let range): range.text
        case .count(let range) where range == 0...1: "0 or 1"
        case .count(let range): "whole number \(range.lowerBound)…\(range.upperBound)"
        case .variant: "variant index 0…top of the ladder"
        case .word(let words): listedAsAlternatives(words)
        case .member(let names): names.alternatives
        case .command: "program and arguments"
        }
    }

    /// The parameter as `abrsim policies` lists it after its name: what it means; what it accepts, in its unit;
    /// its default and where that comes from.
    public var listingText: String {
        "\(help); \(acceptedText)\(unit.isEmpty ? "" : " " + unit) (default \(defaultText); \(source))"
    }

    /// What is wrong with `value` for this parameter, or `nil` if it is accepted. With `variantCount`, a variant
    /// index is also checked against the ladder.
    public func problem(with value: PolicySpec.Value, variantCount: Int? = nil) -> InputProblem? {
        let unitText = unit.isEmpty ? "" : " " + unit
        switch (kind, value) {
        case (.number(let range), .number(let x)):
            if range.contains(x) { return nil }
            if x.isSubnormal { return .mustBe(name, rule: "0 or of magnitude 2.2e-308…1e12", found: "\(x)") }
            if x.magnitude > PolicyArguments.maximumNumber {
                return .mustBe(name, rule: "\(range.text)\(unitText) and of magnitude at most 1e12", found: "\(x)")
            }
            return .mustBe(name, rule: "\(range.text)\(unitText)", found: formatParameterNumber(x))
        case (.count(let range), .number(let x)):
            if x == x.rounded(), x >= Double(range.lowerBound), x <= Double(range.upperBound) { return nil }
            return .mustBe(
                name, rule: "a whole number in \(range.lowerBound)…\(range.upperBound)\(unitText)",
                found: formatParameterNumber(x))
        case (.variant, .number(let x)):
            let top = variantCount.map { $0 - 1 } ?? PolicyArguments.maximumCount
            if x == x.rounded(), x >= 0, x <= Double(top) { return nil }
            let ladder = variantCount.map { " (the ladder has \($0) variant\($0 == 1 ? "" : "s"))" } ?? ""
            return .mustBe(name, rule: "a variant index in 0…\(top)\(ladder)", found: formatParameterNumber(x))
        case (.word(let words), .text(let word)) where words.contains(word): return nil
        case (.word(let words), _):
            return .mustBe(name, rule: "one of \(words.joined(separator: ", "))", found: "'\(value)'")
        case (.member(let names), .text(let word)) where names.names().contains(word): return nil
        case (.member(let names), _):
            return .mustBe(name, rule: "one of \(names.names().joined(separator: ", "))", found: "'\(value)'")
        case (.command, .list), (.command, .text): return nil
        case (.command, .number):
            return .mustBe(name, rule: "a program and its arguments", found: "'\(value)'")
        case (.number, _), (.count, _), (.variant, _):
            return .mustBe(name, rule: "a number", found: "'\(value)'")
        }
    }
}

/// Anything that declares one policy parameter: a ``PolicyParameter`` itself or a typed ``Parameter``.
public protocol DeclaredParameter: Sendable {
    /// The declaration.
    var declaration: PolicyParameter { get }
}

extension PolicyParameter: DeclaredParameter {
    public var declaration: PolicyParameter { self }
}

/// The names a ``PolicyParameter/Kind/member(_:)`` parameter accepts: a seam's registry, read each time it is
/// asked. Two are equal when they read the same seam.
public struct RegisteredNames: Sendable, Equatable {
    /// The seam's name (for equality).
    public let seam: String
    /// The registered names, in order.
    public let names: @Sendable () -> [String]

    /// The names of `S`'s registry.
    public init<S: Seam>(_ seam: S.Type) {
        self.seam = String(describing: seam)
        names = { S.registry.names }
    }

    /// The names as alternatives: "a, b or c".
    public var alternatives: String { listedAsAlternatives(names()) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.seam == rhs.seam }
}

/// A word parameter's values: an enum whose raw values are the words (`EstimatorKind`, `OnOff`).
public protocol ParameterChoice: RawRepresentable<String>, CaseIterable, Sendable {}

/// Written `on` or `off`: a switch parameter's words.
public enum OnOff: String, ParameterChoice {
    case on
    case off
}

/// A parameter with the Swift type its policy reads: the declaration, its default as that type, and how a checked
/// spec value becomes one. Policies declare these as statics and read them with ``PolicyArguments/value(_:)``.
public struct Parameter<Value: Sendable>: DeclaredParameter {
    public let declaration: PolicyParameter
    /// The default, as the policy uses it.
    public let defaultValue: Value
    /// The value of an accepted spec value (``PolicyParameter/problem(with:variantCount:)`` is `nil` for it).
    let decode: @Sendable (PolicySpec.Value) -> Value?

    /// A parameter from its parts.
    public init(
        declaration: PolicyParameter, defaultValue: Value, decode: @escaping @Sendable (PolicySpec.Value) -> Value?
    ) {
        self.declaration = declaration
        self.defaultValue = defaultValue
        self.decode = decode
    }

    /// Its name in specs.
    public var name: String { declaration.name }
}

extension Parameter where Value == Double {
    /// A number parameter.
    public static func number(
        _ name: String, default defaultValue: Double, in range: ParameterRange = .positive, unit: String = "",
        source: String, _ help: String
    ) -> Parameter {
        precondition(range.contains(defaultValue), "the default of \(name) is outside its range")
        return Parameter(
            declaration: PolicyParameter(
                name, kind: .number(range), unit: unit, default: .number(defaultValue), source: source, help),
            defaultValue: defaultValue, decode: Self.number)
    }

    @Sendable static func number(_ value: PolicySpec.Value) -> Double? {
        if case .number(let x) = value { return x }
        return nil
    }
}

extension Parameter where Value == Double? {
    /// A number parameter whose default depends on another one (`defaultNote` says which); `nil` when absent.
    public static func number(
        _ name: String, defaultNote: String, in range: ParameterRange = .nonNegative, unit: String = "",
        source: String, _ help: String
    ) -> Parameter {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .number(range), unit: unit, default: nil, defaultNote: defaultNote, source: source, help),
            defaultValue: nil, decode: { value in Parameter<Double>.number(value).map { .some($0) } })
    }
}

extension Parameter where Value == Int {
    /// A whole-number parameter (windows, horizons, histories: each sizes memory, hence the upper bound).
    public static func count(
        _ name: String, default defaultValue: Int, in range: ClosedRange<Int> = 0...PolicyArguments.maximumCount,
        unit: String = "", source: String, _ help: String
    ) -> Parameter {
        precondition(range.contains(defaultValue), "the default of \(name) is outside its range")
        return Parameter(
            declaration: PolicyParameter(
                name, kind: .count(range), unit: unit, default: .number(Double(defaultValue)), source: source, help),
            defaultValue: defaultValue, decode: Self.whole)
    }

    /// A variant index, 0 to the top of the ladder the policy plays.
    public static func variant(_ name: String, default defaultValue: Int, source: String, _ help: String)
        -> Parameter
    {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .variant, default: .number(Double(defaultValue)), source: source, help),
            defaultValue: defaultValue, decode: Self.whole)
    }

    @Sendable static func whole(_ value: PolicySpec.Value) -> Int? {
        if case .number(let x) = value, x == x.rounded(), x.magnitude <= Double(Int32.max) { return Int(x) }
        return nil
    }
}

extension Parameter where Value == Bool {
    /// A switch written `1`/`0` (dash.js-style rule toggles).
    public static func flag(_ name: String, default defaultValue: Bool, source: String, _ help: String) -> Parameter {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .count(0...1), default: .number(defaultValue ? 1 : 0), source: source, help),
            defaultValue: defaultValue, decode: { Parameter<Int>.whole($0).map { $0 == 1 } })
    }

    /// A switch written `on`/`off`.
    public static func onOff(_ name: String, default defaultValue: Bool, source: String, _ help: String)
        -> Parameter
    {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .word([OnOff.on.rawValue, OnOff.off.rawValue]),
                default: .text(defaultValue ? OnOff.on.rawValue : OnOff.off.rawValue), source: source, help),
            defaultValue: defaultValue,
            decode: { value in
                if case .text(let word) = value { return OnOff(rawValue: word).map { $0 == .on } }
                return nil
            })
    }
}

extension Parameter where Value: ParameterChoice {
    /// A word parameter, one of `Value`'s cases.
    public static func choice(_ name: String, default defaultValue: Value, source: String, _ help: String)
        -> Parameter
    {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .word(Value.allCases.map(\.rawValue)), default: .text(defaultValue.rawValue),
                source: source, help),
            defaultValue: defaultValue,
            decode: { value in
                if case .text(let word) = value { return Value(rawValue: word) }
                return nil
            })
    }
}

extension Parameter {
    /// A parameter naming a member of seam `S` (a QoE model), checked against its registry when used.
    public static func member<S: Seam>(_ name: String, default defaultValue: Value, source: String, _ help: String)
        -> Parameter where Value == Registered<S>
    {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .member(RegisteredNames(S.self)), default: .text(defaultValue.rawValue), source: source,
                help),
            defaultValue: defaultValue,
            decode: { value in
                if case .text(let word) = value { return Registered<S>(rawValue: word) }
                return nil
            })
    }
}

extension Parameter where Value == [String]? {
    /// A program and its arguments (`nil` when absent).
    public static func command(_ name: String, source: String, _ help: String) -> Parameter {
        Parameter(
            declaration: PolicyParameter(
                name, kind: .command, default: nil, defaultNote: "required", source: source, help),
            defaultValue: nil,
            decode: { value in
                switch value {
                case .list(let words): .some(words)
                case .text(let text): .some(text.split(separator: " ").map(String.init))
                case .number: .none
                }
            })
    }
}
