import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim tune`'s search: the Nelder–Mead wrapper, the weight space, and the tuner on a small scenario.
@Suite("the tuning search")
struct TuningSearchTests {
    static var twoViews: String { TestPaths.packageRoot + "/Tests/Fixtures/tune/two-views.json" }

    static func tuner(_ objective: String, settings: TuneSettings = TuneSettings(), jobs: Int = 2) throws -> Tuner {
        let scenario = try ScenarioLoader().load(twoViews)
        let bound = try TuneObjective.parse(objective, source: "x").bind(to: scenario, source: "x")
        return try Tuner(scenario: scenario, scoring: .objective(bound), settings: settings, seed: nil, jobs: jobs)
    }

    @Test("the Nelder–Mead search finds the minimum of a two-dimensional quadratic within its budget")
    func nelderMeadFindsTheMinimumOfAQuadratic() {
        let outcome = NelderMead(step: 1, tolerance: 1e-6, maxEvaluations: 500).minimize(from: [5, 5]) { x in
            (x[0] - 1) * (x[0] - 1) + 4 * (x[1] + 2) * (x[1] + 2) + 3
        }
        #expect(abs(outcome.point[0] - 1) < 1e-3)
        #expect(abs(outcome.point[1] + 2) < 1e-3)
        #expect(abs(outcome.value - 3) < 1e-6)
        #expect(outcome.evaluations <= 500 + 4)
    }

    @Test("the Nelder–Mead search works in one dimension and stops within one iteration of its budget")
    func nelderMeadWorksInOneDimensionAndKeepsToItsBudget() {
        let outcome = NelderMead(step: 0.5, tolerance: 1e-8, maxEvaluations: 1000).minimize(from: [0]) { x in
            abs(x[0] - 2.5)
        }
        #expect(abs(outcome.point[0] - 2.5) < 1e-4)
        var calls = 0
        let short = NelderMead(step: 0.5, tolerance: 1e-12, maxEvaluations: 10).minimize(from: [0, 0, 0]) { x in
            calls += 1
            return x.map { ($0 - 7) * ($0 - 7) }.reduce(0, +)
        }
        #expect(short.evaluations == calls)
        // The budget is checked after each iteration; one iteration of a 3-D simplex calls at most n + 2 = 5 times.
        #expect(calls >= 10 && calls < 10 + 5)
    }

    @Test("an ordered weight grid keeps the priority levels in order, and a free one does not")
    func orderedGridsKeepTheLevelsInOrder() {
        let space = WeightSpace(priorities: [.high, .low, .default], isOrdered: true)
        #expect(space.levels == [.low, .default, .high])
        #expect(space.grid([1, 2, 4]) == [[1, 1], [1, 2], [1, 4], [2, 2], [2, 4], [4, 4]])
        let free = WeightSpace(priorities: [.low, .high], isOrdered: false)
        #expect(free.grid([0.5, 2]) == [[0.5], [2]])
        #expect(WeightSpace(priorities: [.low, .low], isOrdered: true).grid([1, 2]) == [])
    }

    @Test("search coordinates map to weight ratios and back, folded to stay ordered")
    func coordinatesMapToRatiosAndBack() {
        let space = WeightSpace(priorities: [.low, .default, .high], isOrdered: true)
        let ratios = space.ratios(at: space.point(ratios: [3, 12]))
        #expect(abs(ratios[0] - 3) < 1e-12 && abs(ratios[1] - 12) < 1e-12)
        // Negative coordinates still give an ordered table: |y| is used.
        let folded = space.ratios(at: [-1, -0.5])
        #expect(abs(folded[0] - exp(1.0)) < 1e-12 && abs(folded[1] - exp(1.5)) < 1e-12)
        let free = WeightSpace(priorities: [.low, .high], isOrdered: false)
        #expect(abs(free.ratios(at: [-log(4.0)])[0] - 0.25) < 1e-12)
        #expect(abs(free.ratios(at: [100])[0] - 1e4) < 1e-6)
    }

    @Test("a priority level no player uses is moved only between its neighbours' weights")
    func anUnusedLevelIsMovedBetweenItsNeighboursOnly() {
        let space = WeightSpace(priorities: [.low, .high], isOrdered: true)
        let base = PriorityWeights(low: 1, standard: 2, high: 4)
        #expect(space.table(ratios: [1], base: base) == PriorityWeights(low: 1, standard: 1, high: 1))
        #expect(space.table(ratios: [10], base: base) == PriorityWeights(low: 1, standard: 2, high: 10))
        let upper = WeightSpace(priorities: [.default, .high], isOrdered: true)
        #expect(upper.table(ratios: [3], base: base) == PriorityWeights(low: 1, standard: 1, high: 3))
    }

    @Test("the tuned weights beat the default table, rerun to their reported value, and repeat with one job")
    func theTunedObjectiveBeatsTheDefaultTableAndIsReproducible() throws {
        let outcome = try Self.tuner("max sum qoe_lin").run()
        #expect(outcome.baseline.phase == "baseline")
        #expect(outcome.baseline.weights == PriorityWeights())
        #expect(outcome.best.score.isBetter(than: outcome.baseline.score))
        // The best point's reported value is what a fresh run with its table gives.
        var scenario = try ScenarioLoader().load(Self.twoViews)
        scenario.priorityWeights = outcome.best.weights
        let check = try ScenarioRunner().run(scenario, recordsTimeline: false)
        #expect(outcome.best.score.value == check.players.map(\.summary.qoeLinear).reduce(0, +))
        let again = try Self.tuner("max sum qoe_lin", jobs: 1).run()
        let ids = ["main", "tile"]
        #expect(
            TuneTable.bytes(again.points, players: ids, isFit: false)
                == TuneTable.bytes(outcome.points, players: ids, isFit: false))
        #expect(again.bestIndex == outcome.bestIndex)
    }

    @Test("a constrained search returns a feasible point no other feasible point beats")
    func aConstrainedSearchReturnsAPointMeetingTheConstraint() throws {
        let outcome = try Self.tuner("max qoe_lin[main] subject to rebuffer_ratio[tile] <= 2%").run()
        let best = outcome.best
        #expect(best.score.isFeasible)
        #expect(best.report.players[1].summary.rebufferRatio <= 0.02)
        for point in outcome.points where point.score.isFeasible {
            #expect(point.score.value! <= best.score.value!)
        }
    }

    @Test("each distinct weight assignment is simulated once, the baseline included")
    func everyDistinctPointIsSimulatedOnce() throws {
        // Two players, grid {1, 2}, every assignment of three levels: 9 assignments, but weighted sharing only
        // sees each player's weight over the smallest: (1,1), (1,2) or (2,1) — plus the baseline (4,1).
        var settings = TuneSettings()
        settings.grid = [1, 2]
        settings.searchesPriorities = true
        settings.maxSimplexEvaluations = 0
        let outcome = try Self.tuner("max sum qoe_lin", settings: settings).run()
        #expect(outcome.points.count == 4)
        let keys = outcome.points.map { Tuner.key($0.weights, $0.priorities) }
        #expect(keys == ["4,1", "1,1", "1,2", "2,1"])
    }

    @Test("tuning is refused where weights cannot matter: equal allocation or a single priority")
    func scenariosWhereWeightsCannotMatterAreRejected() throws {
        var scenario = try ScenarioLoader().load(Self.twoViews)
        let bound = try TuneObjective.parse("max sum qoe_lin", source: "x").bind(to: scenario, source: "x")
        scenario.allocation = .equal
        let equal = try #require(throws: InputError.self) {
            try Tuner(scenario: scenario, scoring: .objective(bound), settings: TuneSettings(), seed: nil, jobs: 1)
        }
        #expect(equal.place.position == .jsonPath("$.allocation.strategy"))
        #expect(
            equal.problem == .notApplicable("tuning the weights", onlyFor: "'weighted' allocation", here: "'equal'"))
        scenario.allocation = .weighted
        scenario.players[1].settings.networkResourcePriority = .high
        let same = try #require(throws: InputError.self) {
            try Tuner(scenario: scenario, scoring: .objective(bound), settings: TuneSettings(), seed: nil, jobs: 1)
        }
        #expect(
            same.problem
                == .withAdvice(
                    .changesNothing("tuning the weights", because: "every player has the same networkResourcePriority"),
                    advice: "give players different priorities or use --search-priorities"))
    }
}

/// The acceptance check on the shipped multi-view scenario (about half a second in a debug build).
@Suite("tuning the shipped multi-view scenario")
struct TuningShippedScenarioTests {
    @Test("tuning the shipped multi-view scenario beats the default table under its constraint, reproducibly")
    func tuningTheShippedScenarioBeatsTheDefaultTableReproducibly() throws {
        // The shipped scenario with the default table (low 1, default 2, high 4) for a baseline.
        var scenario = try ScenarioLoader().load(TestPaths.scenarios + "/multiview-priority.json")
        scenario.priorityWeights = PriorityWeights(low: 1, standard: 2, high: 4)
        let objective = try TuneObjective.parse(
            "max qoe_lin[main] subject to rebuffer_ratio[tile*] <= 2%", source: "x"
        ).bind(to: scenario, source: "x")
        func tune(jobs: Int) throws -> Tuner.Outcome {
            try Tuner(scenario: scenario, scoring: .objective(objective), settings: TuneSettings(), seed: 1, jobs: jobs)
                .run()
        }
        let first = try tune(jobs: 2)
        #expect(first.baseline.weights == PriorityWeights(low: 1, standard: 2, high: 4))
        #expect(first.best.score.isFeasible)
        #expect(first.best.score.value! > first.baseline.score.value!)
        #expect(first.best.weights.high / first.best.weights.low > 4)
        let ids = scenario.players.map(\.id)
        let again = try tune(jobs: 1)
        #expect(
            TuneTable.bytes(again.points, players: ids, isFit: false)
                == TuneTable.bytes(first.points, players: ids, isFit: false))
    }
}
