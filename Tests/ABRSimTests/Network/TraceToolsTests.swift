import ABRSimTestSupport
import Testing

@testable import ABRSim

extension NetworkTests {
    /// Slicing, scaling, concatenating and zeroing traces, on hand-made traces with hand-computed results.
    @Suite("trace slicing, scaling, joining and zeroing")
    struct TraceToolsTests {
        /// 0–2 s at 1000 bit/s, 2–5 s at 0, 5–8 s at 3000 bit/s, with latency and loss per piece.
        static let hand = Trace(
            name: "hand", starts: [0, 2, 5], ratesBps: [1000, 0, 3000], duration: 8, latencySeconds: [0.1, 0.2, 0.3],
            lossRates: [0, 0.01, 0.02])

        @Test("a trace slice keeps its window's pieces, latency and loss, shifted to start at 0")
        func sliceKeepsTheWindowAndShiftsItToZero() throws {
            let slice = try TraceTools.slice(Self.hand, from: 1, to: 6)
            #expect(slice.starts == [0, 1, 4])
            #expect(slice.ratesBps == [1000, 0, 3000])
            #expect(slice.duration == 5)
            #expect(slice.latencySeconds == [0.1, 0.2, 0.3])
            #expect(slice.lossRates == [0, 0.01, 0.02])
            #expect(slice.totalBits == 1000 + 3000)
            let inner = try TraceTools.slice(Self.hand, from: 5.5, to: 7)
            #expect(inner.starts == [0] && inner.ratesBps == [3000] && inner.duration == 1.5)
        }

        @Test("a slice reaching past the trace or of zero length is refused")
        func sliceOutsideTheTraceIsAnError() {
            #expect(throws: InputError.self) { try TraceTools.slice(Self.hand, from: 3, to: 9) }
            #expect(throws: InputError.self) { try TraceTools.slice(Self.hand, from: 4, to: 4) }
        }

        @Test("scaling a trace multiplies every rate and the final rate, and a negative factor is refused")
        func scaleMultipliesRatesAndTheFinalRate() throws {
            var trace = Self.hand
            trace.finalRateBps = 500
            let scaled = try TraceTools.scale(trace, by: 2.5)
            #expect(scaled.ratesBps == [2500, 0, 7500])
            #expect(scaled.finalRateBps == 1250)
            #expect(scaled.totalBits == 2.5 * Self.hand.totalBits)
            #expect(throws: InputError.self) { try TraceTools.scale(trace, by: -1) }
        }

        @Test("concatenated traces follow end to end, latency defaulting to 0")
        func concatenatePutsTracesEndToEnd() throws {
            let plain = Trace(name: "p", starts: [0, 1], ratesBps: [10, 20], duration: 3)
            let joined = try TraceTools.concatenate([Self.hand, plain], name: "j")
            #expect(joined.starts == [0, 2, 5, 8, 9])
            #expect(joined.ratesBps == [1000, 0, 3000, 10, 20])
            #expect(joined.duration == 11)
            #expect(joined.latencySeconds == [0.1, 0.2, 0.3, 0, 0])
            #expect(joined.totalBits == Self.hand.totalBits + plain.totalBits)
        }

        @Test("zeroing a trace cuts outages into it and merges the pieces")
        func zeroedCutsOutagesAndMergesPieces() {
            let cut = TraceTools.zeroed(
                Trace(name: "z", starts: [0, 2, 5], ratesBps: [1000, 0, 3000], duration: 8), during: [(1, 3), (6, 7)])
            #expect(cut.starts == [0, 1, 5, 6, 7])
            #expect(cut.ratesBps == [1000, 0, 3000, 0, 3000])
            #expect(cut.totalBits == 1000 + 2 * 3000)
        }

        @Test("stretches parse from outage=, preset: and kbps: forms, and bad forms are refused")
        func stretchesParseFromTheCommandLineForms() throws {
            let (outage, outageLabel) = try TraceTools.stretch(parsing: "outage=2")
            guard case .outage(let seconds) = outage else {
                Issue.record("\(outage)")
                return
            }
            #expect(seconds == 2 && outageLabel == "outage")
            let (preset, presetLabel) = try TraceTools.stretch(parsing: "preset:3G=30")
            guard case .preset(let p, 30) = preset else {
                Issue.record("\(preset)")
                return
            }
            #expect(p.name == "3g" && presetLabel == "3g")
            let (constant, _) = try TraceTools.stretch(parsing: "kbps:750=4.5")
            guard case .constant(750_000, 4.5, nil) = constant else {
                Issue.record("\(constant)")
                return
            }
            for bad in ["outage", "preset:nope=3", "kbps:x=3", "outage=-1", "/no/such/file.down=3"] {
                #expect(throws: InputError.self, "\(bad)") { try TraceTools.stretch(parsing: bad) }
            }
        }

        @Test("a composite network becomes one trace with each stretch's rate and latency")
        func aCompositeNetworkBecomesOneTrace() throws {
            let timeline = try NetworkTimeline.build(
                [
                    .constant(bps: 4e6, seconds: 10, rttSeconds: 0.02), .outage(seconds: 2),
                    .preset(NetworkPreset.named("3g")!, seconds: 5),
                ], defaultRttSeconds: 0.05, atEnd: .loop)
            let trace = TraceTools.trace(of: timeline, name: "walk")
            #expect(trace.starts == [0, 10, 12])
            #expect(trace.ratesBps == [4e6, 0, 780e3])
            #expect(trace.latencySeconds == [0.02, 0.05, 0.2])
            #expect(trace.lossRates == nil)
            #expect(trace.duration == 17)
        }

        /// The trace files shipped in scenarios/traces.
        static let shipped = NetworkTestSupport.files(in: TestPaths.scenarios + "/traces").filter {
            !$0.hasSuffix(".md")
        }

        /// Every trace shipped in scenarios/traces, written in every other format and read back, keeps its bits
        /// per period within 0.1 %. Mahimahi is read in 1 s bins, which keep the bits exactly, to keep the test
        /// quick; the 1 ms round trip of the largest trace is in TraceCommandTests.
        @Test(
            "every shipped trace written in every other format and read back keeps its bits within 0.1 %",
            arguments: shipped)
        func everyShippedTraceRoundTripsThroughEveryFormat(name: String) throws {
            #expect(Self.shipped.count >= 6)
            do {
                let path = TestPaths.scenarios + "/traces/" + name
                let source = try TraceReader.read(path: path, mahimahiBinMs: 1000)
                let original = try TraceFormat.detect(path: path)
                for format in TraceFormat.allCases where format != original {
                    let there = NetworkTestSupport.writeBytes(try TraceWriter.write(source, format: format))
                    let back = NetworkTestSupport.writeBytes(
                        try TraceWriter.write(try TraceReader.read(path: there), format: original))
                    let trace = try TraceReader.read(path: back, mahimahiBinMs: 1000)
                    #expect(
                        abs(trace.totalBits - source.totalBits) <= 1e-3 * source.totalBits, "\(name) via \(format)")
                }
            }
        }
    }
}
