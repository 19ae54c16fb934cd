/// `AVPlayer.NetworkResourcePriority` (iOS 26): a player's priority for the app's network bandwidth.
///
/// Apple documents three levels — `low` (others take precedence), `default`, `high` (takes precedence over
/// lower-priority players) — and publishes no allocation formula. ABRSim turns a level into a weight through a
/// ``PriorityWeights`` table and lets a ``BandwidthAllocator`` split the link.
public enum NetworkResourcePriority: String, Sendable, CaseIterable, Comparable {
    case low
    case `default`
    case high

    /// Strict-priority rank: 0 for `high`, 1 for `default`, 2 for `low`.
    public var rank: Int {
        switch self {
        case .high: 0
        case .default: 1
        case .low: 2
        }
    }

    public static func < (a: NetworkResourcePriority, b: NetworkResourcePriority) -> Bool { a.rank > b.rank }
}

/// The weight of each priority level in weighted sharing.
///
/// Default low 1, default 2, high 4: an assumption (Apple publishes no formula) chosen so that each level gets
/// twice the share of the one below; `abrsim tune` searches this table and `tune --calibrate` fits it to
/// measurements from devices.
public struct PriorityWeights: Sendable, Equatable {
    /// Weight of `low` players.
    public var low: Double = 1
    /// Weight of `default` players.
    public var standard: Double = 2
    /// Weight of `high` players.
    public var high: Double = 4

    /// The default table.
    public init() {}

    /// A table from three weights.
    public init(low: Double, standard: Double, high: Double) {
        self.low = low
        self.standard = standard
        self.high = high
    }

    /// The weight of `priority`.
    public func weight(_ priority: NetworkResourcePriority) -> Double {
        switch priority {
        case .low: low
        case .default: standard
        case .high: high
        }
    }
}
