/// One `--name` option of a command: a flag (`--verbose`) or an option taking a value (`--out DIR`).
public struct OptionSpec: Sendable, Equatable {
    /// The name without dashes: `"out"` for `--out`.
    public var name: String
    /// The placeholder shown in help for the value (`DIR`); `nil` for flags.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// Whether the option takes no value.
    public var isFlag: Bool
    /// Whether the option may be given more than once (`--trace a --trace b`); otherwise repeating it is an error.
    public var isRepeatable: Bool
    /// The value used when the option is not given (shown in help); `nil` for none.
    public var defaultValue: String?

    /// Creates an option; prefer ``flag(_:help:)`` and ``option(_:valueName:help:defaultValue:isRepeatable:)``.
    public init(
        name: String, valueName: String?, help: String, isFlag: Bool, isRepeatable: Bool = false,
        defaultValue: String? = nil
    ) {
        precondition(!name.isEmpty && !name.hasPrefix("-"), "option names are given without dashes")
        precondition(!isFlag || defaultValue == nil, "a flag has no default value")
        self.name = name
        self.valueName = isFlag ? nil : (valueName ?? "VALUE")
        self.help = help
        self.isFlag = isFlag
        self.isRepeatable = isRepeatable
        self.defaultValue = defaultValue
    }

    /// A flag: `--name`, true when present.
    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, isFlag: true)
    }

    /// An option with a value: `--name VALUE` or `--name=VALUE`.
    public static func option(
        _ name: String, valueName: String = "VALUE", help: String, defaultValue: String? = nil,
        isRepeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, valueName: valueName, help: help, isFlag: false, isRepeatable: isRepeatable,
            defaultValue: defaultValue)
    }
}

/// One positional argument of a command, such as `SCENARIO` or `TRACE...`.
public struct PositionalSpec: Sendable, Equatable {
    /// The placeholder, conventionally upper case (`SCENARIO`); used in help and in "missing SCENARIO".
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether it may be left out (only positionals after all required ones may be optional).
    public var isOptional: Bool
    /// Whether it takes all remaining positional arguments (only the last positional may be variadic). A variadic
    /// positional that is not optional needs at least one argument.
    public var isVariadic: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, isOptional: Bool = false, isVariadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
    }
}

/// The declaration of one `abrsim` (sub)command: its name, summary, positionals and options.
///
/// The executable builds one per subcommand, calls ``parse(_:spec:)`` on the arguments after the subcommand
/// name, and prints ``usage()`` when ``ParsedArguments/helpRequested`` is set. `-h` and `--help` are always
/// understood and need not be declared.
public struct CommandSpec: Sendable, Equatable {
    /// The command as the user types it, e.g. `"abrsim run"`; used in help and error messages.
    public var name: String
    /// One sentence saying what the command does.
    public var summary: String
    /// The positional arguments, in order.
    public var positionals: [PositionalSpec]
    /// The options, in the order help lists them.
    public var options: [OptionSpec]

