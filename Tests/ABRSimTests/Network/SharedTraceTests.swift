import Testing

@testable import ABRSim

extension NetworkTests {
    /// The real traces under scenarios/data/traces, in all four formats.
    @Suite("the shipped real traces")
    struct SharedTraceTests {
        typealias Support = NetworkTestSupport

        /// Mean Mbit/s from reference-literature.md §4.1 (three decimals) and the data README (two).
        @Test(
            "each shipped mahimahi trace has the published mean rate and duration, and wider bins keep its total",
            arguments: [
                ("TMobile-LTE-short.down", 16.703, 16.70, 140.0), ("Verizon-LTE-short.down", 5.028, 5.03, 140.0),
                ("ATT-LTE-driving-2016.down", 4.560, 4.56, 120.0), ("TMobile-UMTS-driving.down", 2.020, 2.02, 928.4),
                ("Verizon-EVDO-driving.down", 0.521, 0.52, 1062.0),
            ])
        func mahimahiMeansMatchTheTables(file: String, meanMbps: Double, readmeMbps: Double, seconds: Double) throws {
            let path = Support.traces + "/mahimahi/" + file
            #expect(try TraceFormat.detect(path: path) == .mahimahi)
            let trace = try TraceReader.read(path: path)
            #expect(abs(trace.duration - seconds) < 0.05)
            let mean = trace.totalBits / trace.duration / 1e6
            // Three significant figures, and the README's two decimals.
            let unit = meanMbps >= 10 ? 0.1 : meanMbps >= 1 ? 0.01 : 0.001
            #expect((mean / unit).rounded() == (meanMbps / unit).rounded())
            #expect((mean * 100).rounded() == (readmeMbps * 100).rounded())
            // Wider bins keep the same total.
            let binned = try TraceReader.read(path: path, mahimahiBinMs: 1000)
            #expect(Support.close(binned.totalBits, trace.totalBits, relative: 1e-12))
        }

        @Test("all 142 Pensieve Norway test traces read, with a time-weighted mean of 1 to 2.5 Mbit/s")
        func pensieveNorwayTestTracesAllRead() throws {
            let folder = Support.traces + "/pensieve/test"
            let names = Support.files(in: folder).filter { $0.hasPrefix("norway_") }
            #expect(names.count == 142)
            var bits = 0.0
            var seconds = 0.0
            for name in names {
                let path = folder + "/" + name
                #expect(try TraceFormat.detect(path: path) == .pensieve)
                let trace = try TraceReader.read(path: path)
                #expect(trace.duration > 0)
                _ = try trace.curve(atEnd: .loop)
                bits += trace.totalBits
                seconds += trace.duration
            }
            // A 3G set: the time-weighted mean is 1–2.5 Mbit/s (the README's 1.52 is another kind of mean).
            #expect(bits / seconds > 1e6 && bits / seconds < 2.5e6)
        }

        /// Total bits of a few cooked traces against a direct sum Σ bw[i]·(t[i] − t[i−1]) over the file's text.
        @Test(
            "a Pensieve trace's total bits equal a direct sum over its file's lines",
            arguments: ["norway_bus_1", "norway_ferry_2", "norway_train_5"])
        func pensieveTotalsMatchADirectSum(name: String) throws {
            let path = Support.traces + "/pensieve/test/" + name
            let text = String(decoding: try InputFile.readAll(path), as: UTF8.self)
            var expected = 0.0
            var previous: Double?
            for line in text.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Double($0)! }
                if let previous { expected += fields[1] * 1e6 * (fields[0] - previous) }
                previous = fields[0]
            }
            let trace = try TraceReader.read(path: path)
            #expect(Support.close(trace.totalBits, expected, relative: 1e-9))
        }

        @Test("all 86 sabre 3G traces read as sabre, with a latency for every piece")
        func sabreThreeGTracesAllRead() throws {
            let folder = Support.traces + "/sabre/3g"
            let names = Support.files(in: folder)
            #expect(names.count == 86)
            for name in names {
                let path = folder + "/" + name
                #expect(try TraceFormat.detect(path: path) == .sabre)
                let trace = try TraceReader.read(path: path)
                #expect(trace.latencySeconds?.count == trace.pieceCount)
                _ = try trace.curve(atEnd: .loop)
            }
        }

        @Test("sabre's example network reads as four 30 s periods with their rates and latencies")
        func sabreExampleNetwork() throws {
            let trace = try TraceReader.read(path: Support.traces + "/sabre/example-network.json")
            #expect(trace.starts == [0, 30, 60, 90])
            #expect(trace.ratesBps == [5e6, 3e6, 1.5e6, 3e6])
            #expect(trace.latencySeconds == [0.075, 0.15, 0.2, 0.15])
            #expect(trace.duration == 120)
            let curve = try trace.curve(atEnd: .loop)
            #expect(curve.totalBitsPerPeriod == 375e6)
            #expect(curve.timeToDeliver(10e6, after: 29) == 30 + 5e6 / 3e6)
        }
    }
}
