import ABRSimTestSupport
import Testing

@testable import ABRSim

/// A QoE model of the test's own, registered for one test: q(R) = √(R in Mbit/s), μ = 3. It shows that a new
/// model is one conforming type plus one registration.
private struct SquareRootQoE: QoEFunction {
    var name: String { "sqrt" }

    var defaultWeights: QoEWeights {
        var weights = QoEWeights()
        weights.rebufferPenalty = 3
        return weights
    }

    func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double] { ladderBps.map { ($0 / 1e6).squareRoot() } }

    func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double {
        (bitrateBps / 1e6).squareRoot()
    }
}

@Suite("the QoE model registry")
struct QoEModelRegistryTests {
    @Test("a registered QoE model scores sessions by hand and is what the offline optimum maximises")
    func aRegisteredModelIsReachedThroughThePublicPaths() throws {
        try QoEModel.registry.withRegistered(SquareRootQoE(), name: "sqrt") {
            let model = try #require(QoEModel(rawValue: "sqrt"))
            // q = √1, √4, √4 = 1, 2, 2: Σq = 5, Σ|Δq| = 1; 5 − 3·0.5 − 1·1 = 2.5.
            #expect(
                model.score(
                    bitratesBps: [1e6, 4e6, 4e6], stallSeconds: 0.5, startupSeconds: 0, ladderBps: [1e6, 4e6]) == 2.5)
            var settings = QoESettings()
            var weights = model.defaultWeights
            weights.smoothnessPenalty = 2
            settings.setWeights(weights, for: model)
            #expect(settings.weights(for: model).smoothnessPenalty == 2 && settings.linear == QoESettings().linear)

            // `optimal(qoe=sqrt)` takes the model by name; on every trace its plan scores at least as well under the
            // model as every other policy's (one job: the registration is the test's own).
            let traces = ["norway_tram_1", "TMobile-LTE-short.down", "Verizon-EVDO-driving.down"].map {
                TestPaths.scenarios + "/traces/" + $0
            }
            let content = try Content.constantBitrate(
                ladderKbps: [300, 750, 1200, 1850, 2850, 4300], segmentSeconds: 4, segmentCount: 8)
            let names = ["optimal(qoe=sqrt)", "bba", "throughput", "robust-mpc"]
            let plan = ComparisonPlan(
                traces: traces, content: content, policies: try names.map { try PolicySpec.parse($0) })
            let reports = try Comparison.run(plan, jobs: 1)
            let scorer = QoEScorer(model: model, ladderBps: content.variants.map(\.bitrateBps))
            func qoe(_ report: RunReport) -> Double {
                let player = report.players[0]
                return scorer.score(
                    bitratesBps: player.segments.filter { !$0.abandoned }.map(\.bitrateBps),
                    stallSeconds: player.summary.stallSeconds, startupSeconds: 0)
            }
            for index in traces.indices {
                let best = qoe(reports[index])
                for position in 1..<names.count {
                    #expect(qoe(reports[position * traces.count + index]) <= best + 1e-9, "\(names[position])")
                }
            }
        }
        #expect(QoEModel(rawValue: "sqrt") == nil)
        #expect(QoEModel.allCases.map(\.rawValue) == ["linear", "log", "hd", "nqoe", "shortvideo"])
    }
}