    /// Creates a command, checking that the declaration itself is consistent.
    public init(name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec] = []) {
        for (index, positional) in positionals.enumerated() {
            precondition(
                !positional.isVariadic || index == positionals.count - 1, "only the last positional may be variadic")
            precondition(
                positional.isOptional || index == 0 || !positionals[index - 1].isOptional,
                "a required positional cannot follow an optional one")
        }
        let names = options.map(\.name)
        precondition(Set(names).count == names.count, "duplicate option names in \(name)")
        precondition(!names.contains("help"), "--help is built in")
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
    }

    /// The declared option called `name`, if any.
    public func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The options as typed, `--help` last: the valid names an unknown option's error lists.
    var optionNames: [String] { options.map { "--\($0.name)" } + ["--help"] }

    /// The help text: summary, a usage line, and aligned descriptions of arguments and options.
    public func usage() -> String {
        var synopsis = name
        if !options.isEmpty { synopsis += " [options]" }
        for positional in positionals {
            let word = positional.name + (positional.isVariadic ? "..." : "")
            synopsis += positional.isOptional ? " [\(word)]" : " \(word)"
        }
        var rows: [(String, String)] = []
        var lines = ["\(name) — \(summary)", "", "Usage: \(synopsis)"]
        if !positionals.isEmpty {
            rows = positionals.map { ($0.name + ($0.isVariadic ? "..." : ""), $0.help) }
            lines += ["", "Arguments:"] + Self.table(rows)
        }
        rows = options.map { option in
            var help = option.help
            if let value = option.defaultValue { help += " (default: \(value))" }
            if option.isRepeatable { help += " (repeatable)" }
            return ("--" + option.name + (option.valueName.map { " " + $0 } ?? ""), help)
        }
        rows.append(("-h, --help", "Show this help and exit"))
        lines += ["", "Options:"] + Self.table(rows)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two aligned columns; a left side too long for the column puts its help on the next line.
    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(rows.map(\.0.count).max() ?? 0, 26)
        return rows.map { left, help in
            if left.count > width { return "  \(left)\n  \(String(repeating: " ", count: width))  \(help)" }
            return "  \(left)\(String(repeating: " ", count: width - left.count))  \(help)"
        }
    }
}

/// The result of ``parse(_:spec:)``: option values, flags and positionals, with typed accessors.
///
/// Asking for an option the command does not declare is a programming error (a precondition failure), so a
/// misspelt name in the executable shows up at once rather than as a silently missing value.
public struct ParsedArguments: Sendable, Equatable {
    /// The command these arguments were parsed for.
    public let spec: CommandSpec
    /// Whether `-h` or `--help` was given; the caller then prints ``CommandSpec/usage()`` and exits with status 0.
    /// When it is set nothing else is checked or filled in.
    public internal(set) var helpRequested = false
    /// The positional arguments in order (including those after `--`).
    public internal(set) var positionals: [String] = []
    /// The values given for each option, in order; flags map to empty arrays.
    var given: [String: [String]] = [:]

    /// The value of option `name`: the last one given, else its default, else `nil`.
    public func value(_ name: String) -> String? {
        let option = declared(name)
        precondition(!option.isFlag, "--\(name) is a flag; use flag(_:)")
        return given[name]?.last ?? option.defaultValue
    }

    /// Every value given for option `name`, in order; its default alone when it was not given.
    public func values(_ name: String) -> [String] {
        let option = declared(name)
        precondition(!option.isFlag, "--\(name) is a flag; use flag(_:)")
        return given[name] ?? option.defaultValue.map { [$0] } ?? []
    }

    /// Whether flag `name` was given (`"help"` is also accepted).
    public func flag(_ name: String) -> Bool {
        if name == "help" { return helpRequested }
        precondition(declared(name).isFlag, "--\(name) takes a value; use value(_:)")
        return given[name] != nil
    }

    /// The value of option `name` as a finite number, `nil` when absent; a value that is not one is an error.
    public func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw InputError(.option("--\(name)"), .expected("a number", found: "'\(text)'"))
        }
        return number
    }

    /// The value of option `name` as an integer, `nil` when absent; a value that is not one is an error.
    public func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else {
            throw InputError(.option("--\(name)"), .expected("an integer", found: "'\(text)'"))
        }
        return number
    }

    /// The value of option `name` as an integer in `range`, `nil` when absent; anything else is an error naming
    /// the option and the range.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let number = try int(name) else { return nil }
        guard range.contains(number) else {
            throw InputError(
                .option("--\(name)"),
                .mustBe(nil, rule: "in \(range.lowerBound)…\(range.upperBound)", found: "\(number)"))
        }
        return number
    }

    /// The value of option `name` as a number in `range`, `nil` when absent; anything else is an error naming the
    /// option and the range.
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let number = try double(name) else { return nil }
        guard range.contains(number) else {
            throw InputError(
                .option("--\(name)"),
                .mustBe(
                    nil,
                    rule: "in \(formatParameterNumber(range.lowerBound))…\(formatParameterNumber(range.upperBound))",
                    found: formatParameterNumber(number)))
        }
        return number
    }

    /// The argument given for the positional called `name` (for a variadic one, the first), or `nil`.
    public func positional(_ name: String) -> String? { positionalValues(name).first }

    /// The arguments given for the positional called `name` (several for a variadic one).
    public func positionalValues(_ name: String) -> [String] {
        guard let index = spec.positionals.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("\(spec.name) declares no positional \(name)")
        }
        let start = min(index, positionals.count)
        if spec.positionals[index].isVariadic { return Array(positionals[start...]) }
        return start < positionals.count ? [positionals[start]] : []
    }

    private func declared(_ name: String) -> OptionSpec {
        guard let option = spec.option(named: name) else { preconditionFailure("\(spec.name) declares no --\(name)") }
        return option
    }
}

