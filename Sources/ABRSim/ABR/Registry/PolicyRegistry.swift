/// One parameter a policy accepts, for validation and for `abrsim policies`.
public struct PolicyParameter: Sendable {
    /// Its name in specs.
    public var name: String
    /// Its default, as text (`0.9`, `ewma`).
    public var defaultValue: String
    /// What it means, with units.
    public var help: String

    /// A parameter description.
    public init(_ name: String, default defaultValue: String, _ help: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
    }
}

/// The parameters of one policy instance, checked against its declared ``PolicyParameter``s.
public struct PolicyArguments {
    /// The spec they came from.
    public let spec: PolicySpec
    /// Where the spec was written, for errors (`scenario.json: $.players[0].policy`).
    public let file: String?
    /// JSON path or command-line source.
    public let location: String?

    /// An error about this policy's parameters.
    public func error(_ message: String) -> InputError {
        InputError(file: file, location: location, "policy '\(spec.label)': \(message)")
    }

    /// Largest magnitude of a number parameter (10¹²): no policy means more, and products of such numbers stay
    /// finite.
    public static let maximumNumber = 1e12
    /// Largest count parameter by default (windows, horizons, histories, sample counts: each sizes memory).
    public static let maximumCount = 10_000

    /// A number parameter, or `defaultValue` when absent; a denormal number or one beyond ±``maximumNumber`` is
    /// an error.
    public func number(_ name: String, default defaultValue: Double) throws -> Double {
        guard let value = spec.parameters.first(where: { $0.name == name })?.value else { return defaultValue }
        guard case .number(let x) = value else { throw error("\(name) must be a number, got '\(value)'") }
        guard !x.isSubnormal, x.magnitude <= Self.maximumNumber else {
            throw error("\(name) must be 0 or of magnitude 2.2e-308…1e12, got \(x)")
        }
        return x
    }

    /// A positive number parameter.
    public func positive(_ name: String, default defaultValue: Double) throws -> Double {
        let x = try number(name, default: defaultValue)
        guard x > 0 else { throw error("\(name) must be positive, got \(formatParameterNumber(x))") }
        return x
    }

    /// A non-negative integer parameter, at most `maximum` (``maximumCount`` unless the policy documents another
    /// bound): every count of a policy sizes what it holds.
    public func count(_ name: String, default defaultValue: Int, maximum: Int = maximumCount) throws -> Int {
        let x = try number(name, default: Double(defaultValue))
        guard x >= 0, x == x.rounded() else {
            throw error("\(name) must be a whole number ≥ 0, got \(formatParameterNumber(x))")
        }
        guard x <= Double(maximum) else {
            throw error("\(name) must be at most \(maximum), got \(formatParameterNumber(x))")
        }
        return Int(x)
    }

    /// A word parameter, one of `choices`.
    public func choice(_ name: String, default defaultValue: String, among choices: [String]) throws -> String {
        guard let value = spec.parameters.first(where: { $0.name == name })?.value else { return defaultValue }
        let text = value.description
        guard choices.contains(text) else {
            throw error("\(name) must be one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}

/// What a policy factory may use besides its parameters.
public struct PolicyEnvironment {
    /// The run's seed, for randomised policies (derive a ``RandomSource`` from it).
    public var seed: UInt64
    /// Index of the player the policy serves (to derive distinct random streams).
    public var playerIndex: Int
    /// The network the player will see, for policies that know the future (`optimal`); `nil` when unknown.
    public var curve: CapacityCurve?
    /// The content the player will play, when known.
    public var content: Content?
    /// The player's settings, when known.
    public var settings: PlayerSettings?
    /// The folder of the scenario file (working directory of external policies), when known.
    public var directory: String?

    /// An environment; the optional parts default to unknown.
    public init(
        seed: UInt64, playerIndex: Int, curve: CapacityCurve? = nil, content: Content? = nil,
        settings: PlayerSettings? = nil, directory: String? = nil
    ) {
        self.seed = seed
        self.playerIndex = playerIndex
        self.curve = curve
        self.content = content
        self.settings = settings
        self.directory = directory
    }
}

/// A registered policy: name, parameters, and how to make an instance.
public struct PolicyDescriptor: Sendable {
    /// The name used in specs.
    public var name: String
    /// One line on what it is and where it comes from.
    public var summary: String
    /// Accepted parameters with their defaults.
    public var parameters: [PolicyParameter]
    /// Makes a fresh instance (one per player per run).
    public var make: @Sendable (PolicyArguments, PolicyEnvironment) throws -> any ABRPolicy

    /// A descriptor.
    public init(
        name: String, summary: String, parameters: [PolicyParameter],
        make: @escaping @Sendable (PolicyArguments, PolicyEnvironment) throws -> any ABRPolicy
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.make = make
    }
}

/// The policies a run may name: the built-in ones plus any a user registers (a Swift plug-in conforming to
/// ``ABRPolicy``). A value, passed to scenario loading, so there is no global mutable state.
public struct PolicyRegistry: Sendable {
    /// Descriptors in listing order.
    public private(set) var descriptors: [PolicyDescriptor] = []

    /// An empty registry.
    public init() {}

    /// Adds (or replaces) a policy under its name.
    public mutating func register(_ descriptor: PolicyDescriptor) {
        if let index = descriptors.firstIndex(where: { $0.name == descriptor.name }) {
            descriptors[index] = descriptor
        } else {
            descriptors.append(descriptor)
        }
    }

    /// The descriptor named `name`.
    public func descriptor(named name: String) -> PolicyDescriptor? {
        descriptors.first { $0.name == name }
    }

    /// Checks that `spec` names a registered policy with known parameter names, without making an instance
    /// (which for some policies starts a process or solves a program).
    public func validate(_ spec: PolicySpec, file: String? = nil, location: String? = nil) throws {
        _ = try checkedDescriptor(spec, file: file, location: location)
    }

    func checkedDescriptor(_ spec: PolicySpec, file: String?, location: String?) throws -> PolicyDescriptor {
        guard let descriptor = descriptor(named: spec.name) else {
            throw InputError(
                file: file, location: location,
                "unknown policy '\(spec.name)' (known: \(descriptors.map(\.name).joined(separator: ", ")))")
        }
        let arguments = PolicyArguments(spec: spec, file: file, location: location)
        let known = descriptor.parameters.map(\.name)
        for parameter in spec.parameters where !known.contains(parameter.name) {
            let expected = known.isEmpty ? "it takes none" : "expected one of: \(known.joined(separator: ", "))"
            throw arguments.error("unknown parameter '\(parameter.name)' (\(expected))")
        }
        return descriptor
    }

    /// A new instance for `spec`, after checking its name and parameter names.
    public func makePolicy(
        _ spec: PolicySpec, environment: PolicyEnvironment, file: String? = nil, location: String? = nil
    ) throws -> any ABRPolicy {
        let descriptor = try checkedDescriptor(spec, file: file, location: location)
        let arguments = PolicyArguments(spec: spec, file: file, location: location)
        return try descriptor.make(arguments, environment)
    }

    /// The policies that ship with ABRSim.
    public static let builtIn: PolicyRegistry = {
        var registry = PolicyRegistry()
        for descriptor in BuiltInPolicies.all { registry.register(descriptor) }
        return registry
    }()
}
