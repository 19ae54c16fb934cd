import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Decoding a scenario's `expect` list: defaults, filters, bounds, and every kind of mistake named by file and
/// JSON path.
@Suite("decoding a scenario's expectations")
struct ExpectationDecoderTests {
    /// A two-player scenario (`main` on throughput, `side` on bba(reservoir=5)) with `expect` set to `items`.
    static func scenario(_ items: String) -> String {
        #"""
        {"name": "e", "network": {"preset": "lte"},
         "content": {"ladderKbps": [500, 2000], "segmentSeconds": 4, "segments": 3},
         "players": [{"id": "main", "policy": "throughput"}, {"id": "side", "policy": "bba(reservoir=5)"}],
         "expect": \#(items)}
        """#
    }

    static func load(_ items: String) throws -> Scenario {
        let path = writeFile(TestPaths.scratch("expect"), "s.json", scenario(items))
        return try ScenarioLoader().load(path)
    }

    static func loadError(_ items: String) -> InputError? {
        do {
            _ = try load(items)
            return nil
        } catch let error as InputError {
            return error
        } catch {
            return InputError(.none, .unreadable("unexpected error \(error)"))
        }
    }

    @Test("an expectation without a player applies to every player in file order, located by its JSON path")
    func aPlayerDefaultsToEveryPlayerInFileOrder() throws {
        let scenario = try Self.load(#"[{"metric": "startup_s", "max": 2.5}]"#)
        #expect(scenario.expectations.count == 1)
        let expectation = scenario.expectations[0]
        #expect(expectation.player == "*")
        #expect(expectation.players == ["main", "side"])
        #expect(expectation.bound == .range(min: nil, max: 2.5))
        #expect(expectation.location == "$.expect[0]")
    }

    @Test("an expectation's policy filter matches a player's policy name or its full label")
    func policyFiltersMatchTheNameOrTheFullLabel() throws {
        let scenario = try Self.load(
            #"""
            [{"policy": "bba", "metric": "avg_bitrate_kbps", "min": 1800},
             {"policy": "bba(reservoir=5)", "metric": "stall_count", "max": 0},
             {"player": "main", "policy": "throughput", "metric": "stall_s", "min": 0, "max": 3}]
            """#)
        #expect(scenario.expectations.map(\.players) == [["side"], ["side"], ["main"]])
        #expect(scenario.expectations[2].bound == .range(min: 0, max: 3))
    }

    @Test("equals takes a word for a text column and a number for a numeric one")
    func equalsTakesAWordForTextColumnsAndANumberOtherwise() throws {
        let scenario = try Self.load(
            #"[{"metric": "final_state", "equals": "ended"}, {"metric": "stall_count", "equals": 0}]"#)
        #expect(scenario.expectations.map(\.bound) == [.equalsText("ended"), .equalsNumber(0)])
    }

    @Test(
        "every measured summary column, live ones included, and no identity column, can be an expectation's metric, and so can every feed.csv measure"
    )
    func everyMeasuredSummaryColumnIsAMetric() throws {
        // The live columns too: a live scenario's expectations bound its latency.
        let measured = RunTables.summaryColumns(live: true).filter {
            !["scenario", "player", "policy", "trace"].contains($0)
        }
        let feed = [
            "feed.items_played", "feed.watched_s", "feed.startup_mean_s", "feed.stall_count", "feed.stall_s",
            "feed.bytes", "feed.wasted_bytes", "feed.download_watch_ratio", "feed.qoe_shortvideo",
            "feed.bandwidth_cost", "feed.score",
        ]
        #expect(MetricExpectation.metrics == measured + feed)
        for metric in measured where !MetricExpectation.textColumns.contains(metric) {
            let scenario = try Self.load(#"[{"metric": "\#(metric)", "min": 0}]"#)
            #expect(scenario.expectations[0].metric == metric)
        }
    }

    @Test("a scenario without an expect list has no expectations")
    func aScenarioWithoutExpectHasNoExpectations() throws {
        let path = writeFile(
            TestPaths.scratch("expect"), "s.json",
            #"{"network": {"preset": "lte"}, "content": {"ladderKbps": [500], "segmentSeconds": 4, "segments": 1},"#
                + #" "players": [{"id": "a", "policy": "fixed"}]}"#)
        #expect(try ScenarioLoader().load(path).expectations.isEmpty)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var items: String
        /// The JSON path the error is placed at.
        var path: String
        /// What is wrong.
        var problem: InputProblem
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "unknown metric", items: #"[{"metric": "stall_count", "max": 0}, {"metric": "stalls", "max": 0}]"#,
            path: "$.expect[1].metric",
            problem: .unknownName("stalls", kind: "metric", known: MetricExpectation.metrics)),
        Case(
            label: "identity column as a metric", items: #"[{"metric": "player", "equals": "main"}]"#,
            path: "$.expect[0].metric",
            problem: .unknownName("player", kind: "metric", known: MetricExpectation.metrics)),
        Case(
            label: "no bound", items: #"[{"metric": "stall_count"}]"#, path: "$.expect[0]",
            problem: .noneGiven("bound: min, max (or both) or equals", in: "an expectation")),
        Case(
            label: "equals with min", items: #"[{"metric": "stall_count", "equals": 0, "min": 0}]"#,
            path: "$.expect[0].equals",
            problem: .conflicting(["equals", "min", "max"], reason: "give either equals or min/max, not both")),
        Case(
            label: "min above max", items: #"[{"metric": "stall_s", "min": 3, "max": 1}]"#, path: "$.expect[0]",
            problem: .mustBeRelative("min", found: "3", rule: "at most", other: "max", otherValue: "1")),
        Case(
            label: "range on a text column", items: #"[{"metric": "final_state", "max": 1}]"#, path: "$.expect[0]",
            problem: .notApplicable(
                "min/max", onlyFor: "number metrics", here: "final_state, which is text: bound it with equals")),
        Case(
            label: "number for a text column", items: #"[{"metric": "final_state", "equals": 1}]"#,
            path: "$.expect[0].equals", problem: .expected("a string", found: "a number")),
        Case(
            label: "word for a numeric column", items: #"[{"metric": "stall_count", "equals": "none"}]"#,
            path: "$.expect[0].equals", problem: .expected("a number", found: "a string")),
        Case(
            label: "unknown player id", items: #"[{"player": "mian", "metric": "stall_count", "max": 0}]"#,
            path: "$.expect[0].player",
            problem: .unknownName("mian", kind: "player", known: ["main", "side", "* (every player)"])),
        Case(
            label: "matches no player",
            items:
                #"[{"metric": "stall_count", "max": 0}, {"player": "main", "policy": "bba", "metric": "stall_s", "max": 0}]"#,
            path: "$.expect[1]",
            problem: .within("player 'main'", .unknownName("bba", kind: "policy", known: ["throughput"]))),
        Case(
            label: "unknown key", items: #"[{"metric": "stall_count", "max": 0, "maximum": 1}]"#, path: "$.expect[0]",
            problem: .unknownKeys(
                [#""maximum""#],
                known: ["metric", "player", "policy", "min", "max", "equals", "fromSeconds", "toSeconds"])),
        Case(
            label: "not an array", items: #"{"metric": "stall_count"}"#, path: "$.expect",
            problem: .expected("an array", found: "an object")),
    ]

    @Test(
        "each mistake in an expect list is refused, naming the file, its JSON path and what is wrong", arguments: cases)
    func mistakesNameTheFileAndTheJSONPath(_ testCase: Case) {
        let error = Self.loadError(testCase.items)
        #expect(error != nil)
        let text = error?.description ?? ""
        #expect(error?.file?.hasSuffix("s.json") == true, "\(text)")
        #expect(error?.place.position == .jsonPath(testCase.path), "\(text)")
        #expect(error?.problem == testCase.problem, "\(text)")
    }
}
