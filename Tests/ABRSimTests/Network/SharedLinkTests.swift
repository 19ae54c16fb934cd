import Testing

@testable import ABRSim

/// The shared link's processor sharing, with completion times worked out by hand.
@Suite("the shared link")
struct SharedLinkTests {
    static func constantLink(
        _ bps: Double, allocator: any BandwidthAllocator = WeightedAllocator(), loss: Double = 0,
        rtt: Double = 0
    ) throws -> SharedLink {
        let curve = try CapacityCurve(
            starts: [0], ratesBps: [bps], duration: 1000, latencySeconds: [rtt], lossRates: [loss])
        return SharedLink(curve: curve, allocator: allocator)
    }

    /// Runs the link's own completion loop, returning (owner, time) in completion order.
    static func drain(_ link: SharedLink) -> [(Int, Double)] {
        var done: [(Int, Double)] = []
        while link.activeFlowCount > 0 {
            let t = link.nextCompletionTime()
            guard t.isFinite else { break }
            for owner in link.takeFinished(at: t) { done.append((owner, t)) }
        }
        return done
    }

    @Test("weights 1 and 3 split the link 1 to 3, and the flows finish at the hand-computed 8/3 s and 4 s")
    func weightsOneAndThreeSplitTheLinkAsOneToThree() throws {
        let link = try Self.constantLink(1_000_000)
        link.startFlow(owner: 0, bits: 2_000_000, demand: FlowDemand(weight: 1), at: 0)
        link.startFlow(owner: 1, bits: 2_000_000, demand: FlowDemand(weight: 3), at: 0)
        #expect(link.share(owner: 0) == 0.25)
        #expect(link.share(owner: 1) == 0.75)
        // Flow 1 at 0.75 Mbit/s finishes 2 Mbit at 8/3 s; flow 0 has 2/3 Mbit by then and the rest
        // (4/3 Mbit) alone at 1 Mbit/s: done at 4 s.
        let done = Self.drain(link)
        #expect(done.map(\.0) == [1, 0])
        #expect(abs(done[0].1 - 8.0 / 3.0) < 1e-12)
        #expect(abs(done[1].1 - 4.0) < 1e-12)
    }

    @Test("a player without a flow takes no share, and a lone flow has the whole link")
    func anIdlePlayerTakesNothing() throws {
        let link = try Self.constantLink(1_000_000)
        link.startFlow(owner: 0, bits: 3_000_000, demand: FlowDemand(weight: 1), at: 0)
        #expect(link.share(owner: 0) == 1)
        #expect(link.share(owner: 1) == 0)
        #expect(Self.drain(link).map(\.1) == [3])
    }

    @Test("a rate-limited flow gives its surplus to the other, and both finish at the hand-computed times")
    func aCappedFlowGivesItsSurplusToTheOthers() throws {
        let link = try Self.constantLink(1_000_000)
        link.startFlow(owner: 0, bits: 1_000_000, demand: FlowDemand(weight: 1, rateLimitBps: 200_000), at: 0)
        link.startFlow(owner: 1, bits: 1_600_000, demand: FlowDemand(weight: 1), at: 0)
        // Equal weights would give 0.5 Mbit/s each; flow 0 is held at 0.2, so flow 1 gets 0.8 and finishes
        // 1.6 Mbit at 2 s. Flow 0 has 0.4 Mbit then, and its remaining 0.6 at its cap take 3 s more: 5 s.
        #expect(abs(link.share(owner: 1) - 0.8) < 1e-12)
        let done = Self.drain(link)
        #expect(done.map(\.0) == [1, 0])
        #expect(abs(done[0].1 - 2) < 1e-9)
        #expect(abs(done[1].1 - 5) < 1e-9)
    }

    @Test("a weight change mid-download retimes both completions to the hand-computed 3 s and 4 s")
    func aWeightChangeMidDownloadRetimesBothCompletions() throws {
        let link = try Self.constantLink(1_000_000)
        link.startFlow(owner: 0, bits: 2_000_000, demand: FlowDemand(weight: 1), at: 0)
        link.startFlow(owner: 1, bits: 2_000_000, demand: FlowDemand(weight: 1), at: 0)
        // Equal shares until 1 s (each has 0.5 Mbit), then flow 0 goes to weight 3: 0.75 vs 0.25 Mbit/s.
        // Flow 0 needs 1.5 Mbit more: 2 s, done at 3 s; flow 1 has 0.5 + 0.5 = 1 Mbit then, the last 1 Mbit
        // alone takes 1 s: done at 4 s.
        link.setDemand(owner: 0, FlowDemand(weight: 3), at: 1)
        let done = Self.drain(link)
        #expect(done.map(\.0) == [0, 1])
        #expect(abs(done[0].1 - 3) < 1e-9)
        #expect(abs(done[1].1 - 4) < 1e-9)
    }

