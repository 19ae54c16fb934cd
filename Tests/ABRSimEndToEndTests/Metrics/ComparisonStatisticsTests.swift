import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("compare's statistics against a baseline")
struct ComparisonStatisticsTests {
    @Test(
        "compare writes paired statistics against the chosen baseline with its plots, and refuses an unknown baseline")
    func compareWritesStatsAgainstTheBaselineAndRejectsAnUnknownOne() throws {
        let directory = TestPaths.scratch("stats")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let common = [
            "compare", "--traces", CompareCommandTests.traces + "/norway_ferry_*", "--content",
            CompareCommandTests.content, "--segments", "24", "--policies", "throughput,fixed(variant=1)",
        ]
        let outcome = try runABRSim(common + ["--baseline", "fixed(variant=1)", "--out", directory + "/r"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let read = { (name: String) in
            try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/r/" + name))), file: name)
        }
        let summary = try read("summary.csv")
        let stats = try read("stats.csv")
        // throughput − fixed, trace by trace, from summary.csv.
        let policies = summary.column("policy")!
        let qoe = summary.column("qoe_lin")!.map { Double($0)! }
        let n = policies.count / 2
        let differences = (0..<n).map { qoe[$0] - qoe[n + $0] }
        let row = stats.rows.first { $0[0] == "throughput" && $0[1] == "qoe_lin" }!
        let diffMean = Double(row[stats.columns.firstIndex(of: "diff_mean")!])!
        #expect(abs(diffMean - differences.reduce(0, +) / Double(n)) < 1e-9)
        #expect(row[stats.columns.firstIndex(of: "baseline")!] == "fixed(variant=1)")
        for name in ["index.html", "cdf-qoe_lin.svg", "bars-stall_s.svg"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/r/plots/" + name), "\(name)")
        }
        #expect(isWellFormedXML(try String(contentsOfFile: directory + "/r/plots/bars-qoe_lin.svg", encoding: .utf8)))

        let bad = try runABRSim(common + ["--baseline", "bola", "--out", directory + "/bad"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--baseline"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/bad"))
    }
}
