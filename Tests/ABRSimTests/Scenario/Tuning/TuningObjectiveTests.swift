import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The objective language of `abrsim tune`: parsing, canonical text, errors, player selection and scoring.
@Suite("tuning objectives")
struct TuningObjectiveTests {
    static var twoViews: String { TestPaths.packageRoot + "/Tests/Fixtures/tune/two-views.json" }

    @Test("the objective examples parse to their goal, aggregate, selectors and constraints, case-insensitive")
    func parsesTheIssuesExamples() throws {
        let constrained = try TuneObjective.parse(
            "max qoe_lin[main] subject to rebuffer_ratio[tile*] <= 2%", source: "--objective")
        #expect(
            constrained
                == TuneObjective(
                    maximises: true, goal: TuneTerm(aggregate: nil, metric: .qoeLinear, selectors: ["main"]),
                    constraints: [
                        TuneConstraint(
                            term: TuneTerm(aggregate: nil, metric: .rebufferRatio, selectors: ["tile*"]),
                            isUpperBound: true, bound: 0.02)
                    ]))
        #expect(
            try TuneObjective.parse("max sum qoe_lin", source: "x")
                == TuneObjective(maximises: true, goal: TuneTerm(aggregate: .sum, metric: .qoeLinear, selectors: [])))
        #expect(
            try TuneObjective.parse("MAX  min  qoe_lin", source: "x")
                == TuneObjective(maximises: true, goal: TuneTerm(aggregate: .min, metric: .qoeLinear, selectors: [])))
    }

    @Test("an objective parses several constraints, run-level metrics and priority selectors")
    func parsesSeveralConstraintsAndRunLevelMetrics() throws {
        let objective = try TuneObjective.parse(
            "min mean stall_s[a, b*] st jain_throughput >= 0.9, max startup_s <= 2 and stall_count[@low]<=0",
            source: "x")
        #expect(!objective.maximises)
        #expect(objective.goal == TuneTerm(aggregate: .mean, metric: .stallSeconds, selectors: ["a", "b*"]))
        #expect(objective.constraints.map(\.term.metric) == [.jainThroughput, .startupSeconds, .stallCount])
        #expect(objective.constraints.map(\.isUpperBound) == [false, true, true])
        #expect(objective.constraints.map(\.bound) == [0.9, 2, 0])
        #expect(objective.constraints[2].term.selectors == ["@low"])
    }

    @Test("an objective's canonical text parses back to the same objective")
    func canonicalTextParsesBackToTheSameObjective() throws {
        for text in [
            "max qoe_lin[main] subject to rebuffer_ratio[tile*] <= 2%", "min max stall_s",
            "max mean qoe_hd[a,b] subject to jain_qoe >= 0.5 and sum stall_count <= 3",
        ] {
            let objective = try TuneObjective.parse(text, source: "x")
            #expect(try TuneObjective.parse(objective.description, source: "x") == objective)
        }
    }

    @Test("each bad objective is refused, quoting the text and saying what was expected and what was found")
    func badExpressionsAreErrorsQuotingTheText() throws {
        let cases: [(String, InputProblem)] = [
            ("", .expected("'max' or 'min'", found: "the end")),
            ("maximum qoe_lin", .expected("'max' or 'min' at the start", found: "'maximum'")),
            ("max qoe", .unknownName("qoe", kind: "metric", known: TuneMetric.allCases.map(\.rawValue))),
            ("max sum", .expected("a metric after 'sum'", found: "the end")),
            ("max qoe_lin[main", .missing("the ']' that closes the '['")),
            ("max qoe_lin[]", .mustBe("a player selector in qoe_lin[…]", rule: "non-empty", found: "''")),
            (
                "max qoe_lin[main] such that stall_s <= 1",
                .expected("'subject to' after the objective term", found: "'such'")
            ),
            ("max qoe_lin[main] subject to stall_s < 1", .expected("'<=' or '>=' after stall_s", found: "'<'")),
            (
                "max qoe_lin[main] subject to stall_s <= lots",
                .expected("a number after the comparison in the constraint on stall_s", found: "'l'")
            ),
            (
                "max sum jain_qoe",
                .notApplicable(
                    "an aggregate or [players]", onlyFor: "per-player metrics",
                    here: "jain_qoe, which belongs to the whole run")
            ),
            (
                "max qoe_lin subject to stall_s <= 1 or stall_count <= 0",
                .expected("'and' between constraints", found: "'or'")
            ),
        ]
        for (text, problem) in cases {
            let error = try #require(throws: InputError.self) { try TuneObjective.parse(text, source: "--objective") }
            #expect(error.place == .option("--objective"), "\(error)")
            #expect(error.problem == .within("bad objective '\(text)'", problem), "\(error)")
        }
    }

    @Test("a player glob's star matches any run of characters, and the rest must match whole")
    func globsMatchAnyRunOfCharacters() {
        #expect(globMatches("tile*", "tile1"))
        #expect(globMatches("tile*", "tile"))
        #expect(globMatches("*1", "tile1"))
        #expect(globMatches("t*e*", "tile1"))
        #expect(globMatches("*", ""))
        #expect(!globMatches("tile*", "main"))
        #expect(!globMatches("tile", "tile1"))
        #expect(!globMatches("t*x", "tile1"))
    }

    @Test("binding an objective resolves its selectors to players and refuses goals selecting none or several")
    func bindingResolvesSelectorsAndRejectsAmbiguousGoals() throws {
        let scenario = try ScenarioLoader().load(Self.twoViews)
        let bound = try TuneObjective.parse("max qoe_lin[@high] subject to stall_s[t*,main] <= 1", source: "x")
            .bind(to: scenario, source: "x")
        #expect(bound.goalPlayers == [0])
        #expect(bound.constraintPlayers == [[0, 1]])
        let nobody = try #require(throws: InputError.self) {
            try TuneObjective.parse("max qoe_lin[nobody]", source: "x").bind(to: scenario, source: "--objective")
        }
        #expect(nobody.place == .option("--objective"))
        #expect(
            nobody.problem
                == .within("qoe_lin[nobody]", .unknownName("nobody", kind: "player", known: ["main", "tile"])))
        let several = try #require(throws: InputError.self) {
            try TuneObjective.parse("max qoe_lin", source: "x").bind(to: scenario, source: "--objective")
        }
        #expect(
            several.problem
                == .within(
                    "objective 'max qoe_lin'",
                    .withAdvice(
                        .mustBe("qoe_lin", rule: "of one player", found: "2 players"),
                        advice: "say which with [id] or combine them with sum, mean, min or max")))
    }

    @Test("objective scores aggregate players as documented, and constraints add up their violations")
    func scoresAggregateAndConstrainAsDocumented() throws {
        let scenario = try ScenarioLoader().load(Self.twoViews)
        let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let main = report.players[0].summary
        let tile = report.players[1].summary
        func score(_ text: String) throws -> TuneScore {
            try TuneObjective.parse(text, source: "x").bind(to: scenario, source: "x").score(report)
        }
        #expect(try score("max sum qoe_lin").value == main.qoeLinear + tile.qoeLinear)
        #expect(try score("max min qoe_lin").value == min(main.qoeLinear, tile.qoeLinear))
        #expect(try score("max mean avg_bitrate_kbps").value == (main.averageBitrateKbps + tile.averageBitrateKbps) / 2)
        #expect(try score("min stall_s[tile]").value == tile.stallSeconds)
        // Without an aggregate a constraint binds each player: the violation is the sum of both excesses.
        let bound = min(main.stallSeconds, tile.stallSeconds) / 2
        let expected = (main.stallSeconds - bound) + (tile.stallSeconds - bound)
        let each = try score("max sum qoe_lin subject to stall_s <= \(bound)")
        #expect(abs(each.violation - expected) < 1e-12)
        let summed = try score("max sum qoe_lin subject to sum stall_s <= \(bound)")
        #expect(abs(summed.violation - (main.stallSeconds + tile.stallSeconds - bound)) < 1e-12)
        #expect(try score("max sum qoe_lin subject to max stall_s <= 1000").isFeasible)
    }

    @Test("a feasible point ranks above any infeasible one, and then by value in the objective's direction")
    func feasiblePointsRankAboveInfeasibleOnes() {
        let feasibleLow = TuneScore(value: 1, maximises: true, violation: 0)
        let infeasibleHigh = TuneScore(value: 100, maximises: true, violation: 0.01)
        let infeasibleWorse = TuneScore(value: 100, maximises: true, violation: 0.5)
        #expect(feasibleLow.isBetter(than: infeasibleHigh))
        #expect(infeasibleHigh.isBetter(than: infeasibleWorse))
        #expect(!feasibleLow.isBetter(than: feasibleLow))
        #expect(
            TuneScore(value: 1, maximises: false, violation: 0).isBetter(
                than: TuneScore(value: 2, maximises: false, violation: 0)))
        #expect(
            TuneScore(value: 2, maximises: true, violation: 0).isBetter(
                than: TuneScore(value: 1, maximises: true, violation: 0)))
    }
}
