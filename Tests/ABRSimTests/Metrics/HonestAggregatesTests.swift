import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Aggregates that do not mislead (issue 13, part 5): a failed run is not a zero, `bytes` adds up, link shares
/// never sum above 1, `jain_qoe` says why it is empty.
@Suite("aggregates that do not mislead")
struct HonestAggregatesTests {
    @Test("a failed run is counted as failed and left out of the means and the paired differences")
    func aFailedRunIsCountedAndLeftOutOfMeansAndPairedDifferences() throws {
        var samples = ComparisonSamples(metrics: ["qoe_lin"])
        // Baseline b on three traces; a fails on t2 (its summary would read 0, which must not count).
        for (trace, value) in [("t1", 10.0), ("t2", 20.0), ("t3", 30.0)] {
            samples.add(policy: "b", trace: trace) { _ in value }
        }
        samples.add(policy: "a", trace: "t1") { _ in 12 }
        samples.add(policy: "a", trace: "t2", failed: true) { _ in 0 }
        samples.add(policy: "a", trace: "t3") { _ in 36 }
        #expect(samples.values("qoe_lin", policy: "a") == [12, 36])
        #expect(samples.failureCount("a") == 1 && samples.failureCount("b") == 0)
        // Paired only on t1 and t3: +2 and +6.
        #expect(samples.pairedDifferences("qoe_lin", policy: "a", baseline: "b") == [2, 6])
        let statistics = ComparisonStatistics(samples, baseline: "b")
        let a = try #require(statistics.rows.first { $0.policy == "a" })
        #expect(a.statistics?.mean == 24 && a.statistics?.count == 2)
        #expect(a.difference?.mean == 4 && a.difference?.count == 2)
        let table = try CSVTable.parse(statistics.csv(), file: "stats.csv")
        let row = try #require(table.rows.first { $0[0] == "a" })
        func field(_ name: String) -> String { row[table.columns.firstIndex(of: name)!] }
        #expect(field("n") == "2" && field("failed") == "1" && field("mean") == "24" && field("diff_mean") == "4")
    }

    @Test("rows of a summary file whose final state is failed are counted as failures, not values")
    func failedRowsOfASummaryFileAreFailuresToo() throws {
        let csv = "policy,trace,qoe_lin,final_state\nx,t1,5,ended\nx,t2,0,failed\ny,t1,7,ended\ny,t2,9,ended\n"
        let table = try CSVTable.parse(Array(csv.utf8), file: "summary.csv")
        let samples = try ComparisonSamples(summary: table, file: "summary.csv", metrics: ["qoe_lin"])
        #expect(samples.values("qoe_lin", policy: "x") == [5] && samples.failureCount("x") == 1)
        #expect(samples.pairedDifferences("qoe_lin", policy: "y", baseline: "x") == [2])
    }

    @Test("a sweep's grid settings split a policy into one series per setting, never pooled")
    func gridSettingsAreSeparateSeries() throws {
        let columns = RunTables.summaryColumns + ["players[*].rate"]
        func row(_ policy: String, _ trace: String, _ qoe: String, _ rate: String) -> [String] {
            columns.map { ["policy": policy, "trace": trace, "qoe_lin": qoe, "final_state": "ended"][$0] ?? "" }
                .dropLast() + [rate]
        }
        let table = CSVTable(
            columns: columns,
            rows: [row("bba", "t1", "5", "1"), row("bba", "t1", "9", "2"), row("bba", "t2", "7", "1")])
        let samples = try ComparisonSamples(summary: table, file: "summary.csv", metrics: ["qoe_lin"])
        #expect(samples.values("qoe_lin", policy: "bba [players[*].rate=1]") == [5, 7])
        #expect(samples.values("qoe_lin", policy: "bba [players[*].rate=2]") == [9])
        #expect(samples.values("qoe_lin", policy: "bba").isEmpty)
    }

    @Test("the Jain index over QoE is empty with a reason for negative or all-zero QoE, and 0.8 for QoE 1 and 3")
    func jainOverQoESaysWhyItIsEmpty() {
        let negative = FairnessSummary(throughputs: [1, 1], bitrates: [1, 1], qoes: [-3, 5], weights: [1, 1])
        #expect(negative.qoe == nil && negative.qoeWeighted == nil && negative.qoeUndefinedReason == "negative_qoe")
        let zero = FairnessSummary(throughputs: [1, 1], bitrates: [1, 1], qoes: [0, 0], weights: [1, 1])
        #expect(zero.qoe == nil && zero.qoeUndefinedReason == "all_zero")
        // (1 + 3)² / (2 · (1 + 9)) = 0.8.
        let defined = FairnessSummary(throughputs: [1, 1], bitrates: [1, 1], qoes: [1, 3], weights: [1, 1])
        #expect(abs(defined.qoe! - 0.8) < 1e-12 && defined.qoeUndefinedReason == nil)
    }

