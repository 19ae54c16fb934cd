import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Expectations over a window of simulated time: the windowed metrics on records and runs worked out by hand,
/// and the lines `abrsim check` prints for them.
@Suite("expectations over a window of time")
struct WindowedExpectationTests {
    func segment(_ index: Int, kbps: Double, seconds: Double, request: Double, abandoned: Bool = false)
        -> SegmentRecord
    {
        SegmentRecord(
            player: 0, segment: index, variant: 0, bitrateBps: kbps * 1000, durationSeconds: seconds, bytes: 1,
            requestTime: request, firstByteTime: request + 0.1, doneTime: request + 1, throughputBps: 1,
            bufferBeforeSeconds: 0, bufferAfterSeconds: 0, stallSeconds: 0, abandoned: abandoned)
    }

    /// Two downloaded segments (4 s at 1000 kbit/s requested at 0 s, 2 s at 4000 requested at 5 s), one
    /// abandoned 8000 kbit/s request at 6 s, and stalls over [3, 5) and [8, 12).
    var player: RunReport.PlayerReport {
        let summary = SessionSummary(
            segments: [], totals: PlayerTotals(), ladderBps: [1e6], qoe: QoESettings())
        return RunReport.PlayerReport(
            id: "p", policy: "fixed",
            segments: [
                segment(0, kbps: 1000, seconds: 4, request: 0), segment(1, kbps: 4000, seconds: 2, request: 5),
                segment(2, kbps: 8000, seconds: 4, request: 6, abandoned: true),
            ],
            timeline: [], summary: summary,
            stalls: [StallPeriod(start: 3, end: 5), StallPeriod(start: 8, end: 12)])
    }

    func value(_ metric: String, _ from: Double, _ to: Double = .infinity) -> String? {
        ExpectationEvaluator.windowedValue(
            metric, of: player, in: MetricExpectation.Window(fromSeconds: from, toSeconds: to))
    }

    @Test("windowed bitrate is the duration-weighted mean of the segments requested in the window, abandons left out")
    func bitrateIsTheDurationWeightedMeanOfTheSegmentsRequestedInTheWindow() {
        // (1000 × 4 + 4000 × 2) / 6 = 2000; the abandoned request does not count.
        #expect(value("avg_bitrate_kbps", 0, 10) == "2000")
        #expect(value("avg_bitrate_kbps", 0, 5) == "1000", "the end is exclusive")
        #expect(value("avg_bitrate_kbps", 5) == "4000", "the start is inclusive")
        #expect(value("avg_bitrate_kbps", 5.5, 100) == nil, "no segment: no value")
    }

    @Test("windowed stalls count where they begin, and their seconds are clipped to the window")
    func stallsCountWhereTheyBeginAndTheirSecondsAreClipped() {
        #expect(value("stall_count", 0, 8) == "1")
        #expect(value("stall_count", 0, 8.5) == "2")
        #expect(value("stall_count", 4, 8) == "0", "a stall that began before the window is not counted")
        // [4, 10): 1 s of the first stall and 2 s of the second.
        #expect(value("stall_s", 4, 10) == "3")
        #expect(value("stall_s", 0) == "6")
        #expect(value("stall_s", 5, 8) == "0")
    }

