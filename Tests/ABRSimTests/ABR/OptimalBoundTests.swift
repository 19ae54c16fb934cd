import Testing

@testable import ABRSim

/// The offline optimum bounds every built-in policy on real traces (a sample of the Pensieve test set; the whole
/// set is in BENCHMARKS.md).
struct OptimalBoundTests {
    @Test func optimumIsAtLeastEveryPolicysQoEOnASampleOfTraces() throws {
        let folder = TestPaths.data + "/traces/pensieve/test/"
        let traces = ["norway_bus_3", "norway_tram_7"].map { folder + $0 }
        let content = try ContentSource.load(TestPaths.data + "/content/pensieve-envivio", segments: 16)
        let names = PolicyRegistry.builtIn.descriptors.map(\.name).filter { $0 != "external" }
        var plan = ComparisonPlan(traces: traces, content: content, policies: names.map { PolicySpec(name: $0) })
        // The optimum plans for a player that does not wait to minimise stalling (see OfflineOptimum).
        plan.settings.automaticallyWaitsToMinimizeStalling = false
        let reports = try Comparison.run(plan, jobs: 2)
        let optimal = names.firstIndex(of: "optimal")!
        for (traceIndex, trace) in traces.enumerated() {
            let best = reports[optimal * traces.count + traceIndex].players[0].summary.qoeLinear
            for (position, name) in names.enumerated() where position != optimal {
                let qoe = reports[position * traces.count + traceIndex].players[0].summary.qoeLinear
                #expect(qoe <= best + 1e-9, "\(name) beats the optimum on \(trace): \(qoe) > \(best)")
            }
        }
    }
}
