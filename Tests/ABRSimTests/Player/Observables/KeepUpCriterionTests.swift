import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The keep-up predictor's acceptance criterion (docs/keep-up-predictor.md) on a few Pensieve test traces, for
/// every built-in policy but `optimal` (which decides its own start and resumes at once; OptimalBoundTests):
/// mean stall_s waiting ≤ 1.5 × mean not waiting + 0.5 s, and the longest wait ≤ 2 × the longest stall not
/// waiting (+ 0.5 s, for traces where the player that does not wait hardly stalls). The whole sweep is
/// `scripts/keep-up-sweep`. `norway_bus_10` is where mpc waited about 115 s with the old rule.
@Suite("the keep-up predictor's acceptance criterion")
struct KeepUpCriterionTests {
    static let traces = ["norway_bus_10", "norway_tram_40", "norway_ferry_10"]

    /// The longest run of consecutive segments with a stall before them, summed: an upper bound on one stall.
    static func longestWait(_ segments: [SegmentRecord]) -> Double {
        var run = 0.0
        var longest = 0.0
        for segment in segments {
            run = segment.stallSeconds > 0 ? run + segment.stallSeconds : 0
            longest = max(longest, run)
        }
        return longest
    }

    func sweep(waits: Bool, predictor: PlayThroughPredictor = PlayThroughPredictor()) throws -> [String: (
        mean: Double, longest: Double
    )] {
        let folder = TestPaths.data + "/traces/pensieve/test/"
        let content = try ContentSource.load(TestPaths.data + "/content/pensieve-envivio", segments: 48)
        let names = PolicyRegistry.builtIn.descriptors.map(\.name).filter { $0 != "external" && $0 != "optimal" }
        var plan = ComparisonPlan(
            traces: Self.traces.map { folder + $0 }, content: content, policies: names.map { PolicySpec(name: $0) })
        plan.settings.automaticallyWaitsToMinimizeStalling = waits
        plan.settings.keepUpPredictor = predictor
        let reports = try Comparison.run(plan, jobs: 2)
        var result: [String: (mean: Double, longest: Double)] = [:]
        for (position, name) in names.enumerated() {
            let runs = reports[position * Self.traces.count..<(position + 1) * Self.traces.count]
            let stalls = runs.map { $0.players[0].summary.stallSeconds }
            result[name] = (
                stalls.reduce(0, +) / Double(stalls.count), runs.map { Self.longestWait($0.players[0].segments) }.max()!
            )
        }
        return result
    }

    @Test(
        "for every policy, waiting to minimise stalls costs at most 1.5 × the mean, 2 × the longest stall of not waiting"
    )
    func waitingCostsLittleStallOverNotWaitingForEveryPolicy() throws {
        let waiting = try sweep(waits: true)
        let notWaiting = try sweep(waits: false)
        for (name, w) in waiting {
            let n = try #require(notWaiting[name])
            #expect(w.mean <= 1.5 * n.mean + 0.5, "\(name): mean stall \(w.mean) s waiting, \(n.mean) s not")
            #expect(w.longest <= 2 * n.longest + 0.5, "\(name): longest wait \(w.longest) s, stall \(n.longest) s")
        }
    }
}
