import Testing

@testable import ABRSim

extension NetworkTests {
    /// `trace info`'s statistics: hand-computed small cases, and the shipped mahimahi traces against an
    /// independent binning of the files' timestamps and the data README's table.
    @Suite("trace statistics")
    struct TraceStatisticsTests {
        typealias Support = NetworkTestSupport

        @Test(
            "trace statistics over whole-second bins give the hand-computed mean, spread, percentiles and zero seconds")
        func wholeSecondBinsByHand() throws {
            let trace = Trace(name: "h", starts: [0, 1, 2, 3], ratesBps: [1000, 0, 2000, 4000], duration: 4)
            let s = try TraceStatistics(trace)
            #expect(s.meanBps == 1750)
            // Sample sd of 1000, 0, 2000, 4000: √((750² + 1750² + 250² + 2250²) / 3).
            #expect(Support.close(s.standardDeviationBps, (8_750_000.0 / 3).squareRoot()))
            // Linear interpolation on the sorted bins 0, 1000, 2000, 4000 at (n − 1)·q.
            #expect(Support.close(s.p5Bps, 150))
            #expect(Support.close(s.p50Bps, 1500))
            #expect(Support.close(s.p95Bps, 3700))
            #expect(s.zeroSeconds == 1 && s.minimumBps == 0 && s.maximumBps == 4000)
        }

        @Test("a one-second bin averages the pieces inside it")
        func binsAverageThePiecesInside() throws {
            // 0–0.5 s at 0, then 2000 bit/s: bins of 1000 and 2000, none entirely at zero.
            let s = try TraceStatistics(Trace(name: "h", starts: [0, 0.5], ratesBps: [0, 2000], duration: 2))
            #expect(s.minimumBps == 1000 && s.maximumBps == 2000 && s.zeroSeconds == 0)
            #expect(s.meanBps == 1500)
        }

        @Test("a short last bin weighs in the mean by its length and is left out of the percentiles")
        func aShortLastBinWeighsByItsLength() throws {
            // 2.25 s: bins 0–1 and 1–2 at 100, 2–2.25 at 500. The sliver is left out of the percentiles.
            let s = try TraceStatistics(Trace(name: "h", starts: [0, 2], ratesBps: [100, 500], duration: 2.25))
            #expect(s.maximumBps == 100 && s.p95Bps == 100)
            #expect(Support.close(s.meanBps, 325 / 2.25))
            #expect(s.standardDeviationBps > 0)
        }

        /// The 1-s bins of a mahimahi file computed straight from its text: an opportunity at t ms is delivered
        /// during (t − 1, t] ms, so it counts in bin ⌊(t − 1)/1000⌋ (t = 0 in bin 0).
        static func directBins(_ path: String) throws -> [Double] {
            let reader = try LineReader(path: path)
            var counts: [Double] = []
            var last = 0
            while let line = try reader.nextLine() {
                guard let t = TraceText.unsignedInteger(TraceText.trimmed(line)) else { continue }
                let bin = t == 0 ? 0 : (t - 1) / 1000
                while counts.count <= bin { counts.append(0) }
                counts[bin] += 12_000
                last = t
            }
            // The last bin is [⌊last/1000⌋·1000, last] ms when the period is not whole seconds.
            let width = Double(last - (counts.count - 1) * 1000) / 1000
            counts[counts.count - 1] /= width
            return counts
        }

        @Test(
            "shipped mahimahi trace statistics match a direct binning of the file and the published table within 2 %",
            arguments: [
                // file, SD, p50, p95 (Mbit/s) and seconds at zero from reference-literature.md §4.1.
                ("ATT-LTE-driving-2016.down", 3.89, 3.73, 11.08, 0.0),
                ("TMobile-LTE-short.down", 9.83, 13.81, 36.60, 0),
                ("Verizon-LTE-short.down", 3.21, 4.26, 10.81, 0),
                ("TMobile-UMTS-driving.down", 1.58, 1.88, 5.30, 32),
                ("Verizon-EVDO-driving.down", 0.46, 0.41, 1.44, 43),
            ])
        func mahimahiStatisticsMatchADirectBinningAndTheTable(
            file: String, sd: Double, p50: Double, p95: Double, zero: Double
        ) throws {
            let path = Support.traces + "/mahimahi/" + file
            let s = try TraceStatistics(try TraceReader.read(path: path))
            var bins = try Self.directBins(path)
            // Like TraceStatistics, leave a last bin shorter than half a second out of the percentiles.
            let tail = s.durationSeconds - s.durationSeconds.rounded(.down)
            if tail > 0, tail < 0.5 { bins.removeLast() }
            let direct = SampleStatistics(bins)
            #expect(Support.close(s.p50Bps, direct.p50, relative: 1e-9))
            #expect(Support.close(s.p95Bps, direct.p95, relative: 1e-9))
            #expect(s.zeroSeconds == zero)
            // The table bins timestamps ⌊t/1000⌋ (a 1 ms shift) and counts a near-empty tail bin, so its spread
            // figures differ from the capacity curve's in the third figure; they agree within 2 %.
            #expect(abs(s.p50Bps / 1e6 - p50) <= 0.02 * p50, "p50 \(s.p50Bps)")
            #expect(abs(s.p95Bps / 1e6 - p95) <= 0.02 * p95, "p95 \(s.p95Bps)")
            #expect(abs(s.standardDeviationBps / 1e6 - sd) <= 0.02 * sd, "sd \(s.standardDeviationBps)")
        }
    }
}
