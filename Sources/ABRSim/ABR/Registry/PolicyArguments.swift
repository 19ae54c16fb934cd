/// The parameters of one policy instance, as a factory reads them: each through its declared ``Parameter``.
///
/// Built by ``PolicyRegistry`` after it has checked every given value against the descriptor's declarations, and
/// handed to the descriptor's `make`.
public struct PolicyArguments {
    /// The spec they came from.
    public let spec: PolicySpec
    /// Where the spec was written, for errors (`scenario.json: $.players[0].policy`).
    public let file: String?
    /// JSON path or command-line source.
    public let location: String?

    /// An error about this policy's parameters: `problem` within `policy 'label'`.
    public func error(_ problem: InputProblem) -> InputError {
        InputError(
            InputPlace(file: file, position: location.map(InputPlace.Position.init(text:))),
            .within("policy '\(spec.label)'", problem))
    }

    /// Checks every given parameter against `declared`: each must be declared and accepted (a variant index also
    /// against a ladder of `variantCount` rungs, when given).
    public func check(against declared: [PolicyParameter], variantCount: Int? = nil) throws {
        for (name, value) in spec.parameters {
            guard let parameter = declared.first(where: { $0.name == name }) else {
                throw error(.unknownParameter(name, known: declared.map(\.name)))
            }
            if let problem = parameter.problem(with: value, variantCount: variantCount) { throw error(problem) }
        }
    }

    /// Largest magnitude of a number parameter (10¹²): no policy means more, and products of such numbers stay
    /// finite.
    public static let maximumNumber = 1e12
    /// Largest count parameter by default (windows, horizons, histories, sample counts: each sizes memory).
    public static let maximumCount = 10_000

    /// The value of `parameter`: the one given, checked against its declaration, or its default.
    public func value<Value>(_ parameter: Parameter<Value>) throws -> Value {
        guard let given = spec.parameters.first(where: { $0.name == parameter.name })?.value else {
            return parameter.defaultValue
        }
        if let problem = parameter.declaration.problem(with: given) { throw error(problem) }
        guard let value = parameter.decode(given) else {
            throw error(.mustBe(parameter.name, rule: parameter.declaration.acceptedText, found: "'\(given)'"))
        }
        return value
    }
}

/// A declared parameter bound to the field of a policy's configuration that it sets, so a factory sets every
/// field from one list: `try arguments.configure(&configuration, HlsJsPolicy.Parameters.all)`.
public struct ParameterBinding<Configuration>: DeclaredParameter {
    public let declaration: PolicyParameter
    let apply: @Sendable (PolicyArguments, inout Configuration) throws -> Void

    /// `parameter` setting `field`.
    public init<Value>(_ parameter: Parameter<Value>, _ field: WritableKeyPath<Configuration, Value> & Sendable) {
        declaration = parameter.declaration
        apply = { arguments, configuration in configuration[keyPath: field] = try arguments.value(parameter) }
    }
}

extension PolicyArguments {
    /// Sets each bound field of `configuration` to its parameter's value (the default when not given).
    public func configure<Configuration>(
        _ configuration: inout Configuration, _ bindings: [ParameterBinding<Configuration>]
    ) throws {
        for binding in bindings { try binding.apply(self, &configuration) }
    }
}
