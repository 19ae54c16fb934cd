import Testing

@testable import ABRSim

extension NetworkTests {
    /// Composite timelines checked by hand.
    @Suite("composite networks")
    struct CompositeNetworkTests {
        typealias Support = NetworkTestSupport

        /// wifi 10 s (40 Mbit/s, 2 ms) + outage 2 s + constant 1000 kbit/s 5 s, default RTT 50 ms.
        func walk(_ atEnd: TraceEndBehavior = .loop) throws -> NetworkTimeline {
            try NetworkTimeline.build(
                [
                    .preset(NetworkPreset.named("wifi")!, seconds: 10), .outage(seconds: 2),
                    .constant(bps: 1_000_000, seconds: 5, rttSeconds: nil),
                ], defaultRttSeconds: 0.05, atEnd: atEnd)
        }

        @Test("a preset, an outage and a constant stretch join into one curve with hand-computed bits and times")
        func stretchesConcatenate() throws {
            let timeline = try walk()
            #expect(timeline.stretchStarts == [0, 10, 12])
            #expect(timeline.labels == ["wifi", "outage", "constant"])
            let c = timeline.curve
            #expect(c.duration == 17)
            #expect(c.pieceCount == 3)
            #expect(c.cumulativeBits(at: 5) == 200e6)
            #expect(c.cumulativeBits(at: 11) == 400e6)
            #expect(c.cumulativeBits(at: 14) == 402e6)
            #expect(c.cumulativeBits(at: 17 + 1) == 405e6 + 40e6)
            #expect(c.time(atCumulativeBits: 400e6) == 10)
            #expect(c.time(atCumulativeBits: 401e6) == 13)
            #expect(c.timeToDeliver(1e6, after: 9.99) == 12 + 0.6)
        }

        @Test("every piece of a composite network has its stretch's latency, or the default RTT")
        func everyPieceHasALatency() throws {
            let c = try walk().curve
            #expect(c.latency(at: 5) == 0.002)
            #expect(c.latency(at: 11) == 0.05)
            #expect(c.latency(at: 15) == 0.05)
            #expect(c.latency(at: 17 + 5) == 0.002)
            #expect(c.loss(at: 15) == 0)
        }

        @Test("the end behaviour applies to the composite network as a whole")
        func endBehaviourAppliesToTheWhole() throws {
            let c = try walk(.end).curve
            #expect(c.time(atCumulativeBits: 406e6) == .infinity)
            #expect(try walk(.hold).curve.rate(at: 100) == 1e6)
        }

        @Test("a trace shorter than its stretch loops within it and keeps its own latencies")
        func shortTraceLoopsInsideItsStretchAndKeepsItsLatency() throws {
            let trace = Trace(
                name: "t.json", starts: [0, 1], ratesBps: [1e6, 3e6], duration: 3, latencySeconds: [0.1, 0.2])
            let timeline = try NetworkTimeline.build(
                [.outage(seconds: 1), .trace(trace, seconds: 7, rttSeconds: nil), .preset(.named("3g")!, seconds: 1)],
                defaultRttSeconds: 0.05, atEnd: .loop)
            let c = timeline.curve
            #expect(timeline.labels == ["outage", "t.json", "3g"])
            #expect(timeline.stretchStarts == [0, 1, 8])
            #expect(c.starts == [0, 1, 2, 4, 5, 7, 8])
            #expect(c.ratesBps == [0, 1e6, 3e6, 1e6, 3e6, 1e6, 780e3])
            #expect(c.latency(at: 4.5) == 0.1)
            #expect(c.latency(at: 6) == 0.2)
            #expect(c.latency(at: 8.5) == 0.2)
            #expect(c.cumulativeBits(at: 8) == 2 * 7e6 + 1e6)
        }

        @Test("a stretch's RTT overrides its trace's latency, and a stretch without seconds lasts the trace's duration")
        func explicitRttOverridesTheTraceAndNilSecondsUsesItsDuration() throws {
            let trace = Trace(name: "t", starts: [0], ratesBps: [2e6], duration: 4, latencySeconds: [0.1])
            let timeline = try NetworkTimeline.build(
                [.trace(trace, seconds: nil, rttSeconds: 0.3), .trace(trace, seconds: 2, rttSeconds: nil)],
                defaultRttSeconds: 0, atEnd: .loop)
            #expect(timeline.curve.duration == 6)
            #expect(timeline.curve.latency(at: 1) == 0.3)
            #expect(timeline.curve.latency(at: 5) == 0.1)
        }

        @Test("a one-rate trace in a long stretch makes a single piece")
        func constantTraceInALongStretchIsOnePiece() throws {
            let trace = Trace(name: "one", starts: [0], ratesBps: [12e6], duration: 0.001)
            let timeline = try NetworkTimeline.build(
                [.trace(trace, seconds: 1000, rttSeconds: nil)], defaultRttSeconds: 0.1, atEnd: .loop)
            #expect(timeline.curve.pieceCount == 1)
            #expect(timeline.curve.totalBitsPerPeriod == 12e9)
        }

        @Test("no stretches, a zero-second stretch named by its index, or a negative rate is refused")
        func badStretchesAreInputErrors() {
            #expect(throws: InputError.self) {
                try NetworkTimeline.build([], defaultRttSeconds: 0, atEnd: .loop)
            }
            #expect(
                throws: InputError(
                    .named("stretches[1]"),
                    .mustBe("a stretch's length", rule: "finite and > 0", found: "0.0", unit: "s"))
            ) {
                try NetworkTimeline.build(
                    [.outage(seconds: 1), .outage(seconds: 0)], defaultRttSeconds: 0, atEnd: .loop)
            }
            #expect(throws: InputError.self) {
                try NetworkTimeline.build(
                    [.constant(bps: -1, seconds: 1, rttSeconds: nil)], defaultRttSeconds: 0, atEnd: .loop)
            }
        }
    }
}