    @Test("strict priority gives a low flow nothing until the high one finishes")
    func strictPriorityStarvesLowerLevelsUntilHigherOnesFinish() throws {
        let link = try Self.constantLink(1_000_000, allocator: StrictPriorityAllocator())
        link.startFlow(owner: 0, bits: 1_000_000, demand: FlowDemand(priority: .low, weight: 1), at: 0)
        link.startFlow(owner: 1, bits: 1_000_000, demand: FlowDemand(priority: .high, weight: 1), at: 0)
        #expect(link.share(owner: 0) == 0)
        let done = Self.drain(link)
        #expect(done.map(\.0) == [1, 0])
        #expect(done.map(\.1) == [1, 2])
    }

    @Test("equal allocation splits the link evenly whatever the weights and priorities")
    func equalAllocationIgnoresWeights() throws {
        let link = try Self.constantLink(1_000_000, allocator: EqualAllocator())
        link.startFlow(owner: 0, bits: 1_000_000, demand: FlowDemand(priority: .low, weight: 1), at: 0)
        link.startFlow(owner: 1, bits: 1_000_000, demand: FlowDemand(priority: .high, weight: 4), at: 0)
        let done = Self.drain(link)
        #expect(done.map(\.1) == [2, 2])
    }

    @Test("with loss a flow is capped at the Mathis bound, and 100 % loss carries nothing")
    func lossCapsAFlowAtTheMathisBound() throws {
        // 1 % loss, 100 ms RTT: 11680 bit · √1.5 / (0.1 s · 0.1) ≈ 1.4305 Mbit/s, under the 10 Mbit/s link.
        let link = try Self.constantLink(10_000_000, loss: 0.01, rtt: 0.1)
        let bound = 11680 * 1.5.squareRoot() / (0.1 * 0.1)
        #expect(abs(SharedLink.lossBound(lossRate: 0.01, rttSeconds: 0.1) - bound) < 1e-6)
        link.startFlow(owner: 0, bits: bound * 2, demand: FlowDemand(), at: 0)
        let done = Self.drain(link)
        #expect(abs(done[0].1 - 2) < 1e-9)
        #expect(SharedLink.lossBound(lossRate: 1, rttSeconds: 0.1) == 0)
    }

    @Test("a capped and an uncapped flow finish at the hand-computed times across a capacity change")
    func cappedCompletionsAreExactAcrossCapacityChanges() throws {
        // 1 Mbit/s for 2 s, then 4 Mbit/s. Flow 0 capped at 1.5 Mbit/s, flow 1 uncapped, equal weights.
        // [0,2): 0.5 / 0.5 Mbit/s. After 2 s: flow 0 1.5 (cap), flow 1 2.5 Mbit/s.
        // Flow 0 (3 Mbit): 1 Mbit by 2 s, 2 Mbit more at 1.5 → 2 + 4/3 s. Flow 1 (6 Mbit): 1 by 2 s,
        // 5 more at 2.5 → 4 s... but flow 0 finishes first at 3.333 s, after which flow 1 gets all 4 Mbit/s:
        // at 3.333 s flow 1 has 1 + 2.5·(4/3) = 4.333 Mbit, remaining 1.667 at 4 → 0.41667 s: done at 3.75 s.
        let curve = try CapacityCurve(starts: [0, 2], ratesBps: [1_000_000, 4_000_000], duration: 100)
        let link = SharedLink(curve: curve)
        link.startFlow(owner: 0, bits: 3_000_000, demand: FlowDemand(weight: 1, rateLimitBps: 1_500_000), at: 0)
        link.startFlow(owner: 1, bits: 6_000_000, demand: FlowDemand(weight: 1), at: 0)
        let done = Self.drain(link)
        #expect(done.map(\.0) == [0, 1])
        #expect(abs(done[0].1 - (2 + 4.0 / 3.0)) < 1e-9)
        #expect(abs(done[1].1 - 3.75) < 1e-9)
    }
}
