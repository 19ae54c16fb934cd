import Foundation
import Testing

@testable import ABRSim

/// The `tcp` model by hand: initial window, persistent connections, restart after idle.
@Suite("the tcp download model")
struct TCPModelTests {
    @Test("an idle tcp connection halves its window per retransmission timeout, down to 10, unless restart is off")
    func anIdleConnectionHalvesItsWindowPerRetransmissionTimeoutDownToTheInitialWindow() {
        let model = TCPModel()
        // RTT 100 ms: RTO = 300 ms. Linux halves once for each RTO subtracted from the idle time that leaves it
        // positive: 0.2 s keeps 160; 0.5 s (0.2 left) halves once → 80; 1.0 s (0.7, 0.4, 0.1 left) three times
        // → 20; 10 s reaches the floor of the initial window, 10.
        #expect(model.startingWindow(nil, idleSeconds: 5, rtt: 0.1) == 10)
        #expect(model.startingWindow(160, idleSeconds: 0.2, rtt: 0.1) == 160)
        #expect(model.startingWindow(160, idleSeconds: 0.5, rtt: 0.1) == 80)
        #expect(model.startingWindow(160, idleSeconds: 1.0, rtt: 0.1) == 20)
        #expect(model.startingWindow(160, idleSeconds: 10, rtt: 0.1) == 10)
        var noRestart = TCPModel()
        noRestart.restartsAfterIdle = false
        #expect(noRestart.startingWindow(160, idleSeconds: 10, rtt: 0.1) == 160)
        var fresh = TCPModel()
        fresh.isPersistent = false
        #expect(fresh.startingWindow(160, idleSeconds: 0, rtt: 0.1) == 10)
    }

    @Test("the tcp window starts at 10 segments per round trip and grows across back-to-back requests")
    func theWindowStartsAtTenSegmentsPerRoundTripAndGrowsAcrossBackToBackRequests() {
        let model = TCPModel()
        let rtt = 0.1
        let first = model.plan(
            DownloadRequest(bits: 8e6, availableBps: 100e6, peakBps: 100e6, roundTripSeconds: rtt))
        let window = first.window!
        // 10 × 1448 B per 100 ms = 1.1584 Mbit/s, doubling: 7 rounds to reach 100 Mbit/s (× 128 = 148 Mbit/s).
        #expect(abs(window.initialRateBps - 10 * 1448 * 8 / rtt) < 1e-6)
        #expect(window.doublingRounds == 7)
        // 1 MB: rounds carry 0.11584 × (1 + 2 + 4 + 8 + 16 + 32) = 7.29792 Mbit by 0.6 s; the rest at min(74.1, 100).
        let expected = 0.6 + (8e6 - 0.115840 * 63e6 / 1) / (0.115840e6 * 64 / rtt)
        #expect(abs(first.modelSeconds - expected) < 1e-9)
        let after = model.connection(
            after: first, bits: 8e6, seconds: first.modelSeconds, from: ConnectionState())
        #expect(after.congestionWindowSegments == 640)
        let next = model.plan(
            DownloadRequest(
                bits: 8e6, availableBps: 100e6, peakBps: 100e6, roundTripSeconds: rtt, idleSeconds: 0.01,
                connection: after))
        // The next request starts at 640 segments (74.1376 Mbit/s): one round carries 7.41376 Mbit, the rest goes
        // at the 100 Mbit/s capacity.
        #expect(abs(next.modelSeconds - (0.1 + (8e6 - 7.41376e6) / 100e6)) < 1e-9)
    }
}
