import ABRSimTestSupport
import Testing

@testable import ABRSim

/// An allocator that hides which built-in one it forwards to, so the link takes its general path through
/// ``BandwidthAllocator/assign(_:tiers:shares:)``.
private struct ThroughTheProtocol: BandwidthAllocator {
    let base: any BandwidthAllocator
    func assign(_ demands: [FlowDemand], tiers: inout [Int], shares: inout [Double]) {
        base.assign(demands, tiers: &tiers, shares: &shares)
    }
}

/// Many flows on one link: the link's bookkeeping by owner and its built-in allocators' direct path.
@Suite("the shared link with many flows")
struct SharedLinkManyFlowsTests {
    /// `count` throughput players with mixed priorities, some rate-limited, 12 segments each.
    static func players(_ count: Int) throws -> [PlayerConfiguration] {
        let content = try Content.constantBitrate(
            ladderKbps: [300, 750, 1200, 1850, 2850, 4300], segmentSeconds: 4, segmentCount: 12)
        let priorities: [NetworkResourcePriority] = [.default, .high, .low]
        return (0..<count).map { index in
            var settings = PlayerSettings()
            settings.networkResourcePriority = priorities[index % 3]
            settings.preferredForwardBufferDuration = 20
            settings.startSeconds = Double(index % 7) * 0.37
            if index % 10 == 4 { settings.rateLimitBps = 1_500_000 }  // some flows capped: the water-filled regime
            return PlayerConfiguration(
                id: "p\(index)", content: content, policy: ThroughputPolicy(estimator: DualEWMAEstimator.dashjs),
                policyLabel: "throughput", settings: settings)
        }
    }

    @Test("30 players give the same records whether the built-in allocators run directly or through the protocol")
    func builtInAllocatorsMatchTheirProtocolPath() throws {
        let trace = try TraceReader.read(
            path: TestPaths.scenarios + "/traces/Verizon-LTE-short.down", mahimahiBinMs: 100)
        let curve = try trace.curve(atEnd: .loop)
        for strategy in [AllocationStrategy.weighted, .equal, .strict] {
            let direct = Simulation(curve: curve, players: try Self.players(30), allocation: strategy).run()
            let general = AllocationStrategy(
                name: strategy.rawValue, definition: ThroughTheProtocol(base: strategy.allocator))
            let viaProtocol = Simulation(curve: curve, players: try Self.players(30), allocation: general).run()
            // Every segment of every player arrives (some after a timeout or an abandoned request).
            #expect(direct.segments.joined().filter { !$0.abandoned }.count == 30 * 12)
            #expect(direct.segments == viaProtocol.segments)
            #expect(direct.totals == viaProtocol.totals)
            #expect(direct.endTime == viaProtocol.endTime)
        }
    }

    @Test("after random starts, cancellations and completions each owner's flow is found where a search finds it")
    func ownersAreFoundWhereASearchFindsThem() throws {
        let curve = try CapacityCurve(starts: [0], ratesBps: [10_000_000], duration: 10_000, latencySeconds: [0])
        let link = SharedLink(curve: curve)
        var random = NetworkTestSupport.SplitMix(state: 21)
        var now = 0.0
        var checked = 0
        for _ in 0..<600 {
            let owner = Int(random.next() % 64)
            if link.remainingBits(owner: owner) == nil, random.uniform() < 0.6 {
                let bits = 100_000 + 1_000_000 * random.uniform()
                link.startFlow(owner: owner, bits: bits, demand: FlowDemand(weight: 1 + Double(owner % 3)), at: now)
            } else if random.uniform() < 0.3 {
                link.cancelFlow(owner: owner, at: now)
            } else {
                let next = link.nextCompletionTime()
                if next.isFinite {
                    now = next
                    _ = link.takeFinished(at: now)
                }
            }
            for candidate in 0..<64 {
                #expect(link.position(of: candidate) == link.flows.firstIndex { $0.owner == candidate })
                checked += 1
            }
            #expect(link.fractions.count == link.flows.count)
            #expect(link.hasIdleFraction == link.fractions.contains { $0 <= 0 })
        }
        #expect(checked == 600 * 64)
        #expect(!link.hasSharedOwners)
    }