    /// 1000 kbit/s, 100 ms RTT, then 10 s without capacity from 4.2 s; one 500 kbit/s rung of 4 s segments
    /// (2 Mbit each), three segments, a player that does not wait. Segment 0 arrives at 2.1 s (playback
    /// starts), segment 1 at 4.2 s; segment 2 is requested at 4.2 s, its first byte is due at 4.3 s but the
    /// link is out until 14.2 s, so it arrives at 16.2 s. The 8 s buffered run out at 2.1 + 8 = 10.1 s: one
    /// stall from 10.1 s to 16.2 s.
    static func outageScenario(expect: String) throws -> Scenario {
        let text = #"""
            {"name": "window", "network": {"stretches": [{"constantKbps": 1000, "seconds": 4.2, "rttMs": 100},
               {"outageSeconds": 10}, {"constantKbps": 1000, "seconds": 1000, "rttMs": 100}]},
             "content": {"ladderKbps": [500], "segmentSeconds": 4, "segments": 3},
             "players": [{"id": "main", "policy": "fixed", "automaticallyWaitsToMinimizeStalling": false}],
             "expect": \#(expect)}
            """#
        return try ScenarioLoader().load(writeFile(TestPaths.scratch("window"), "window.json", text))
    }

    @Test("a run with an outage stalls once, in the window that holds it, with the check lines for windows")
    func aRunWithAnOutageStallsOnceInTheWindowThatHoldsIt() throws {
        let scenario = try Self.outageScenario(
            expect: #"""
                [{"metric": "stall_count", "toSeconds": 10, "equals": 0},
                 {"metric": "stall_count", "fromSeconds": 10, "toSeconds": 11, "equals": 1},
                 {"metric": "stall_s", "fromSeconds": 12, "toSeconds": 14, "min": 1.999, "max": 2.001},
                 {"metric": "stall_s", "fromSeconds": 0, "min": 6.099, "max": 6.101},
                 {"metric": "avg_bitrate_kbps", "fromSeconds": 4, "toSeconds": 5, "equals": 500},
                 {"metric": "avg_bitrate_kbps", "fromSeconds": 5, "toSeconds": 100, "min": 0}]
                """#)
        let suite = ExpectationSuite(scenarios: [scenario])
        let results = try suite.run(jobs: 1)[0]
        #expect(results.map(\.passed) == [true, true, true, true, true, false])
        #expect(results[1].line == "PASS \(scenario.file) main stall_count in [10 s, 11 s) = 1 (equals 1)")
        #expect(results[3].caseName == "main stall_s in [0 s, end) (min 6.099, max 6.101)")
        #expect(results[5].line == "FAIL \(scenario.file) main avg_bitrate_kbps in [5 s, 100 s): no value (min 0)")
    }

    static func loadError(_ item: String) -> InputError? {
        do {
            _ = try outageScenario(expect: "[\(item)]")
            return nil
        } catch let error as InputError {
            return error
        } catch {
            return InputError(.none, .unreadable("unexpected error \(error)"))
        }
    }

    @Test(
        "each mistake in an expectation's window is refused, naming its JSON path",
        arguments: [
            (
                #"{"metric": "stall_s", "fromSeconds": 20, "toSeconds": 10, "max": 1}"#, "$.expect[0].toSeconds",
                InputProblem.mustBe("toSeconds", rule: "greater than fromSeconds 20", found: "10")
            ),
            (
                #"{"metric": "stall_s", "fromSeconds": 5, "toSeconds": 5, "max": 1}"#, "$.expect[0].toSeconds",
                .mustBe("toSeconds", rule: "greater than fromSeconds 5", found: "5")
            ),
            (
                #"{"metric": "stall_s", "fromSeconds": -1, "max": 1}"#, "$.expect[0].fromSeconds",
                .mustBe("fromSeconds", rule: "0 or more", found: "-1")
            ),
            (
                #"{"metric": "startup_s", "fromSeconds": 0, "max": 1}"#, "$.expect[0].fromSeconds",
                .notApplicable(
                    "a window (fromSeconds, toSeconds)",
                    onlyFor: "the windowed metrics " + MetricExpectation.windowedMetrics.joined(separator: ", "),
                    here: "startup_s")
            ),
            (
                #"{"metric": "stall_s", "fromSecond": 0, "max": 1}"#, "$.expect[0]",
                .unknownKeys(
                    [#""fromSecond""#],
                    known: ["metric", "player", "policy", "min", "max", "equals", "fromSeconds", "toSeconds"])
            ),
            (
                #"{"metric": "stall_s", "toSeconds": "10", "max": 1}"#, "$.expect[0].toSeconds",
                .expected("a number", found: "a string")
            ),
        ])
    func windowMistakesNameTheJSONPath(_ item: String, _ path: String, _ problem: InputProblem) throws {
        let error = try #require(Self.loadError(item))
        #expect(error.place.position == .jsonPath(path), "\(error.description)")
        #expect(error.problem == problem, "\(error.description)")
    }
}
