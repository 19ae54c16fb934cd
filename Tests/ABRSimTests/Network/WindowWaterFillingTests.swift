import Foundation
import Testing

@testable import ABRSim

/// Water-filling with window-limited flows, computed by hand: two players on a 10 Mbit/s link with equal weights,
/// one held below its share by its window; the other gets exactly the rest.
@Suite("water-filling with window-limited flows")
struct WindowWaterFillingTests {
    static func link() throws -> SharedLink {
        SharedLink(curve: try CapacityCurve(starts: [0], ratesBps: [10e6], duration: 1000, atEnd: .hold))
    }

    @Test("a window-limited flow gives the rest of its share to the other, both finishing at the hand-computed times")
    func aConstantWindowGivesTheRestOfItsShareToTheOtherFlow() throws {
        let link = try Self.link()
        // A: 2 Mbit capped at 2 Mbit/s (share 5) → 1.0 s. B: 12 Mbit, 8 Mbit/s for 1 s, then 10 alone → 1.4 s.
        link.startFlow(owner: 0, bits: 2e6, demand: FlowDemand(), at: 0, window: .constant(2e6))
        link.startFlow(owner: 1, bits: 12e6, demand: FlowDemand(), at: 0)
        #expect(abs(link.share(owner: 0) - 0.2) < 1e-15)
        #expect(abs(link.share(owner: 1) - 0.8) < 1e-15)
        let first = link.nextCompletionTime()
        #expect(abs(first - 1.0) < 1e-12)
        #expect(link.takeFinished(at: first) == [0])
        #expect(abs(link.remainingBits(owner: 1)! - 4e6) < 1e-6)
        let second = link.nextCompletionTime()
        #expect(abs(second - 1.4) < 1e-12)
        #expect(link.takeFinished(at: second) == [1])
    }

    @Test("a slow-start ramp is water-filled round by round, both flows finishing at the hand-computed times")
    func aSlowStartRampIsWaterFilledRoundByRound() throws {
        let link = try Self.link()
        // A ramps from 1 Mbit/s, doubling every 100 ms: caps 1, 2, 4, 8 (then none: 16 ≥ the 10 Mbit/s peak).
        // Rates (A, B): (1, 9), (2, 8), (4, 6), (5, 5) for the four rounds, then (5, 5). A's 2.2 Mbit: 1.2 by
        // 0.4 s, 1.0 more at 5 → 0.6 s. B's 5.8 Mbit: 0.9 + 0.8 + 0.6 + 0.5 + 1.0 = 3.8 by 0.6 s, 2.0 alone → 0.8 s.
        let window = TransferWindow.slowStart(initialRateBps: 1e6, roundSeconds: 0.1, ceilingBps: link.peakRateBps)
        #expect(window.doublingRounds == 4)
        link.startFlow(owner: 0, bits: 2.2e6, demand: FlowDemand(), at: 0, window: window)
        link.startFlow(owner: 1, bits: 5.8e6, demand: FlowDemand(), at: 0)
        let first = link.nextCompletionTime()
        #expect(abs(first - 0.6) < 1e-12)
        link.advance(to: 0.25)
        #expect(abs(link.share(owner: 0) - 0.4) < 1e-12)
        #expect(abs(link.share(owner: 1) - 0.6) < 1e-12)
        #expect(abs(link.remainingBits(owner: 1)! - (5.8e6 - 0.9e6 - 0.8e6 - 0.3e6)) < 1e-6)
        #expect(link.takeFinished(at: first) == [0])
        #expect(abs(link.remainingBits(owner: 1)! - 2e6) < 1e-6)
        let second = link.nextCompletionTime()
        #expect(abs(second - 0.8) < 1e-12)
        #expect(link.takeFinished(at: second) == [1])
    }

    @Test("the fluid model's plan leaves the link uncapped")
    func theFluidModelLeavesTheLinkUncapped() throws {
        let link = try Self.link()
        link.startFlow(
            owner: 0, bits: 1e6, demand: FlowDemand(), at: 0,
            window: FluidModel().plan(
                DownloadRequest(bits: 1e6, availableBps: 10e6, peakBps: 10e6, roundTripSeconds: 0)
            ).window)
        #expect(!link.isCapped)
        #expect(abs(link.nextCompletionTime() - 0.1) < 1e-15)
    }
}

extension WindowWaterFillingTests {
    @Test("a ramping flow's projected finish follows its ramp")
    func aRampingFlowsProjectedFinishFollowsItsRamp() throws {
        let link = try Self.link()
        let window = TransferWindow.slowStart(initialRateBps: 1e6, roundSeconds: 0.1, ceilingBps: link.peakRateBps)
        link.startFlow(owner: 0, bits: 2.2e6, demand: FlowDemand(), at: 0, window: window)
        link.startFlow(owner: 1, bits: 5.8e6, demand: FlowDemand(), at: 0)
        #expect(abs(link.projectedFinish(owner: 0) - 0.6) < 1e-12)
    }
}

extension WindowWaterFillingTests {
    @Test("a ramp across a capacity step takes the smaller of cap and capacity, then is fluid again")
    func aRampAcrossACapacityStepTakesTheSmallerOfCapAndCapacityInEachPiece() throws {
        // 2 Mbit/s until 0.25 s, then 10. Caps 1, 2, 4, 8 per 100 ms: 0.1 + 0.2 + 0.1 (2 for 50 ms) + 0.2 (4 for
        // 50 ms) + 0.8 = 1.4 Mbit by 0.4 s; the last 1.0 Mbit at 10 Mbit/s → 0.5 s.
        let curve = try CapacityCurve(starts: [0, 0.25], ratesBps: [2e6, 10e6], duration: 1000, atEnd: .hold)
        let link = SharedLink(curve: curve)
        let window = TransferWindow.slowStart(initialRateBps: 1e6, roundSeconds: 0.1, ceilingBps: link.peakRateBps)
        link.startFlow(owner: 0, bits: 2.4e6, demand: FlowDemand(), at: 0, window: window)
        let finish = link.nextCompletionTime()
        #expect(abs(finish - 0.5) < 1e-12)
        link.advance(to: 0.3)
        #expect(abs(link.remainingBits(owner: 0)! - 1.8e6) < 1e-6)
        #expect(link.isCapped)
        link.advance(to: 0.45)
        #expect(!link.isCapped, "the ramp is over: the flow is fluid again")
        #expect(abs(link.remainingBits(owner: 0)! - 0.5e6) < 1e-6)
        #expect(link.takeFinished(at: finish) == [0])
    }
}