    @Test("flows joining, leaving and changing priority get the fractions a call through the protocol gives")
    func incrementalFractionsMatchTheProtocolPath() throws {
        let curve = try CapacityCurve(starts: [0], ratesBps: [8_000_000], duration: 10_000, latencySeconds: [0])
        let priorities: [NetworkResourcePriority] = [.low, .default, .high]
        for base in [WeightedAllocator(), EqualAllocator(), StrictPriorityAllocator()] as [any BandwidthAllocator] {
            let direct = SharedLink(curve: curve, allocator: base)
            let general = SharedLink(curve: curve, allocator: ThroughTheProtocol(base: base))
            var random = NetworkTestSupport.SplitMix(state: 7)
            var now = 0.0
            var mostFlows = 0
            for _ in 0..<400 {
                let owner = Int(random.next() % 40)
                let demand = FlowDemand(
                    priority: priorities[Int(random.next() % 3)], weight: [0, 1, 2, 4][Int(random.next() % 4)])
                let roll = random.uniform()
                for link in [direct, general] {
                    if link.remainingBits(owner: owner) == nil, roll < 0.55 {
                        link.startFlow(owner: owner, bits: 200_000 + 50_000 * Double(owner), demand: demand, at: now)
                    } else if roll < 0.7 {
                        link.setDemand(owner: owner, demand, at: now)
                    } else if roll < 0.8 {
                        link.cancelFlow(owner: owner, at: now)
                    }
                }
                if roll >= 0.8 {
                    let next = direct.nextCompletionTime()
                    #expect(next == general.nextCompletionTime())
                    if next.isFinite {
                        now = next
                        #expect(direct.takeFinished(at: now) == general.takeFinished(at: now))
                    }
                }
                #expect(direct.tiers == general.tiers)
                #expect(direct.shares == general.shares)
                #expect(direct.fractions == general.fractions)
                #expect(direct.hasIdleFraction == general.hasIdleFraction)
                mostFlows = max(mostFlows, direct.activeFlowCount)
            }
            #expect(mostFlows >= 8)  // flows were added to two or more: the incremental path ran
        }
    }

    @Test("flows finishing together leave in the order they started, and the others keep theirs")
    func flowsFinishingTogetherLeaveInStartOrder() throws {
        let curve = try CapacityCurve(starts: [0], ratesBps: [1_000_000], duration: 10_000, latencySeconds: [0])
        let link = SharedLink(curve: curve)
        // Six flows of equal weight: 5, 3 and 9 carry 1 Mbit, the others 2 Mbit. At 1/6 Mbit/s each the small
        // ones finish together at 6 s.
        for (owner, bits) in [(5, 1e6), (7, 2e6), (3, 1e6), (8, 2e6), (9, 1e6), (1, 2e6)] {
            link.startFlow(owner: owner, bits: bits, demand: FlowDemand(), at: 0)
        }
        let first = link.nextCompletionTime()
        #expect(abs(first - 6) < 1e-9)
        #expect(link.takeFinished(at: first) == [5, 3, 9])
        #expect(link.flows.map(\.owner) == [7, 8, 1])
        #expect(link.position(of: 1) == 2)
        #expect(link.position(of: 5) == nil)
        // The three left have 1 Mbit each at 1/3 Mbit/s: 3 s more.
        let second = link.nextCompletionTime()
        #expect(abs(second - 9) < 1e-9)
        #expect(link.takeFinished(at: second) == [7, 8, 1])
        #expect(link.position(of: 7) == nil)
    }

    @Test("an owner number too large for the table is still found, by search")
    func aLargeOwnerNumberIsFoundBySearch() throws {
        let curve = try CapacityCurve(starts: [0], ratesBps: [1_000_000], duration: 10_000, latencySeconds: [0])
        let link = SharedLink(curve: curve)
        link.startFlow(owner: 3, bits: 1e6, demand: FlowDemand(), at: 0)
        link.startFlow(owner: 5_000_000, bits: 3e6, demand: FlowDemand(), at: 0)
        #expect(link.hasSharedOwners)
        #expect(link.share(owner: 5_000_000) == 0.5)
        #expect(link.remainingBits(owner: 3) == 1e6)
        #expect(link.cancelFlow(owner: 3, at: 1) == 500_000)
        #expect(link.share(owner: 5_000_000) == 1)
    }
}
