import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Bounds, verdicts and the lines `abrsim check` prints, on values worked out by hand.
@Suite("evaluating expectations")
struct ExpectationEvaluatorTests {
    /// Constant 1000 kbit/s, 100 ms RTT, one 500 kbit/s rung of 4 s segments, three segments: each segment is
    /// 2 Mbit and takes 0.1 + 2 s, so the first frame is at 2.1 s and the link (twice the bitrate) never lets
    /// the buffer run dry. `extraPlayers` and `expect` are JSON fragments.
    static func scenario(expect: String, extraPlayers: String = "") throws -> Scenario {
        let text = #"""
            {"name": "hand", "network": {"stretches": [{"constantKbps": 1000, "seconds": 1000, "rttMs": 100}]},
             "content": {"ladderKbps": [500], "segmentSeconds": 4, "segments": 3},
             "players": [{"id": "main", "policy": "fixed"}\#(extraPlayers)],
             "expect": \#(expect)}
            """#
        return try ScenarioLoader().load(writeFile(TestPaths.scratch("eval"), "hand.json", text))
    }

    static func evaluate(_ scenario: Scenario) throws -> [ExpectationResult] {
        try ExpectationEvaluator.evaluate(scenario, report: ScenarioRunner().run(scenario))
    }

    @Test("expectation bounds are inclusive, need a number for a range, and compare words exactly")
    func boundsAreInclusiveAndNeedANumber() {
        let range = MetricExpectation.Bound.range(min: 1, max: 2)
        #expect(range.holds(for: "1") && range.holds(for: "2") && range.holds(for: "1.5"))
        #expect(!range.holds(for: "0.999") && !range.holds(for: "2.001"))
        #expect(!range.holds(for: "NaN") && !range.holds(for: "ended"))
        #expect(MetricExpectation.Bound.range(min: nil, max: 0).holds(for: "-Inf"))
        #expect(MetricExpectation.Bound.equalsNumber(0).holds(for: "0"))
        #expect(!MetricExpectation.Bound.equalsNumber(0).holds(for: "1e-9"))
        #expect(MetricExpectation.Bound.equalsText("ended").holds(for: "ended"))
        #expect(!MetricExpectation.Bound.equalsText("ended").holds(for: "failed"))
    }

    @Test("expectation bounds describe themselves as they are written in a scenario")
    func boundsDescribeThemselvesAsWritten() {
        #expect(MetricExpectation.Bound.range(min: nil, max: 1).description == "max 1")
        #expect(MetricExpectation.Bound.range(min: 1800, max: nil).description == "min 1800")
        #expect(MetricExpectation.Bound.range(min: 0.5, max: 2.5).description == "min 0.5, max 2.5")
        #expect(MetricExpectation.Bound.equalsText("ended").description == "equals ended")
    }

    @Test("a hand-computed 2.1 s startup fails a 1 s maximum and passes 2…2.2, with the PASS and FAIL lines")
    func handComputedStartupFailsAMaxAndPassesAWiderOne() throws {
        let scenario = try Self.scenario(
            expect: #"""
                [{"metric": "startup_s", "max": 1}, {"metric": "startup_s", "min": 2, "max": 2.2},
                 {"metric": "stall_count", "max": 0}, {"metric": "avg_bitrate_kbps", "equals": 500},
                 {"metric": "final_state", "equals": "ended"}]
                """#)
        let results = try Self.evaluate(scenario)
        #expect(results.map(\.passed) == [false, true, true, true, true])
        let measured = try #require(results[0].measured)
        let startup = try #require(Double(measured))
        #expect(abs(startup - 2.1) < 1e-9)
        #expect(results[0].line == "FAIL \(scenario.file) main startup_s = 2.1 (max 1)")
        #expect(results[0].failureMessage == "measured 2.1, bound max 1")
        #expect(results[0].caseName == "main startup_s (max 1)")
        #expect(results[2].line == "PASS \(scenario.file) main stall_count = 0 (max 0)")
        #expect(results[2].failureMessage == nil)
        #expect(results[4].line.hasSuffix("main final_state = ended (equals ended)"))
    }

    @Test("an expectation for every player gives one result per player, in order")
    func anExpectationForEveryPlayerGivesOneResultPerPlayerInOrder() throws {
        let scenario = try Self.scenario(
            expect: #"[{"metric": "segments", "equals": 3}]"#,
            extraPlayers: #", {"id": "second", "policy": "fixed"}"#)
        let results = try Self.evaluate(scenario)
        #expect(results.map(\.player) == ["main", "second"])
        #expect(results.map(\.policy) == ["fixed", "fixed"])
        #expect(results.map(\.passed) == [true, true])
    }

    @Test("a metric with no value, the startup of a player never asked to play, fails as no value")
    func aMissingValueFailsWithNoValue() throws {
        // A player that is never asked to play has no startup: an empty field in summary.csv.
        let scenario = try Self.scenario(
            expect: #"[{"player": "idle", "metric": "startup_s", "max": 100}]"#,
            extraPlayers: #", {"id": "idle", "policy": "fixed", "autoplay": false}"#)
        let results = try Self.evaluate(scenario)
        #expect(results.count == 1)
        #expect(results[0].measured == nil)
        #expect(!results[0].passed)
        #expect(results[0].line == "FAIL \(scenario.file) idle startup_s: no value (max 100)")
        #expect(results[0].failureMessage == "no value, bound max 100")
    }

    @Test("a displayed value is rounded to three places unless that would hide why a bound failed")
    func roundingNeverHidesWhyABoundFailed() {
        func result(_ measured: String, _ bound: MetricExpectation.Bound) -> ExpectationResult {
            let expectation = MetricExpectation(metric: "stall_s", bound: bound, players: ["p"])
            return ExpectationResult(
                file: "f.json", scenario: "f", player: "p", policy: "fixed", expectation: expectation,
                measured: measured, passed: bound.holds(for: measured))
        }
        #expect(result("0.41234", .range(min: nil, max: 1)).displayedValue == "0.412")
        #expect(result("1.0004", .range(min: nil, max: 1)).displayedValue == "1.0004")
        #expect(result("0.9996", .range(min: nil, max: 1)).displayedValue == "1")
        #expect(result("1799.9999", .range(min: 1800, max: nil)).displayedValue == "1799.9999")
        #expect(result("ended", .equalsText("failed")).displayedValue == "ended")
    }
}
