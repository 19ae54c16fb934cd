import CGSL
import Foundation
import Testing

@testable import ABRSim

@Suite("comparison statistics")
struct ComparisonStatisticsTests {
    /// Student t, 3 degrees of freedom, 97.5 % (tables: 3.182).
    static let t3 = 3.182446305284263

    /// Policy `a` and baseline `b` on four traces, `b`'s runs listed in another order.
    static func samples() -> ComparisonSamples {
        var samples = ComparisonSamples(metrics: ["qoe_lin", "startup_s"])
        let a: [(String, Double)] = [("t1", 3), ("t2", 4), ("t3", 8), ("t4", 9)]
        let b: [(String, Double)] = [("t4", 8), ("t3", 6), ("t2", 4), ("t1", 2)]
        for (trace, value) in a {
            samples.add(policy: "a", trace: trace) { $0 == "qoe_lin" ? value : (trace == "t1" ? nil : 1) }
        }
        for (trace, value) in b { samples.add(policy: "b", trace: trace) { $0 == "qoe_lin" ? value : 0.5 } }
        return samples
    }

    @Test(
        "the mean, spread, interval and percentiles of a policy and its paired differences by trace match hand values")
    func handComputedStatisticsAndPairedDifferences() throws {
        let statistics = ComparisonStatistics(Self.samples(), baseline: "b")
        let row = try #require(statistics.rows.first { $0.policy == "a" && $0.metric == "qoe_lin" })
        let s = try #require(row.statistics)
        // a = 3, 4, 8, 9: mean 6, deviations −3 −2 2 3, variance 26/3.
        #expect(s.count == 4 && s.mean == 6)
        #expect(abs(s.standardDeviation - (26.0 / 3).squareRoot()) < 1e-12)
        #expect(abs(s.confidenceHalfWidth95 - Self.t3 * (26.0 / 3).squareRoot() / 2) < 1e-9)
        // Percentiles at position q·(n − 1) between order statistics.
        #expect(abs(s.p5 - 3.15) < 1e-12 && s.p25 == 3.75 && s.p50 == 6 && s.p75 == 8.25 && abs(s.p95 - 8.85) < 1e-12)
        // Paired by trace: 3−2, 4−4, 8−6, 9−8 = 1, 0, 2, 1: mean 1, variance 2/3.
        let d = try #require(row.difference)
        #expect(d.count == 4 && d.mean == 1)
        #expect(abs(d.standardDeviation - (2.0 / 3).squareRoot()) < 1e-12)
        #expect(abs(d.confidenceHalfWidth95 - Self.t3 * (2.0 / 3).squareRoot() / 2) < 1e-9)
        // The baseline has no difference with itself; a missing value drops that trace from the pairs.
        #expect(statistics.rows.first { $0.policy == "b" && $0.metric == "qoe_lin" }?.difference == nil)
        let startup = try #require(statistics.rows.first { $0.policy == "a" && $0.metric == "startup_s" })
        #expect(startup.statistics?.count == 3 && startup.difference?.count == 3 && startup.difference?.mean == 0.5)
    }

    @Test(
        "the statistics CSV has one row per policy and metric, leaving the spread and interval empty under two values")
    func theCSVHasOneRowPerPolicyAndMetricWithEmptyIntervalsBelowTwoValues() throws {
        var samples = ComparisonSamples(metrics: ["qoe_lin"])
        samples.add(policy: "x", trace: "t") { _ in 2 }
        samples.add(policy: "y", trace: "t") { _ in 5 }
        let one = try CSVTable.parse(ComparisonStatistics(samples, baseline: "x").csv(), file: "stats.csv")
        #expect(one.columns == ComparisonStatistics.columns)
        #expect(one.rows.count == 2)
        let y = one.rows[1]
        func field(_ name: String) -> String { y[one.columns.firstIndex(of: name)!] }
        #expect(field("n") == "1" && field("mean") == "5" && field("sd").isEmpty && field("ci95_low").isEmpty)
        #expect(field("baseline") == "x" && field("diff_n") == "1" && field("diff_mean") == "3")

        let full = try CSVTable.parse(ComparisonStatistics(Self.samples(), baseline: "b").csv(), file: "stats.csv")
        let a = full.rows[0]
        func value(_ name: String) -> Double { Double(a[full.columns.firstIndex(of: name)!])! }
        #expect(abs(value("ci95_low") - (6 - Self.t3 * (26.0 / 3).squareRoot() / 2)) < 1e-9)
        #expect(abs(value("diff_ci95_high") - (1 + Self.t3 * (2.0 / 3).squareRoot() / 2)) < 1e-9)
    }

    @Test("paired differences over 37 traces match GSL's mean, deviation, t quantile and percentile")
    func pairedDifferencesMatchGSLsOwnFunctions() throws {
        var samples = ComparisonSamples(metrics: ["m"])
        var a: [Double] = []
        var b: [Double] = []
        for index in 0..<37 {
            let x = Double((index * 7919) % 101) / 3
            let y = x * 0.8 + Double((index * 31) % 17)
            a.append(x)
            b.append(y)
            samples.add(policy: "a", trace: "t\(index)") { _ in x }
            samples.add(policy: "b", trace: "t\(index)") { _ in y }
        }
        let row = try #require(ComparisonStatistics(samples, baseline: "b").rows.first { $0.policy == "a" })
        let d = try #require(row.difference)
        var differences = zip(a, b).map { $0 - $1 }
        let mean = gsl_stats_mean(&differences, 1, differences.count)
        let sd = gsl_stats_sd(&differences, 1, differences.count)
        let t = gsl_cdf_tdist_Pinv(0.975, Double(differences.count - 1))
        #expect(abs(d.mean - mean) < 1e-12)
        #expect(abs(d.standardDeviation - sd) < 1e-12)
        #expect(abs(d.confidenceHalfWidth95 - t * sd / Double(differences.count).squareRoot()) < 1e-12)
        differences.sort()
        #expect(d.p75 == gsl_stats_quantile_from_sorted_data(&differences, 1, differences.count, 0.75))
    }

    @Test("a trace named twice is paired occurrence by occurrence")
    func aTraceNamedTwiceIsPairedByOccurrence() {
        var samples = ComparisonSamples(metrics: ["m"])
        for (policy, values) in [("p", [1.0, 10.0]), ("q", [2.0, 30.0])] {
            for value in values { samples.add(policy: policy, trace: "same") { _ in value } }
        }
        #expect(samples.pairedDifferences("m", policy: "q", baseline: "p") == [1, 20])
    }
}
