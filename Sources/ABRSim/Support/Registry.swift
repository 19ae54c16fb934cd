import Synchronization

/// Members registered within the current task by ``Registry/withRegistered(_:name:_:)``, per registry.
@TaskLocal private var scopedMembers: [ObjectIdentifier: [RegistryEntry]] = [:]

/// One named member of a registry, type-erased for the task-local table.
private struct RegistryEntry: Sendable {
    let name: String
    let member: any Sendable
}

/// The named members of one open seam (trace formats, QoE models, bandwidth allocators, profiles), in
/// registration order: the built-ins first, then what ``register(_:name:)`` adds.
///
/// Decoders and commands look members up by the name a scenario or `--option` gives, and list ``names`` in
/// their error messages. Adding a member is one file defining it plus one ``register(_:name:)`` call (or one
/// entry in the seam's built-in list). A name registered again replaces the earlier member in place.
/// ``withRegistered(_:name:_:)`` adds a member for the current task only (tests). Thread-safe.
public final class Registry<Member: Sendable>: Sendable {
    private let entries: Mutex<[(name: String, member: Member)]>

    /// A registry holding `builtIns` (name, member), in that order.
    public init(_ builtIns: [(name: String, member: Member)]) {
        entries = Mutex(builtIns)
    }

    /// Adds `member` under `name` for the rest of the process (replacing a member of that name).
    public func register(_ member: Member, name: String) {
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.name == name }) {
                entries[index].member = member
            } else {
                entries.append((name, member))
            }
        }
    }

    /// Runs `body` with `member` registered under `name` for the current task (and the tasks it starts) only.
    public func withRegistered<Result>(_ member: Member, name: String, _ body: () throws -> Result) rethrows
        -> Result
    {
        var scoped = scopedMembers
        scoped[ObjectIdentifier(self), default: []].append(RegistryEntry(name: name, member: member))
        return try $scopedMembers.withValue(scoped, operation: body)
    }

    /// Every member with its name, in registration order (task-scoped members last).
    public var all: [(name: String, member: Member)] {
        var result = entries.withLock { $0 }
        for entry in scopedMembers[ObjectIdentifier(self)] ?? [] {
            guard let member = entry.member as? Member else { continue }
            if let index = result.firstIndex(where: { $0.name == entry.name }) {
                result[index].member = member
            } else {
                result.append((entry.name, member))
            }
        }
        return result
    }

    /// The registered names, in order.
    public var names: [String] { all.map(\.name) }

    /// The names as alternatives for an error message: "a, b or c".
    public var alternatives: String { listedAsAlternatives(names) }

    /// The members, in order.
    public var members: [Member] { all.map(\.member) }

    /// The member registered under `name`, or `nil`.
    public func member(named name: String) -> Member? {
        all.first { $0.name == name }?.member
    }
}

/// One open seam: the registry of its members. Conformers are caseless enums, one per seam (``TraceFormats``,
/// ``QoEModels``, ``AllocationStrategies``, ``ComparisonProfiles``).
public protocol Seam {
    /// The seam's protocol, as an existential (`any TraceFileFormat`).
    associatedtype Member: Sendable
    /// Every member of the seam.
    static var registry: Registry<Member> { get }
}

/// A value naming one member of a seam's registry: what scenarios, commands and runs pass around for it
/// (``TraceFormat``, ``QoEModel``, ``AllocationStrategy``, ``Profile``). Two values are equal when they carry the
/// same name.
public struct Registered<S: Seam>: Sendable, Hashable, CustomStringConvertible {
    /// The name the member is registered under.
    public let rawValue: String
    /// The member.
    public let definition: S.Member

    /// `definition` under `name` (registered or not).
    public init(name: String, definition: S.Member) {
        rawValue = name
        self.definition = definition
    }

    /// The registered member named `rawValue`, or `nil`.
    public init?(rawValue: String) {
        guard let definition = S.registry.member(named: rawValue) else { return nil }
        self.init(name: rawValue, definition: definition)
    }

    /// Every member of the seam; add one with `registry.register(member, name: …)`.
    public static var registry: Registry<S.Member> { S.registry }

    /// Every registered member, in registration order.
    public static var allCases: [Self] { S.registry.all.map { Self(name: $0.name, definition: $0.member) } }

    public var description: String { rawValue }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
