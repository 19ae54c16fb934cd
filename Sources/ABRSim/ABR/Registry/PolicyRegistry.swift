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

/// A registered ABR policy: its name, declared parameters, and how to make an instance (one per player per run).
public typealias PolicyDescriptor = RegisteredDescriptor<PolicyEnvironment, any ABRPolicy>

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

    /// Checks that `spec` names a registered policy whose parameters are declared and in range, without making an instance
    /// (which for some policies starts a process or solves a program).
    /// With `content`, variant indices are checked against its ladder too.
    public func validate(_ spec: PolicySpec, file: String? = nil, location: String? = nil, content: Content? = nil)
        throws
    {
        _ = try checkedDescriptor(spec, file: file, location: location, content: content)
    }

    /// The descriptor of `spec` after checking every parameter against its declaration; with `content`, variant
    /// indices are also checked against its ladder.
    func checkedDescriptor(_ spec: PolicySpec, file: String?, location: String?, content: Content? = nil) throws
        -> PolicyDescriptor
    {
        guard let descriptor = descriptor(named: spec.name) else {
            throw InputError(
                InputPlace(file: file, position: location.map(InputPlace.Position.init(text:))),
                .unknownName(spec.name, kind: "policy", known: descriptors.map(\.name)))
        }
        try PolicyArguments(spec: spec, file: file, location: location).check(
            against: descriptor.parameters, variantCount: content?.variantCount)
        return descriptor
    }

    /// A new instance for `spec`, after checking its name and every parameter (against the content's ladder when
    /// the environment has it).
    public func makePolicy(
        _ spec: PolicySpec, environment: PolicyEnvironment, file: String? = nil, location: String? = nil
    ) throws -> any ABRPolicy {
        let descriptor = try checkedDescriptor(spec, file: file, location: location, content: environment.content)
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
