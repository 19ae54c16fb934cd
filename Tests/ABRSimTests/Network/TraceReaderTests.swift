import Testing

@testable import ABRSim

extension NetworkTests {
    /// Each reader on small hand-written files, against hand-computed pieces.
    @Suite("the trace readers")
    struct TraceReaderTests {
        typealias Support = NetworkTestSupport

        static let mahimahi = "0\n1\n1\n3\n5\n5\n5\n"

        @Test("a mahimahi trace in 1 ms bins gives 12 Mbit/s per packet in each bin, with the total kept")
        func mahimahiOneMillisecondBins() throws {
            // Bins (0,1]: 3 packets, (1,2]: 0, (2,3]: 1, (3,4]: 0, (4,5]: 3.
            let trace = try TraceReader.read(path: Support.write(Self.mahimahi, name: "hand.down"))
            #expect(trace.name == "hand.down")
            #expect(trace.starts == [0, 0.001, 0.002, 0.003, 0.004])
            #expect(trace.ratesBps == [36e6, 0, 12e6, 0, 36e6])
            #expect(trace.duration == 0.005)
            #expect(trace.latencySeconds == nil)
            #expect(Support.close(trace.totalBits, 7 * 12_000))
        }

        @Test("wider mahimahi bins average their packets, the last bin cut at the period's end")
        func mahimahiWiderBinsCutTheLastBinAtThePeriod() throws {
            // Bins (0,2]: 3 packets over 2 ms, (2,4]: 1 over 2 ms, (4,5]: 3 over the 1 ms left.
            let path = Support.write(Self.mahimahi)
            let trace = try TraceReader.read(path: path, format: .mahimahi, mahimahiBinMs: 2)
            #expect(trace.starts == [0, 0.002, 0.004])
            #expect(trace.ratesBps == [18e6, 6e6, 36e6])
            #expect(Support.close(trace.totalBits, 7 * 12_000))
        }

        @Test("a one-line mahimahi trace is a constant 12 Mbit/s link")
        func mahimahiSingleLineIsAConstantTwelveMegabitLink() throws {
            let trace = try TraceReader.read(path: Support.write("1\n"))
            #expect(trace.starts == [0])
            #expect(trace.ratesBps == [12e6])
            #expect(trace.duration == 0.001)
            let curve = try trace.curve(atEnd: .loop)
            #expect(Support.close(curve.cumulativeBits(at: 2.5), 30e6))
        }

        @Test("a mahimahi trace starting after 0 ms begins with an outage")
        func mahimahiLateStartBeginsWithAnOutage() throws {
            let trace = try TraceReader.read(path: Support.write("3\n3\n4\n"))
            #expect(trace.starts == [0, 0.002, 0.003])
            #expect(trace.ratesBps == [0, 24e6, 12e6])
        }

        @Test("each Pensieve interval runs at the rate of its end sample, blank lines skipped")
        func pensieveIntervalsRunAtTheirEndSample() throws {
            let trace = try TraceReader.read(path: Support.write("10\t1.0\n11 2.0\n\n13\t0.5\n"))
            #expect(trace.starts == [0, 1])
            #expect(trace.ratesBps == [2e6, 0.5e6])
            #expect(trace.duration == 3)
            #expect(trace.totalBits == 3e6)
        }

        @Test("sabre periods keep their latencies and a zero bandwidth, whatever the key order")
        func sabrePeriodsWithLatencyAndZeroBandwidth() throws {
            let json = """
                [
                  {"duration_ms": 1000, "bandwidth_kbps": 500, "latency_ms": 100},
                  {"latency_ms": 50, "duration_ms": 500, "bandwidth_kbps": 0}
                ]
                """
            let trace = try TraceReader.read(path: Support.write(json, name: "net.json"))
            #expect(trace.starts == [0, 1])
            #expect(trace.ratesBps == [500e3, 0])
            #expect(trace.latencySeconds == [0.1, 0.05])
            #expect(trace.duration == 1.5)
        }

        @Test("a sabre trace without latency reads with none")
        func sabreWithoutLatency() throws {
            let trace = try TraceReader.read(path: Support.write("[{\"duration_ms\": 2, \"bandwidth_kbps\": 1e3}]"))
            #expect(trace.ratesBps == [1e6])
            #expect(trace.duration == 0.002)
            #expect(trace.latencySeconds == nil)
        }

        @Test(
            "the columns of a CSV trace may come in any order, with comments; the last row marks the end and held rate")
        func csvColumnsInAnyOrderAndTheLastRowMarksTheEnd() throws {
            let csv = "# a comment\nbandwidth_kbps, time_s,loss\n1000,5,0.1\n\n2000,7,0\n# end\n3000,8,0.5\n"
            let trace = try TraceReader.read(path: Support.write(csv, name: "t.csv"))
            #expect(trace.starts == [0, 2])
            #expect(trace.ratesBps == [1e6, 2e6])
            #expect(trace.duration == 3)
            #expect(trace.lossRates == [0.1, 0])
            #expect(trace.latencySeconds == nil)
            #expect(trace.finalRateBps == 3e6)
            #expect(trace.finalLossRate == 0.5)
            let hold = try trace.curve(atEnd: .hold)
            #expect(hold.rate(at: 10) == 3e6)
            #expect(hold.loss(at: 10) == 0.5)
            #expect(hold.cumulativeBits(at: 4) == 2e6 + 2e6 + 3e6)
            let loop = try trace.curve(atEnd: .loop)
            #expect(loop.rate(at: 3.5) == 1e6)
        }

        @Test("a CSV trace's latency is read per piece, the last row's giving the final latency")
        func csvWithLatency() throws {
            let trace = try TraceReader.read(
                path: Support.write("time_s,bandwidth_kbps,latency_ms\n0,100,20\n1,0,30\n"))
            #expect(trace.latencySeconds == [0.02])
            #expect(trace.finalLatencySeconds == 0.03)
            #expect(trace.finalRateBps == 0)
        }

        @Test("the trace format is told from the content, not the file name, and unknown content names line 1")
        func formatIsDetectedFromTheContent() throws {
            #expect(try TraceFormat.detect(path: Support.write("\n 12\n13\n", name: "x.csv")) == .mahimahi)
            #expect(try TraceFormat.detect(path: Support.write("0.0\t4.03\n1\t2\n", name: "x.json")) == .pensieve)
            #expect(try TraceFormat.detect(path: Support.write("  [\n{}]")) == .sabre)
            #expect(try TraceFormat.detect(path: Support.write("# c\ntime_s,bandwidth_kbps\n")) == .csv)
            let path = Support.write("hello world again\n")
            let error = try #require(throws: InputError.self) { try TraceFormat.detect(path: path) }
            #expect(error.place == .line(path, 1))
            let expected = listedAsAlternatives(TraceFormat.registry.members.map(\.appearance))
            #expect(
                error.problem
                    == .within("cannot tell the trace format", .expected(expected, found: "‘hello world again’")))
        }
    }
}
