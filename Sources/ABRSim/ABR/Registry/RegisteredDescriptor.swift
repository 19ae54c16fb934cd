/// A registered, parameterised thing a scenario names by spec (`hlsjs(bandwidthFactor=0.9)`): its name, its
/// parameters declared once (``Parameter``), and how to make a fresh `Instance` from checked arguments and an
/// `Environment`. ABR policies (``PolicyDescriptor``) and preload policies (``PreloadPolicyDescriptor``) are
/// registered this way; their registries check specs against ``parameters`` and call ``make``.
public struct RegisteredDescriptor<Environment, Instance>: Sendable {
    /// The name used in specs.
    public var name: String
    /// One line on what it is and where it comes from.
    public var summary: String
    /// Accepted parameters, each declared once, in listing order.
    public var parameters: [PolicyParameter]
    /// Makes a fresh instance from checked arguments.
    public var make: @Sendable (PolicyArguments, Environment) throws -> Instance

    /// A descriptor over `parameters` (``PolicyParameter``s or typed ``Parameter``s).
    public init(
        name: String, summary: String, parameters: [any DeclaredParameter],
        make: @escaping @Sendable (PolicyArguments, Environment) throws -> Instance
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters.map(\.declaration)
        self.make = make
    }

    /// The declaration named `name`.
    public func parameter(named name: String) -> PolicyParameter? {
        parameters.first { $0.name == name }
    }

    /// The spec that writes out every declared default (`hlsjs(bandwidthFactor=0.95,…)`); parameters without a
    /// default are left out.
    public var defaultSpec: PolicySpec {
        PolicySpec(name: name, parameters: parameters.compactMap { p in p.defaultValue.map { (p.name, $0) } })
    }

    /// Every declared parameter's value under `spec`: the one given, else the default (parameters with neither are
    /// left out). Two specs with equal resolutions make the same policy.
    public func resolved(_ spec: PolicySpec) -> [String: PolicySpec.Value] {
        var values: [String: PolicySpec.Value] = [:]
        for parameter in parameters {
            if let value = spec.parameters.first(where: { $0.name == parameter.name })?.value ?? parameter.defaultValue
            {
                values[parameter.name] = value
            }
        }
        return values
    }
}
