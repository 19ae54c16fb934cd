import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The `optimal` policy replays the offline optimum and beats every other policy on real traces.
@Suite("the optimal policy")
struct OptimalPolicyTests {
    static let traces = ["norway_bus_1", "norway_ferry_1", "norway_tram_1"]

    func content() throws -> Content {
        try Content.constantBitrate(ladderKbps: OptimalFixture.pensieveLadderKbps, segmentSeconds: 4, segmentCount: 12)
    }

    @Test(
        "replaying the optimal plan plays its variants and QoE, and no fixed or throughput policy scores higher",
        arguments: traces)
    func replayReachesTheOptimumAndBeatsFixedAndThroughput(trace: String) throws {
        let curve = try OptimalFixture.pensieveCurve(trace)
        let content = try content()
        let settings = OptimalFixture.settings(target: 12)
        for model in QoEModel.allCases {
            let scorer = QoEScorer(model: model, ladderBps: content.variants.map(\.bitrateBps))
            let policy = try OptimalPolicy(curve: curve, content: content, settings: settings, scorer: scorer)
            let replay = OptimalFixture.simulate(
                curve: curve, content: content, settings: settings, policy: policy, scorer: scorer)
            #expect(replay.variants == policy.plan.variants)
            #expect(abs(replay.qoe - policy.plan.qoe) < 1e-6, "\(trace) \(model)")
            var others: [(String, any ABRPolicy)] = (0..<content.variantCount).map {
                ("fixed \($0)", FixedPolicy(variant: $0))
            }
            others.append(("throughput", ThroughputPolicy(safety: 0.9, estimator: DualEWMAEstimator.dashjs)))
            others.append(
                ("throughput harmonic", ThroughputPolicy(safety: 1, estimator: HarmonicMeanEstimator(window: 5))))
            for (name, other) in others {
                let result = OptimalFixture.simulate(
                    curve: curve, content: content, settings: settings, policy: other, scorer: scorer)
                #expect(
                    result.qoe <= policy.plan.qoe + 1e-9,
                    "\(trace) \(model): \(name) \(result.qoe) > \(policy.plan.qoe)")
            }
        }
    }

    @Test("the registry builds optimal(qoe=hd,rebuffer=20,grid=0.2) with the plan a direct solve gives")
    func registryBuildsItFromTheEnvironment() throws {
        let curve = try OptimalFixture.pensieveCurve("norway_bus_1")
        let content = try content()
        let settings = OptimalFixture.settings(target: 12)
        let environment = PolicyEnvironment(
            seed: 1, playerIndex: 0, curve: curve, content: content, settings: settings)
        let policy = try PolicyRegistry.builtIn.makePolicy(
            PolicySpec.parse("optimal(qoe=hd,rebuffer=20,grid=0.2)"), environment: environment)
        let optimal = try #require(policy as? OptimalPolicy)
        var weights = QoEModel.hd.defaultWeights
        weights.rebufferPenalty = 20
        let scorer = QoEScorer(model: .hd, ladderBps: content.variants.map(\.bitrateBps), weights: weights)
        let direct = try OfflineOptimum.solve(
            curve: curve, content: content, settings: settings, scorer: scorer,
            grid: OptimumGrid(bufferStep: 0.2, timeStep: 0.2))
        #expect(optimal.plan == direct)
    }

    @Test("the registry refuses the optimal policy when the environment has no network")
    func registryRefusesWithoutTheNetwork() throws {
        let error = try #require(throws: InputError.self) {
            try PolicyRegistry.builtIn.makePolicy(
                PolicySpec.parse("optimal"), environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        }
        #expect(
            error.problem
                == .within(
                    "policy 'optimal'",
                    .withAdvice(
                        .missingPrerequisite("it", needs: "the network and the content in advance"),
                        advice: "run it from a scenario, or build OptimalPolicy with OfflineOptimum's inputs")))
    }

    @Test("the optimal policy answers the cap when its plan asks for a higher variant")
    func neverAnswersAboveTheCap() throws {
        let plan = OptimalPlan(
            variants: [5, 5], qoe: 0, stallSeconds: 0, startupSeconds: 0, endTime: 0, statesKept: 0)
        let content = try content()
        let context = ABRContext(
            time: 0, segmentIndex: 1, content: content, bufferSeconds: 0, bufferTargetSeconds: 12,
            playbackState: .playing, playbackRate: 1, lastVariant: 5, maxVariant: 2, startVariant: 0,
            history: ThroughputHistory(), isAfterSeek: false)
        #expect(OptimalPolicy(plan: plan).decide(context) == .variant(2))
    }
}
