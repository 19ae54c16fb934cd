/// A model that `abrsim compare` runs policies on, chosen by `--profile NAME`: it supplies its own engine (how
/// every policy runs on every trace), how it loads `--content`, and what of the command line it accepts.
///
/// Each profile is one conforming type listed in ``Profile/registry``: ``FaithfulProfile`` (ABRSim's own player
/// and network, the default), ``PensieveComparisonProfile`` (Pensieve's chunk-level simulator); the command line
/// registers `sabre`, which has options and outputs of its own. `abrsim compare`, `abrsim sweep`, the C API and
/// ``Comparison/run(_:registry:jobs:)`` reach profiles only through the registry. Implementations are
/// thread-safe; ``run(_:registry:jobs:)`` returns reports in a fixed order (policy by policy, each over the traces
/// in order) whatever `jobs` is.
public protocol ComparisonProfile: Sendable {
    /// The name `--profile` takes.
    var name: String { get }
    /// Runs the whole `compare` (or, with `sweep`, `sweep`) command when the profile has options and outputs of its
    /// own, returning the exit status; `nil` (the default) when compare's options and outputs apply.
    func runCommand(_ arguments: [String], sweep: Bool) throws -> Int32?
    /// Throws when the command line asks for what the profile cannot do (`scenarioGiven`: `--scenario` names a
    /// scenario's player to play). The default accepts everything.
    func checkArguments(scenarioGiven: Bool) throws
    /// The content at `path` (`--content`, named `location` in errors), cut to its first `segments` if given.
    /// The default is ``ContentSource/load(_:segments:ladderKbps:segmentSeconds:)``.
    func loadContent(path: String, segments: Int?, location: String) throws -> Content
    /// Warnings about player settings the policies ignore or contradict (`place` names the player in them); the
    /// default is none.
    func settingWarnings(_ plan: ComparisonPlan, place: String) -> [String]
    /// What `abrsim compare` prints under its table when `optimal` is among the policies: how the optimum treated
    /// waiting, and whether it bounds the other policies (`reports` are the engine's, `jobs` threads for any
    /// check). The default is nothing.
    func optimumNote(_ plan: ComparisonPlan, reports: [RunReport], jobs: Int) throws -> String
    /// The engine: the report of every (policy, trace) pair of `plan`, policy-major, on up to `jobs` threads. The
    /// policies were validated against `registry`.
    func run(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport]
}

extension ComparisonProfile {
    public func runCommand(_ arguments: [String], sweep: Bool) throws -> Int32? { nil }

    public func checkArguments(scenarioGiven: Bool) throws {}

    public func loadContent(path: String, segments: Int?, location: String) throws -> Content {
        try ContentSource.load(path, segments: segments)
    }

    public func settingWarnings(_ plan: ComparisonPlan, place: String) -> [String] { [] }

    public func optimumNote(_ plan: ComparisonPlan, reports: [RunReport], jobs: Int) throws -> String { "" }
}

/// The profiles `abrsim compare` can run on.
public enum ComparisonProfiles: Seam {
    /// Every profile; add one with `Profile.registry.register(MyProfile(), name: …)`.
    public static let registry: Registry<any ComparisonProfile> = {
        let profiles: [any ComparisonProfile] = [FaithfulProfile(), PensieveComparisonProfile()]
        return Registry(profiles.map { (name: $0.name, member: $0) })
    }()
}

/// A registered comparison profile, by name: what ``ComparisonPlan/model`` holds.
public typealias Profile = Registered<ComparisonProfiles>

extension Registered where S == ComparisonProfiles {
    /// The profile `definition` defines, under its own name.
    public init(_ definition: any ComparisonProfile) { self.init(name: definition.name, definition: definition) }

    /// ABRSim's own player and network model (the default).
    public static var faithful: Profile { Profile(FaithfulProfile()) }
    /// Pensieve's chunk-level simulator, reproduced exactly.
    public static var pensieve: Profile { Profile(PensieveComparisonProfile()) }

    /// The exit status of the command of the profile `arguments` name (``requestedName(in:)``) when it has a command
    /// of its own (``ComparisonProfile/runCommand(_:sweep:)``); `nil` when compare's (or sweep's) own apply.
    public static func runOwnCommand(_ arguments: [String], sweep: Bool) throws -> Int32? {
        guard let name = requestedName(in: arguments), let profile = Profile(rawValue: name) else { return nil }
        return try profile.definition.runCommand(arguments, sweep: sweep)
    }

    /// The value of the last `--profile NAME` or `--profile=NAME` in `arguments`, if any (read before parsing, so
    /// that a profile with a command line of its own can parse the arguments itself).
    public static func requestedName(in arguments: [String]) -> String? {
        var name: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--profile", index + 1 < arguments.count {
                name = arguments[index + 1]
            } else if argument.hasPrefix("--profile=") {
                name = String(argument.dropFirst("--profile=".count))
            }
        }
        return name
    }
}
