import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The offline optimum bounds every built-in policy on every Pensieve test trace (6 segments, so that the 142 ×
/// 13 runs stay quick in a debug build; `scripts/keep-up-sweep` and BENCHMARKS.md have the 48-segment figures):
/// in the default model, where players wait to minimise stalling and the optimum chooses its start, and for
/// players that do not wait.
@Suite("the offline optimum as a bound on every policy")
struct OptimalBoundTests {
    static func check(waits: Bool) throws {
        let folder = TestPaths.data + "/traces/pensieve/test/"
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + $0 }
        #expect(traces.count == 142)
        let content = try ContentSource.load(TestPaths.data + "/content/pensieve-envivio", segments: 6)
        let names = PolicyRegistry.builtIn.descriptors.map(\.name).filter { $0 != "external" }
        var plan = ComparisonPlan(traces: traces, content: content, policies: names.map { PolicySpec(name: $0) })
        plan.settings.automaticallyWaitsToMinimizeStalling = waits
        let reports = try Comparison.run(plan, jobs: 2)
        let optimal = names.firstIndex(of: "optimal")!
        for (traceIndex, trace) in traces.enumerated() {
            let best = reports[optimal * traces.count + traceIndex].players[0].summary.qoeLinear
            for (position, name) in names.enumerated() where position != optimal {
                let qoe = reports[position * traces.count + traceIndex].players[0].summary.qoeLinear
                #expect(qoe <= best + 1e-9, "\(name) beats the optimum on \(trace) (waits \(waits)): \(qoe) > \(best)")
            }
        }
    }

    @Test("on all 142 Pensieve test traces no built-in policy beats the optimum's QoE when players wait")
    func optimumIsAtLeastEveryPolicysQoEOnEveryTraceWhenPlayersWait() throws { try Self.check(waits: true) }

    @Test("on all 142 Pensieve test traces no built-in policy beats the optimum's QoE when players do not wait")
    func optimumIsAtLeastEveryPolicysQoEOnEveryTraceWhenPlayersDoNotWait() throws {
        try Self.check(waits: false)
    }

    @Test("an optimum grid of 1 s or 0.001 s is refused as outside 0.02…0.5 s")
    func gridsThatMakeTheSearchInexactAreRefused() throws {
        for grid in ["1", "0.001"] {
            let error = try #require(throws: InputError.self) {
                try PolicyRegistry.builtIn.makePolicy(
                    PolicySpec.parse("optimal(grid=\(grid))"),
                    environment: PolicyEnvironment(
                        seed: 1, playerIndex: 0, curve: try OptimalFixture.pensieveCurve("norway_bus_1"),
                        content: try Content.constantBitrate(
                            ladderKbps: [300, 750], segmentSeconds: 4, segmentCount: 4),
                        settings: PlayerSettings()))
            }
            guard case .within(_, .mustBe("grid", let rule, let found, _)) = error.problem else {
                Issue.record("not a refusal of the grid: \(error)")
                continue
            }
            #expect(rule == "0.02…0.5 s" && found == grid, "\(error)")
        }
    }
}