/// Parses the arguments that follow the (sub)command name against `spec`.
///
/// Understands `--name value`, `--name=value`, flags, repeated options, `--` (everything after it is positional),
/// a lone `-` as a positional (standard input), and `-h`/`--help` anywhere before `--`, which short-cuts all other
/// checks. An option's value is the next argument unless that looks like another option; negative numbers
/// (`--offset -3`) are values. Errors are ``InputError``s without a file, such as
/// `unknown option --foo for 'abrsim run'`, `--out needs a value`, `missing SCENARIO`.
public func parse(_ args: [String], spec: CommandSpec) throws -> ParsedArguments {
    var result = ParsedArguments(spec: spec)
    let beforeTerminator = args.prefix { $0 != "--" }
    if beforeTerminator.contains(where: { $0 == "-h" || $0 == "--help" }) {
        result.helpRequested = true
        return result
    }
    var loose: [String] = []
    var index = 0
    while index < args.count {
        let argument = args[index]
        index += 1
        if argument == "--" {
            loose += args[index...]
            break
        }
        guard looksLikeOption(argument) else {
            loose.append(argument)
            continue
        }
        guard argument.hasPrefix("--") else {
            throw InputError(.none, .unknownName(argument, kind: "option", known: spec.optionNames))
        }
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let option = spec.option(named: name) else {
            throw InputError(.none, .unknownName("--\(name)", kind: "option", known: spec.optionNames))
        }
        if result.given[name] != nil, !option.isRepeatable {
            throw InputError(.none, .duplicate("--\(name)", of: "option"))
        }
        if option.isFlag {
            if let inlineValue {
                throw InputError(.option("--\(name)"), .expected("no value (it is a flag)", found: "'\(inlineValue)'"))
            }
            result.given[name, default: []] = []
            continue
        }
        var value = inlineValue
        if value == nil, index < args.count, !looksLikeOption(args[index]), args[index] != "--" {
            value = args[index]
            index += 1
        }
        guard let value else { throw InputError(.option("--\(name)"), .required("a value")) }
        result.given[name, default: []].append(value)
    }
    result.positionals = try checkPositionals(loose, spec: spec)
    return result
}

/// Whether `argument` is written like an option: a dash followed by something that is not a number.
private func looksLikeOption(_ argument: String) -> Bool {
    guard argument.hasPrefix("-"), argument.count > 1 else { return false }
    return Double(argument) == nil
}

/// Checks the positional arguments' count against the declaration.
private func checkPositionals(_ loose: [String], spec: CommandSpec) throws -> [String] {
    var remaining = loose.count
    for positional in spec.positionals {
        if remaining == 0 {
            if positional.isOptional { break }
            throw InputError(.none, positional.isVariadic ? .noneGiven(positional.name) : .missing(positional.name))
        }
        remaining = positional.isVariadic ? 0 : remaining - 1
    }
    if remaining > 0 {
        throw InputError(
            .none, .expected("no more arguments for '\(spec.name)'", found: "'\(loose[loose.count - remaining])'"))
    }
    return loose
}
