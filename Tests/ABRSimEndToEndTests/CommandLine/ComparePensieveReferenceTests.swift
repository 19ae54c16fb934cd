import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim compare --profile pensieve` against the outputs of Pensieve's own simulator
/// (`Tests/Fixtures/reference/pensieve/`): for every trace listed there, the total reward within 1e-6 and the exact
/// sequence of chosen variants, for both baselines.
@Suite("abrsim compare under the Pensieve profile")
struct ComparePensieveReferenceTests {
    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
    }

    @Test(
        "compare under the Pensieve profile reproduces the reward and variants of Pensieve's simulator on all 142 traces"
    )
    func compareReproducesPensieveForEveryReferenceTrace() throws {
        let directory = TestPaths.scratch("pensieve")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outcome = try runABRSim([
            "compare", "--profile", "pensieve", "--content", TestPaths.data + "/content/pensieve-envivio",
            "--policies", "bba,robust-mpc", "--traces", TestPaths.data + "/traces/pensieve/test", "--out",
            directory,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = try Self.table(directory + "/summary.csv")
        let segments = try Self.table(directory + "/segments.csv")
        // Variants per (policy, trace), in segment order.
        var variants: [String: [String]] = [:]
        let policyColumn = segments.column("policy")!
        let traceColumn = segments.column("trace")!
        let variantColumn = segments.column("variant")!
        for row in policyColumn.indices {
            variants[policyColumn[row] + "/" + traceColumn[row], default: []].append(variantColumn[row])
        }
        var rewards: [String: Double] = [:]
        for (row, policy) in summary.column("policy")!.enumerated() {
            rewards[policy + "/" + summary.column("trace")![row]] = Double(summary.column("qoe_lin")![row])!
        }
        var checked = 0
        for (policy, file) in [("bba", "bb_test.csv"), ("robust-mpc", "robustmpc_test.csv")] {
            let reference = try Self.table(TestPaths.reference + "/pensieve/" + file)
            for (row, trace) in reference.column("trace")!.enumerated() {
                let key = policy + "/" + trace
                let expectedReward = Double(reference.column("total_reward")![row])!
                let reward = try #require(rewards[key], "no result for \(key)")
                #expect(abs(reward - expectedReward) < 1e-6, "\(key): \(reward) vs \(expectedReward)")
                let expected = reference.column("bitrate_indices")![row].split(separator: "-").map(String.init)
                #expect(variants[key] == expected, "\(key): variants differ")
                checked += 1
            }
        }
        #expect(checked == 142)
        // Every test trace was run, not only the listed ones.
        #expect(summary.rows.count == 2 * 142)
    }
}
