import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The offline optimum's dynamic program: physics by hand, against exhaustive search, and under refinement.
@Suite("the offline optimum's dynamic program")
struct OptimalTests {
    @Test("on a hand-worked 1 Mbit/s case the optimum avoids the stall and scores 1.5, and a stalling plan scores −7.1")
    func handCaseWithAStallTradeOff() throws {
        // 1 Mbit/s, no RTT, ladder 500/2000 kbit/s, three 4 s segments (2 or 8 Mbit: 2 s or 8 s to fetch).
        // [0,0,0]: in at 2, 4, 6 with deadlines 6, 10, 14: no stall, QoE 1.5. [1,0,0]: in at 8, 10, 12 with
        // deadlines 12, 16, 20: no stall, 3 − |0.5 − 2| = 1.5. Any later 2000 segment takes 8 s with at most
        // 4 + 2·… s of buffer: [0,0,1] stalls 2 s (−7.1), [0,1,*] stalls 4 s, [1,1,*] stalls 4 s. Best: 1.5.
        let curve = try CapacityCurve(starts: [0], ratesBps: [1e6], duration: 1000)
        let content = try Content.constantBitrate(ladderKbps: [500, 2000], segmentSeconds: 4, segmentCount: 3)
        let scorer = QoEScorer(model: .linear, ladderBps: content.variants.map(\.bitrateBps))
        let plan = try OfflineOptimum.solve(
            curve: curve, content: content, settings: OptimalFixture.settings(), scorer: scorer)
        #expect(abs(plan.qoe - 1.5) < 1e-9)
        #expect(plan.stallSeconds == 0)
        #expect(plan.variants == [0, 0, 0] || plan.variants == [1, 0, 0])
        let evaluated = OfflineOptimum.evaluate(
            plan: [0, 0, 1], curve: curve, content: content, settings: OptimalFixture.settings(), scorer: scorer)
        #expect(evaluated?.stallSeconds == 2)
        #expect(abs(evaluated!.qoe - (-7.1)) < 1e-9)
    }

    @Test(
        "the optimum's stalls, startup, end time and QoE match the player's replay of the same plan on a varying link")
    func physicsMatchesThePlayerOnALinkWithLatencyOutageAndOffPeriods() throws {
        let curve = try OptimalFixture.varyingCurve()
        let content = try Content.constantBitrate(ladderKbps: [300, 1200, 2850], segmentSeconds: 2, segmentCount: 9)
        let settings = OptimalFixture.settings(target: 4)
        let scorer = QoEScorer(model: .linear, ladderBps: content.variants.map(\.bitrateBps))
        for plan in [[0, 0, 0, 0, 0, 0, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2, 2, 2], [1, 2, 0, 2, 1, 0, 2, 2, 1]] {
            let model = OfflineOptimum.evaluate(
                plan: plan, curve: curve, content: content, settings: settings, scorer: scorer)!
            let replay = OptimalFixture.simulate(
                curve: curve, content: content, settings: settings,
                policy: OptimalPolicy(plan: model), scorer: scorer)
            #expect(replay.variants == plan)
            #expect(abs(replay.totals.stallSeconds - model.stallSeconds) < 1e-6)
            #expect(abs((replay.totals.startupSeconds ?? -1) - model.startupSeconds) < 1e-9)
            #expect(abs(replay.totals.endTime! - model.endTime) < 1e-6)
            #expect(abs(replay.qoe - model.qoe) < 1e-6)
        }
    }

    /// Every plan of a small case, scored by the same physics.
    func exhaustiveBest(curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer) -> Double {
        var best = -Double.infinity
        let n = content.segmentCount
        let v = content.variantCount
        var plan = [Int](repeating: 0, count: n)
        let planCount = (0..<n).reduce(1) { product, _ in product * v }
        for code in 0..<planCount {
            var rest = code
            for i in 0..<n {
                plan[i] = rest % v
                rest /= v
            }
            if let outcome = OfflineOptimum.evaluate(
                plan: plan, curve: curve, content: content, settings: settings, scorer: scorer)
            {
                best = max(best, outcome.qoe)
            }
        }
        return best
    }

    @Test(
        "the optimum equals the best of all 2187 plans of a 7-segment case and reports its own plan's QoE",
        arguments: QoEModel.allCases)
    func equalsExhaustiveSearchOnASmallCase(model: QoEModel) throws {
        // 3 variants, 7 segments: 2187 plans; a 4 s target makes OFF periods, the outage makes stalls.
        let curve = try OptimalFixture.varyingCurve()
        let content = try Content.constantBitrate(ladderKbps: [300, 1200, 2850], segmentSeconds: 2, segmentCount: 7)
        let settings = OptimalFixture.settings(target: 4)
        let scorer = QoEScorer(model: model, ladderBps: content.variants.map(\.bitrateBps))
        let best = exhaustiveBest(curve: curve, content: content, settings: settings, scorer: scorer)
        let plan = try OfflineOptimum.solve(curve: curve, content: content, settings: settings, scorer: scorer)
        #expect(abs(plan.qoe - best) <= 1e-9 * max(1, abs(best)))
        // The reported QoE is the plan's own.
        let evaluated = OfflineOptimum.evaluate(
            plan: plan.variants, curve: curve, content: content, settings: settings, scorer: scorer)!
        #expect(abs(evaluated.qoe - plan.qoe) < 1e-9)
    }

    @Test("halving the grid from 0.1 s moves the optimum's QoE by less than 1 %")
    func refiningTheGridChangesTheAnswerByLessThanOnePercent() throws {
        // Stated tolerance: halving the default 0.1 s cells moves the optimum by < 1 % of its value. (On 48-segment
        // norway runs, 0.4 s → 0.1 s cells moved it by ≤ 0.25 %; 2 s cells are visibly coarser.)
        let curve = try OptimalFixture.pensieveCurve("norway_bus_1")
        let content = try Content.constantBitrate(
            ladderKbps: OptimalFixture.pensieveLadderKbps, segmentSeconds: 4, segmentCount: 16)
        let settings = OptimalFixture.settings(target: 20)
        let scorer = QoEScorer(model: .linear, ladderBps: content.variants.map(\.bitrateBps))
        var answers: [Double] = []
        for step in [2, 1, 0.1, 0.05] {
            let plan = try OfflineOptimum.solve(
                curve: curve, content: content, settings: settings, scorer: scorer,
                grid: OptimumGrid(bufferStep: step, timeStep: step))
            answers.append(plan.qoe)
        }
        #expect(abs(answers[3] - answers[2]) <= 0.01 * abs(answers[3]))
    }

    @Test("the optimum is an input error when the link stops before the content can arrive")
    func throwsWhenTheNetworkNeverDelivers() throws {
        let curve = try CapacityCurve(starts: [0, 1], ratesBps: [1e6, 0], duration: 2, atEnd: .end)
        let content = try Content.constantBitrate(ladderKbps: [500, 1000], segmentSeconds: 2, segmentCount: 3)
        let scorer = QoEScorer(model: .linear, ladderBps: content.variants.map(\.bitrateBps))
        #expect(throws: InputError.self) {
            try OfflineOptimum.solve(
                curve: curve, content: content, settings: OptimalFixture.settings(), scorer: scorer)
        }
    }
}
