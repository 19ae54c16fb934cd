/// What a flow asks of the link: its priority, its weight, and a cap on its rate.
public struct FlowDemand: Sendable, Equatable {
    /// The player's `networkResourcePriority`.
    public var priority: NetworkResourcePriority
    /// Its weight (from the scenario's ``PriorityWeights``).
    public var weight: Double
    /// The player's own rate limit in bit/s (`.infinity` for none).
    public var rateLimitBps: Double

    /// A demand.
    public init(priority: NetworkResourcePriority = .default, weight: Double = 1, rateLimitBps: Double = .infinity) {
        self.priority = priority
        self.weight = weight
        self.rateLimitBps = rateLimitBps
    }
}

/// How the link's capacity is split among the flows transferring at an instant.
///
/// An allocator gives every active flow a *tier* and a *share* within it: capacity goes to tier 0 first, split
/// by the shares; what tier 0 cannot take (every flow in it capped) goes to tier 1, and so on. Caps are filled
/// by water-filling: a flow held below its share gives the rest to the others of its tier. Implementations are
/// pure. The shared link calls ``assign(_:tiers:shares:)`` whenever its set of flows changes.
public protocol BandwidthAllocator: Sendable {
    /// Writes each flow's tier and its share within the tier (any positive scale; shares are normalised per
    /// tier). `tiers` and `shares` arrive with `demands.count` elements.
    func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double])
}

/// Weighted processor sharing (the default): flow i gets wᵢ/Σw of the link.
public struct WeightedAllocator: BandwidthAllocator {
    /// The allocator.
    public init() {}

    public func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double]) {
        for index in demands.indices {
            tiers[index] = 0
            shares[index] = demands[index].weight
        }
    }
}

/// Equal sharing: priority and weights ignored.
public struct EqualAllocator: BandwidthAllocator {
    /// The allocator.
    public init() {}

    public func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double]) {
        for index in demands.indices {
            tiers[index] = 0
            shares[index] = 1
        }
    }
}

/// Strict priority: `high` flows take the link, `default` flows what high ones leave, `low` flows the rest;
/// within a level, flows share by weight.
public struct StrictPriorityAllocator: BandwidthAllocator {
    /// The allocator.
    public init() {}

    public func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double]) {
        for index in demands.indices {
            tiers[index] = demands[index].priority.rank
            shares[index] = demands[index].weight
        }
    }
}

/// The bandwidth allocators a scenario can name (`allocation.strategy`).
public enum AllocationStrategies: Seam {
    /// Every allocator; add one with `AllocationStrategy.registry.register(MyAllocator(), name: …)`.
    public static let registry = Registry<any BandwidthAllocator>([
        (name: "weighted", member: WeightedAllocator()), (name: "equal", member: EqualAllocator()),
        (name: "strict", member: StrictPriorityAllocator()),
    ])
}

/// A registered bandwidth allocator, by the name a scenario gives: what the scenario decoder and ``Simulation``
/// pass around.
public typealias AllocationStrategy = Registered<AllocationStrategies>

extension Registered where S == AllocationStrategies {
    /// The allocator the shared link calls.
    public var allocator: any BandwidthAllocator { definition }

    /// Weighted processor sharing (``WeightedAllocator``), the default.
    public static var weighted: AllocationStrategy {
        AllocationStrategy(name: "weighted", definition: WeightedAllocator())
    }
    /// Equal sharing (``EqualAllocator``).
    public static var equal: AllocationStrategy { AllocationStrategy(name: "equal", definition: EqualAllocator()) }
    /// Strict priority (``StrictPriorityAllocator``).
    public static var strict: AllocationStrategy {
        AllocationStrategy(name: "strict", definition: StrictPriorityAllocator())
    }
}

/// Fills `capacity` (bit/s) into flows by tier and share, honouring caps: `rates[i]` receives flow i's rate.
///
/// Within a tier, weighted water-filling: every uncapped flow gets capacity × share/Σshare; a flow whose cap is
/// below that gets its cap, and the surplus is split again among the rest, until nothing changes. What a tier
/// leaves goes to the next. O(n²) in the worst case, n the flows (small).
func waterFill(
    capacity: Double, tiers: [Int], shares: [Double], caps: [Double], rates: inout [Double]
) {
    let count = tiers.count
    for index in 0..<count { rates[index] = 0 }
    var left = capacity
    var tier = 0
    let lastTier = tiers.max() ?? 0
    while tier <= lastTier && left > 0 {
        var open: [Int] = []
        for index in 0..<count where tiers[index] == tier && shares[index] > 0 { open.append(index) }
        while !open.isEmpty && left > 0 {
            let total = open.reduce(0) { $0 + shares[$1] }
            var capped: [Int] = []
            for index in open where caps[index] < left * shares[index] / total { capped.append(index) }
            if capped.isEmpty {
                for index in open { rates[index] = left * shares[index] / total }
                left = 0
                break
            }
            for index in capped {
                rates[index] = caps[index]
                left -= caps[index]
            }
            open.removeAll { capped.contains($0) }
        }
        tier += 1
    }
}
