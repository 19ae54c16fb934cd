import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("abrsim compare")
struct CompareCommandTests {
    static let traces = TestPaths.data + "/traces/pensieve/test"
    static let content = TestPaths.data + "/content/pensieve-envivio"

    @Test("compare writes the same tables with one job or two, policy-major with traces in name order")
    func outputsAreIdenticalForOneAndTwoJobs() throws {
        let directory = TestPaths.scratch("cmp")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let common = [
            "compare", "--traces", Self.traces + "/norway_bus_*", "--content", Self.content, "--segments", "48",
            "--policies", "throughput,fixed(variant=2)",
        ]
        let one = try runABRSim(common + ["--jobs", "1", "--out", directory + "/one"])
        let two = try runABRSim(common + ["--jobs", "2", "--out", directory + "/two"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(two.status == 0)
        for name in ["summary.csv", "segments.csv"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: directory + "/one/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: directory + "/two/" + name))
            #expect(a == b, "\(name) depends on the number of jobs")
        }
        let summary = try CSVTable.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/one/summary.csv"))), file: "summary.csv")
        // 23 bus traces × 2 policies, policy-major, traces in name order, named by their file.
        #expect(summary.rows.count == 46)
        #expect(summary.column("policy")!.prefix(23).allSatisfy { $0 == "throughput" })
        #expect(summary.column("trace")![0] == "norway_bus_1")
        #expect(summary.column("trace")![1] == "norway_bus_10")
        #expect(summary.column("segments")!.allSatisfy { $0 == "48" })
    }

    @Test("the table compare prints reports the mean of the summary rows' QoE")
    func theTableReportsTheMeanOfTheSummaryRows() throws {
        let directory = TestPaths.scratch("cmp2")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim([
            "compare", "--traces", Self.traces + "/norway_ferry_1", Self.traces + "/norway_ferry_2", "--content",
            Self.content, "--segments", "10", "--policies", "fixed(variant=0)", "--out", directory,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = try CSVTable.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/summary.csv"))), file: "summary.csv")
        let qoe = summary.column("qoe_lin")!.map { Double($0)! }
        let mean = (qoe[0] + qoe[1]) / 2
        #expect(outcome.standardOutput.contains(String(format: "%.2f", mean)))
    }

    @Test("compare exits 2 with one line naming an unknown policy, traces that match nothing or missing content")
    func unknownPolicyMissingTracesAndMissingContentAreUsageErrors() throws {
        let unknownPolicy = try runABRSim([
            "compare", "--traces", Self.traces, "--content", Self.content, "--policies", "nope",
        ])
        #expect(unknownPolicy.status == 2)
        #expect(
            unknownPolicy.standardError.hasPrefix("abrsim compare: --policies: unknown policy 'nope' (known: fixed, "))
        let missingTraces = try runABRSim([
            "compare", "--traces", "/nonexistent/*", "--content", Self.content, "--policies", "bba",
        ])
        #expect(missingTraces.status == 2)
        #expect(
            missingTraces.standardError
                == "abrsim compare: /nonexistent/*: --traces: expected at least one file, found none\n")
        let missingContent = try runABRSim([
            "compare", "--traces", Self.traces, "--content", "/nonexistent/content", "--policies", "bba",
        ])
        #expect(missingContent.status == 2)
        #expect(missingContent.standardError == "abrsim compare: /nonexistent/content: no such file\n")
        let noContent = try runABRSim(["compare", "--traces", Self.traces, "--policies", "bba"])
        #expect(noContent.status == 2)
        #expect(noContent.standardError == "abrsim compare: --content or --scenario is required\n")
        for run in [unknownPolicy, missingTraces, missingContent, noContent] {
            #expect(run.standardError.filter { $0 == "\n" }.count == 1, "one line: \(run.standardError)")
        }
    }
}
