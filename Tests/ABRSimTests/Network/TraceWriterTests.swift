import Testing

@testable import ABRSim

extension NetworkTests {
    /// Writing a trace and reading it back keeps its capacity curve (mahimahi within its quantisation).
    @Suite("the trace writers")
    struct TraceWriterTests {
        typealias Support = NetworkTestSupport

        static let handCSV =
            "time_s,bandwidth_kbps,latency_ms,loss\n0,1500,40,0\n2.5,0,40,0.01\n3,800.5,80,0\n10,2000,20,0.5\n"

        /// One trace per format: a mahimahi, a pensieve, a sabre file from shared data, and a hand CSV.
        static func sources() throws -> [Trace] {
            [
                // 100 ms bins keep the all-pairs test quick (1 ms bins give ~10⁵ pieces).
                try TraceReader.read(path: Support.traces + "/mahimahi/ATT-LTE-driving-2016.down", mahimahiBinMs: 100),
                try TraceReader.read(path: Support.traces + "/pensieve/test/norway_bus_1"),
                try TraceReader.read(path: Support.traces + "/sabre/example-network.json"),
                try TraceReader.read(path: Support.write(handCSV, name: "hand.csv")),
            ]
        }

        /// Writes `trace` as `format` and reads it back, detecting the format from the content.
        func roundTrip(_ trace: Trace, _ format: TraceFormat) throws -> Trace {
            let path = Support.writeBytes(try TraceWriter.write(trace, format: format), name: trace.name)
            #expect(try TraceFormat.detect(path: path) == format)
            return try TraceReader.read(path: path)
        }

        @Test(
            "a trace taken through any two formats and back keeps its bits per period within 0.1 % and its duration",
            arguments: TraceFormat.allCases)
        func everyFormatToEveryFormatKeepsTheBitsPerPeriod(first: TraceFormat) throws {
            for source in try Self.sources() {
                let once = try roundTrip(source, first)
                for second in TraceFormat.allCases {
                    let twice = try roundTrip(once, second)
                    let back = try roundTrip(twice, first)
                    for trace in [once, twice, back] {
                        #expect(
                            Support.close(trace.totalBits, source.totalBits, relative: 1e-3),
                            "\(source.name) → \(first) → \(second): \(trace.totalBits) vs \(source.totalBits)")
                        #expect(abs(trace.duration - source.duration) <= 0.0005)
                    }
                }
            }
        }

        @Test(
            "the Pensieve, sabre and CSV formats keep the rate, and the latency where written, exactly",
            arguments: [TraceFormat.pensieve, .sabre, .csv])
        func exactFormatsKeepTheRateCurve(format: TraceFormat) throws {
            for source in try Self.sources() {
                let back = try roundTrip(source, format)
                let a = try source.curve(atEnd: .loop)
                let b = try back.curve(atEnd: .loop)
                for i in 0..<source.pieceCount {
                    let t = (source.starts[i] + source.end(ofPiece: i)) / 2
                    #expect(Support.close(a.rate(at: t), b.rate(at: t), relative: 1e-12))
                    if format != .pensieve, let latency = a.latency(at: t) {
                        #expect(Support.close(latency, b.latency(at: t)!, relative: 1e-12))
                    }
                }
            }
        }

        @Test("a hand CSV trace is written back byte for byte, latency, loss and final row included")
        func csvRoundTripKeepsLatencyLossAndTheFinalRow() throws {
            let source = try TraceReader.read(path: Support.write(Self.handCSV, name: "hand.csv"))
            let text = String(decoding: try TraceWriter.write(source, format: .csv), as: UTF8.self)
            #expect(text == Self.handCSV)
        }

        @Test("a mahimahi trace written and read back has the same pieces and duration")
        func mahimahiRoundTripIsExact() throws {
            let source = try TraceReader.read(path: Support.traces + "/mahimahi/Verizon-LTE-short.down")
            let back = try roundTrip(source, .mahimahi)
            #expect(back.starts == source.starts)
            #expect(back.ratesBps == source.ratesBps)
            #expect(back.duration == source.duration)
        }

        @Test("a mahimahi trace ending in an outage keeps its period and bits")
        func mahimahiKeepsThePeriodWhenTheTraceEndsInAnOutage() throws {
            let trace = Trace(name: "t", starts: [0, 0.5], ratesBps: [1.2e6, 0], duration: 1)
            let back = try roundTrip(trace, .mahimahi)
            #expect(back.duration == 1)
            #expect(Support.close(back.totalBits, trace.totalBits, relative: 1e-12))
        }

        @Test("a trace with no capacity cannot be written as mahimahi")
        func mahimahiCannotWriteAnEmptyTrace() {
            let trace = Trace(name: "t", starts: [0], ratesBps: [0], duration: 1)
            #expect(throws: InputError.self) { try TraceWriter.write(trace, format: .mahimahi) }
        }
    }
}
