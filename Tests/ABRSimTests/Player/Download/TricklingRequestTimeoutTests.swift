import Testing

@testable import ABRSim

/// Request timeouts on capped links (rate limits, loss) where a flow trickles: its bits grow, but by less than one
/// byte per timeout, so it counts as receiving nothing. Default retry settings: 60 s timeout, 4 retries after 1,
/// 2, 4 and 8 s. Helpers from ``RequestTimeoutTests`` (4 Mbit segments, fixed policy, no RTT unless given).
@Suite("request timeouts of trickling flows")
struct TricklingRequestTimeoutTests {
    static let trickleBps = 1e-6  // a rate limit of 1e-9 kbit/s: 6e-5 bit per 60 s

    /// Five attempts of segment 0, each sent `firstRequest` + the back-off after the previous timeout.
    static let requestTimes: [Double] = [0, 61, 123, 187, 255]

    static func expectFiveTimeouts(_ records: [SegmentRecord], firstRequest: Double, firstTimeout: Double) {
        let shift = firstTimeout - 60
        #expect(records.map(\.attempt) == [1, 2, 3, 4, 5])
        #expect(records.allSatisfy { $0.timedOut && $0.abandoned && $0.segment == 0 })
        let requests = [firstRequest] + requestTimes.dropFirst().map { $0 + shift }
        #expect(zip(records.map(\.requestTime), requests).allSatisfy { RequestTimeoutTests.near($0, $1) })
        #expect(
            zip(records.map(\.doneTime), requestTimes.map { $0 + 60 + shift }).allSatisfy {
                RequestTimeoutTests.near($0, $1)
            })
    }

    static let failure = "segment 0 timed out 5 times (no data for 60 s; retry limit 4)"

    /// The first attempt used to time out only when the float tolerance outgrew the trickle (6900 s).
    @Test(
        "a rate limit under one byte per timeout times out five attempts and fails at 315 s, with or without RTT",
        arguments: [0.0, 0.08])
    func aRateLimitBelowOneBytePerTimeoutFailsAfterFiveAttemptsAt315Seconds(rttSeconds: Double) throws {
        // Each attempt times out 60 s after its request (the RTT counts): 0→60, 61→121, 123→183, 187→247,
        // 255→315 = 60+1+60+2+60+4+60+8+60.
        let curve = try CapacityCurve(starts: [0], ratesBps: [5e6], duration: 100, latencySeconds: [rttSeconds])
        let player = try RequestTimeoutTests.player(timeout: 60) { $0.rateLimitBps = Self.trickleBps }
        let result = Simulation(curve: curve, players: [player]).run()
        Self.expectFiveTimeouts(result.segments[0], firstRequest: 0, firstTimeout: 60)
        #expect(result.totals[0].finalState == .failed(reason: Self.failure))
        #expect(RequestTimeoutTests.near(result.totals[0].endTime, 315))
        #expect(result.totals[0].bytes < 1)
    }

    /// Starved for part of the time: 0.1 Mbit/s for 10 s, then a trickle (1e-6 bit/s, under a 2 Mbit/s rate
    /// limit) or total loss (RTT 0.05 s). Either way the link is capped (the piece walk).
    @Test(
        "a capped flow starved after 10 s by a trickle or total loss times out 60 s later, keeping whole bytes",
        arguments: [false, true])
    func aCappedFlowStarvedAfterTenSecondsTimesOutSixtySecondsLater(byLoss: Bool) throws {
        // Attempt 1 gets 1 Mbit in [0, 10) (0.995 Mbit from 0.05 with the RTT), then nothing (or 6e-5 bit): idle
        // from 10 s, it times out at 70 (not when a later review sees the old bits); then 71→131, 133→193,
        // 197→257, 265→325.
        let curve = try CapacityCurve(
            starts: [0, 10], ratesBps: [0.1e6, byLoss ? 5e6 : Self.trickleBps], duration: 10_000,
            latencySeconds: byLoss ? [0.05, 0.05] : nil, lossRates: byLoss ? [0, 1] : nil)
        let player = try RequestTimeoutTests.player(timeout: 60) { if !byLoss { $0.rateLimitBps = 2e6 } }
        let result = Simulation(curve: curve, players: [player]).run()
        let records = result.segments[0]
        Self.expectFiveTimeouts(records, firstRequest: 0, firstTimeout: 70)
        // Whole bytes: the trickle's 6e-5 bit completes no byte.
        #expect(records.first?.bytes == (byLoss ? 124_375 : 125_000))
        #expect(result.totals[0].finalState == .failed(reason: Self.failure))
        #expect(RequestTimeoutTests.near(result.totals[0].endTime, 325))
    }

    @Test("a trickling flow times out on schedule while another capped flow changes the link every 2 s")
    func aTricklingFlowTimesOutOnScheduleWhileAnotherCappedFlowKeepsChangingTheLink() throws {
        // 5 Mbit/s; `busy` (rate limit 2 Mbit/s) downloads 40 segments back to back, done every 2 s until 80 s,
        // so the link changes (and reviews `slow`) every 2 s. `slow` trickles at 1e-6 bit/s and still times
        // out at 60, 121, 183, 247 and fails at 315.
        let busy = try RequestTimeoutTests.player("busy", segments: 40, timeout: 60) {
            $0.rateLimitBps = 2e6
            $0.preferredForwardBufferDuration = 1000
        }
        let slow = try RequestTimeoutTests.player("slow", timeout: 60) { $0.rateLimitBps = Self.trickleBps }
        let curve = try CapacityCurve(starts: [0], ratesBps: [5e6], duration: 100, latencySeconds: [0])
        let result = Simulation(curve: curve, players: [busy, slow]).run()
        let busyDone = result.segments[0].map(\.doneTime)
        #expect(busyDone.count == 40)
        #expect(busyDone.enumerated().allSatisfy { RequestTimeoutTests.near($1, 2 * Double($0 + 1)) })
        #expect(result.totals[0].finalState == .ended)
        Self.expectFiveTimeouts(result.segments[1], firstRequest: 0, firstTimeout: 60)
        #expect(result.totals[1].finalState == .failed(reason: Self.failure))
        #expect(RequestTimeoutTests.near(result.totals[1].endTime, 315))
    }

    @Test("the link records a capped flow's last data time, counting a trickle as no data")
    func theLinkRecordsTheLastDataOfACappedFlowIgnoringATrickle() throws {
        // 1 Mbit/s on [0, 10), 1e-6 bit/s on [10, 20), 1 Mbit/s after; the flow (limit 2 Mbit/s) counts rates
        // under 8/60 bit/s as nothing: last data at 10 until 20, then at the latest update.
        let curve = try CapacityCurve(starts: [0, 10, 20], ratesBps: [1e6, 1e-6, 1e6], duration: 100)
        let link = SharedLink(curve: curve)
        link.startFlow(owner: 0, bits: 1e9, demand: FlowDemand(rateLimitBps: 2e6), at: 2, minimumDataRateBps: 8 / 60)
        #expect(link.lastDataTime(owner: 0) == -.infinity)
        link.advance(to: 5)
        #expect(link.lastDataTime(owner: 0) == 5)
        link.advance(to: 15)
        #expect(link.lastDataTime(owner: 0) == 10)
        link.advance(to: 19)
        #expect(link.lastDataTime(owner: 0) == 10)
        link.advance(to: 23)
        #expect(link.lastDataTime(owner: 0) == 23)
        #expect(link.lastDataTime(owner: 1) == -.infinity)
    }

    @Test("an uncapped flow's last data time is where the capacity was last positive")
    func anUncappedFlowsLastDataIsWhereTheCapacityLastWasPositive() throws {
        // No caps: 1 Mbit/s on [0, 10), an outage on [10, 30): updated at 25, the last bit came at 10.
        let curve = try CapacityCurve(starts: [0, 10, 30], ratesBps: [1e6, 0, 1e6], duration: 100)
        let link = SharedLink(curve: curve)
        link.startFlow(owner: 0, bits: 1e9, demand: FlowDemand(), at: 0, minimumDataRateBps: 8 / 60)
        link.advance(to: 25)
        #expect(RequestTimeoutTests.near(link.lastDataTime(owner: 0), 10))
    }
}