    /// The shipped scenarios (top level and `ci/`) that share one link (no routes), and the multi-view one with
    /// every player capped at 900 kbit/s (shares then move with the capacity, not only when flows change).
    static func shippedReports() throws -> [(String, RunReport)] {
        var files: [String] = []
        for folder in [TestPaths.scenarios, TestPaths.scenarios + "/ci"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            where name.hasSuffix(".json") {
                files.append(folder + "/" + name)
            }
        }
        var reports: [(String, RunReport)] = []
        for file in files {
            let scenario = try ScenarioLoader().load(file)
            guard scenario.routes.isEmpty else { continue }
            reports.append((file, try ScenarioRunner().run(scenario)))
        }
        let capped = try ScenarioLoader(settings: [ScenarioSetting.parse("players[*].rateLimitKbps=900")]).load(
            TestPaths.scenarios + "/multiview-priority.json")
        reports.append(("multiview-priority capped", try ScenarioRunner().run(capped)))
        return reports
    }

    @Test("in every shipped scenario the link shares of one instant sum to at most 1 and each player's bytes add up")
    func linkSharesOfOneInstantSumToAtMostOneAndBytesAddUpInEveryShippedScenario() throws {
        let reports = try Self.shippedReports()
        #expect(reports.count >= 4)
        var multiPlayer = 0
        for (file, report) in reports {
            if report.players.count > 1 { multiPlayer += 1 }
            // Every player's last share, instant by instant, after all rows of the instant.
            var rows: [(time: Double, player: Int, share: Double)] = []
            for (index, player) in report.players.enumerated() {
                rows += player.timeline.map { ($0.time, index, $0.linkShare) }
            }
            rows.sort { ($0.time, $0.player) < ($1.time, $1.player) }
            var current = [Double](repeating: 0, count: report.players.count)
            var worst = 0.0
            var position = 0
            while position < rows.count {
                let time = rows[position].time
                while position < rows.count && rows[position].time == time {
                    current[rows[position].player] = rows[position].share
                    position += 1
                }
                worst = max(worst, current.reduce(0, +))
            }
            #expect(worst <= 1 + 1e-9, "\(file): link shares sum to \(worst)")
            for player in report.players {
                let transferred = player.segments.filter { !$0.cacheHit }.reduce(0) { $0 + $1.bytes }
                #expect(player.summary.bytes == transferred, "\(file) \(player.id)")
                #expect(player.segments.allSatisfy { $0.bytes == $0.bytes.rounded() }, "\(file): whole bytes")
            }
        }
        #expect(multiPlayer >= 2, "the check covers shared links")
    }

    @Test("a seek mid-download leaves one cancelled row with the bytes received, not an abandon, and the bytes add up")
    func aSeekMidDownloadGivesACancelledRowAndTheBytesStillAddUp() throws {
        // 1 Mbit/s, 2 Mbit segments of 2 s: segment 0 arrives at 2 s; at 3 s segment 1 is half in.
        let curve = try CapacityCurve(starts: [0], ratesBps: [1e6], duration: 1000)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 10)
        var settings = PlayerSettings()
        settings.actions = [TimedAction(time: 3, action: .seek(to: 12))]
        let player = PlayerConfiguration(
            id: "p", content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: DualEWMAEstimator.hlsjs)
        let result = Simulation(curve: curve, players: [player]).run()
        let cancelled = result.segments[0].filter(\.cancelled)
        #expect(cancelled.count == 1 && cancelled[0].segment == 1 && cancelled[0].bytes == 125_000)
        let summary = SessionSummary(
            segments: result.segments[0], totals: result.totals[0], ladderBps: [1e6], qoe: QoESettings())
        #expect(summary.abandonedCount == 0, "a seek's cancellation is not the policy abandoning")
        #expect(summary.bytes == result.segments[0].reduce(0) { $0 + $1.bytes })
        #expect(!result.segments[0].filter { !$0.cancelled }.map(\.segment).contains(1))
    }
}
