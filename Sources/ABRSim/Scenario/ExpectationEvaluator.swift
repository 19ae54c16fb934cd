/// Checks a scenario's ``MetricExpectation``s against the `summary.csv` rows of one run.
///
/// Reads the summary exactly as `abrsim run` writes it (``RunTables/appendSummary(_:to:)``), so every column,
/// including ones added later, is checkable by name, and a value is judged on the same text a user would see
/// in the file. Called by ``ExpectationSuite`` for `abrsim check`.
public enum ExpectationEvaluator {
    /// One result per (expectation, player it applies to), in expectation order then player order.
    public static func evaluate(_ scenario: Scenario, report: RunReport) throws -> [ExpectationResult] {
        var writer = CSVWriter(columns: RunTables.summaryColumns(live: report.isLive))
        RunTables.appendSummary(report, to: &writer)
        let table = try CSVTable.parse(writer.takeBytes(), file: "summary.csv")
        let playerColumn = table.columns.firstIndex(of: "player")!
        let policyColumn = table.columns.firstIndex(of: "policy")!
        var results: [ExpectationResult] = []
        for expectation in scenario.expectations {
            let metricColumn = table.columns.firstIndex(of: expectation.metric)
            for id in expectation.players {
                let row = table.rows.first { $0[playerColumn] == id }
                let measured: String?
                if let column = expectation.feedColumn {
                    measured = try report.feed.flatMap { try feedValue(column, report: report, feed: $0) }
                } else if let window = expectation.window {
                    measured = report.players.first { $0.id == id }.flatMap {
                        windowedValue(expectation.metric, of: $0, in: window)
                    }
                } else {
                    let field = row.flatMap { row in metricColumn.map { row[$0] } } ?? ""
                    measured = field.isEmpty ? nil : field
                }
                results.append(
                    ExpectationResult(
                        file: scenario.file, scenario: scenario.name, player: id,
                        policy: row?[policyColumn] ?? "", expectation: expectation, measured: measured,
                        passed: measured.map { expectation.bound.holds(for: $0) } ?? false))
            }
        }
        return results
    }

    /// Column `column` of the `feed.csv` row of a feed run, as the file shows it (`nil` when empty).
    static func feedValue(_ column: String, report: RunReport, feed: FeedSummary) throws -> String? {
        let table = try CSVTable.parse(FeedTables.session(report, feed), file: "feed.csv")
        guard let index = table.columns.firstIndex(of: column), let row = table.rows.first, !row[index].isEmpty
        else { return nil }
        return row[index]
    }

    /// A ``MetricExpectation/windowedMetrics`` metric of `player` over `window`, as `summary.csv` would print it;
    /// `nil` for a mean bitrate without a segment in the window. Needs the player's segment records.
    static func windowedValue(_ metric: String, of player: RunReport.PlayerReport, in window: MetricExpectation.Window)
        -> String?
    {
        switch metric {
        case "avg_bitrate_kbps":
            let segments = player.segments.filter { !$0.abandoned && window.contains($0.requestTime) }
            let seconds = segments.reduce(0) { $0 + $1.durationSeconds }
            guard seconds > 0 else { return nil }
            return formatCSVNumber(segments.reduce(0) { $0 + $1.bitrateBps * $1.durationSeconds } / seconds / 1000)
        case "stall_count":
            return String(player.stalls.filter { window.contains($0.start) }.count)
        case "stall_s":
            return formatCSVNumber(
                player.stalls.reduce(0) { $0 + $1.seconds(from: window.fromSeconds, to: window.toSeconds) })
        default:
            return nil
        }
    }
}

/// The verdict of one expectation for one player of one run: what was measured, against which bound.
///
/// Made by ``ExpectationEvaluator``; printed by `abrsim check` (``line``) and written to JUnit XML
/// (``caseName``, ``failureMessage``).
public struct ExpectationResult: Sendable, Equatable {
    /// The scenario file, as the user named it.
    public var file: String
    /// The scenario's name.
    public var scenario: String
    /// The player's id.
    public var player: String
    /// The player's policy label (`policy` column).
    public var policy: String
    /// The expectation checked.
    public var expectation: MetricExpectation
    /// The `summary.csv` field, `nil` when empty (a startup that never happened).
    public var measured: String?
    /// Whether the bound holds (a missing value never does).
    public var passed: Bool

    /// Creates a result; ``ExpectationEvaluator`` is the usual source.
    public init(
        file: String, scenario: String, player: String, policy: String, expectation: MetricExpectation,
        measured: String?,
        passed: Bool
    ) {
        self.file = file
        self.scenario = scenario
        self.player = player
        self.policy = policy
        self.expectation = expectation
        self.measured = measured
        self.passed = passed
    }

    /// The measured value for people: numbers rounded to three decimals, unless rounding would change the
    /// verdict (then every digit); `nil` when there is no value.
    public var displayedValue: String? {
        guard let measured else { return nil }
        guard let value = Double(measured), value.isFinite else { return measured }
        let rounded = formatCSVNumber((value * 1000).rounded() / 1000)
        return expectation.bound.holds(for: rounded) == passed ? rounded : measured
    }

    /// `PASS file player metric = value (bound)`, or `FAIL file player metric: no value (bound)`.
    public var line: String {
        let verdict = passed ? "PASS" : "FAIL"
        let subject = "\(file) \(player) \(expectation.subject)"
        guard let value = displayedValue else { return "\(verdict) \(subject): no value (\(expectation.bound))" }
        return "\(verdict) \(subject) = \(value) (\(expectation.bound))"
    }

    /// The test-case name in JUnit XML: `player metric (bound)`.
    public var caseName: String {
        "\(player) \(expectation.subject) (\(expectation.bound))"
    }

    /// Why it failed, `nil` when it passed: `measured 3, bound max 0` or `no value, bound max 1`.
    public var failureMessage: String? {
        if passed { return nil }
        guard let value = displayedValue else { return "no value, bound \(expectation.bound)" }
        return "measured \(value), bound \(expectation.bound)"
    }
}
