/// Per-policy values of a metric over the traces of a comparison: what ``ComparisonStatistics`` summarises
/// and the comparison plots draw.
///
/// Values are keyed by trace (the trace's label and, for a label that occurs more than once, its occurrence
/// number), so that policy A's value on a trace pairs with policy B's value on the same trace. A metric a run
/// does not have (a startup that never happened) is left out for that run. A failed run (a player that ended
/// `failed`, such as an external policy that crashed) is not a zero: it adds no value to any metric, so it is
/// left out of means and of paired differences on its trace, and is counted in ``failures``.
public struct ComparisonSamples: Sendable, Equatable {
    /// Policies in first-seen order.
    public private(set) var policies: [String] = []
    /// Metrics in the order given.
    public let metrics: [String]
    /// `values[metric][policy]`: the (trace key, value) pairs in run order.
    public private(set) var values: [String: [String: [(key: String, value: Double)]]] = [:]
    /// Failed runs per policy (policies without a failure are absent).
    public private(set) var failures: [String: Int] = [:]
    private var occurrences: [String: [String: Int]] = [:]

    /// Empty samples of `metrics`.
    public init(metrics: [String]) { self.metrics = metrics }

    /// The metrics `abrsim compare` summarises, named as `summary.csv`'s columns.
    public static let defaultMetrics = [
        "qoe_lin", "avg_bitrate_kbps", "stall_s", "stall_count", "rebuffer_ratio", "switch_count", "startup_s",
    ]

    /// The metrics of a comparison on live content: ``defaultMetrics`` then the latency ones.
    public static let liveMetrics =
        defaultMetrics + ["latency_mean_s", "latency_p95_s", "time_above_target_latency_s", "catchup_seeks"]

    /// Adds one run of `policy` on `trace`; `value(metric)` is `nil` (or NaN) when the run has no such value.
    /// A `failed` run is counted and adds no values.
    public mutating func add(policy: String, trace: String, failed: Bool = false, value: (String) -> Double?) {
        if !policies.contains(policy) { policies.append(policy) }
        let occurrence = occurrences[policy, default: [:]][trace, default: 0]
        occurrences[policy, default: [:]][trace] = occurrence + 1
        if failed {
            failures[policy, default: 0] += 1
            return
        }
        let key = occurrence == 0 ? trace : "\(trace)#\(occurrence)"
        for metric in metrics {
            guard let x = value(metric), !x.isNaN else { continue }
            values[metric, default: [:]][policy, default: []].append((key, x))
        }
    }

    /// Failed runs of `policy`.
    public func failureCount(_ policy: String) -> Int { failures[policy] ?? 0 }

    /// The values of `metric` for `policy`, in run order.
    public func values(_ metric: String, policy: String) -> [Double] {
        (values[metric]?[policy] ?? []).map(\.value)
    }

    /// `policy` − `baseline` on every trace both have a value of `metric` for, in `policy`'s run order.
    public func pairedDifferences(_ metric: String, policy: String, baseline: String) -> [Double] {
        pairedValues(metric, policy: policy, baseline: baseline).map { $0.value - $0.baseline }
    }

    /// The (policy, baseline) value pairs of `metric` on every trace both have a value for, in `policy`'s order.
    public func pairedValues(_ metric: String, policy: String, baseline: String) -> [(value: Double, baseline: Double)]
    {
        var base: [String: Double] = [:]
        for pair in values[metric]?[baseline] ?? [] { base[pair.key] = pair.value }
        return (values[metric]?[policy] ?? []).compactMap { pair in base[pair.key].map { (pair.value, $0) } }
    }

    /// The samples of one-player reports (a comparison's), each player's ``SessionSummary`` under its policy
    /// and the report's trace.
    public init(reports: [RunReport], metrics: [String]? = nil) {
        self.init(metrics: metrics ?? (reports.contains(where: \.isLive) ? Self.liveMetrics : Self.defaultMetrics))
        for report in reports {
            for player in report.players {
                add(policy: player.policy, trace: report.trace, failed: player.summary.finalState.isFailed) {
                    player.summary.value(of: $0)
                }
            }
        }
    }

    public static func == (lhs: ComparisonSamples, rhs: ComparisonSamples) -> Bool {
        guard lhs.policies == rhs.policies, lhs.metrics == rhs.metrics, lhs.failures == rhs.failures else {
            return false
        }
        for metric in lhs.metrics {
            for policy in lhs.policies {
                let a = lhs.values[metric]?[policy] ?? []
                let b = rhs.values[metric]?[policy] ?? []
                guard a.count == b.count, zip(a, b).allSatisfy({ $0.key == $1.key && $0.value == $1.value }) else {
                    return false
                }
            }
        }
        return true
    }
}

extension SessionSummary {
    /// The value of a `summary.csv` metric column by name (`nil` for an unknown name or a missing startup).
    public func value(of metric: String) -> Double? {
        switch metric {
        case "qoe_lin": qoeLinear
        case "avg_bitrate_kbps": averageBitrateKbps
        case "stall_s": stallSeconds
        case "stall_count": Double(stallCount)
        case "rebuffer_ratio": rebufferRatio
        case "switch_count": Double(switchCount)
        case "startup_s": startupSeconds
        case "segments": Double(segments)
        case "bytes": bytes
        case "top_quality_s": topQualitySeconds
        case "played_s": playedSeconds
        case "latency_mean_s": live?.latencyMeanSeconds
        case "latency_p95_s": live?.latencyP95Seconds
        case "time_above_target_latency_s": live?.timeAboveTargetLatencySeconds
        case "catchup_seeks": live.map { Double($0.catchUpSeeks) }
        default: nil
        }
    }
}

/// Comparison statistics (`stats.csv`): per policy and metric, n (runs with a value), failed (runs that failed,
/// left out of every other number), mean, standard deviation, the 95 % confidence
/// interval of the mean (Student t with n − 1 degrees of freedom, from GSL), percentiles 5/25/50/75/95, and the
/// paired difference against a baseline policy (policy − baseline on the same trace) with its own interval.
///
/// All numbers come from ``SampleStatistics`` (GSL). Made by `abrsim compare`; the intervals are left empty
/// below two values.
public struct ComparisonStatistics: Sendable {
    /// One row: a policy's statistics for one metric.
    public struct Row: Sendable {
        /// The policy.
        public var policy: String
        /// The metric (a `summary.csv` column).
        public var metric: String
        /// Statistics of its values (`nil` when it has none).
        public var statistics: SampleStatistics?
        /// Statistics of the paired differences policy − baseline (`nil` for the baseline itself or when no
        /// trace has both values).
        public var difference: SampleStatistics?
    }

    /// The baseline policy.
    public let baseline: String
    /// Failed runs per policy (see ``ComparisonSamples/failures``).
    public let failures: [String: Int]
    /// Rows, metric by metric, each over the policies in order.
    public let rows: [Row]

    /// The statistics of `samples` against `baseline` (which must be one of the policies).
    public init(_ samples: ComparisonSamples, baseline: String) {
        self.baseline = baseline
        failures = samples.failures
        var rows: [Row] = []
        for metric in samples.metrics {
            for policy in samples.policies {
                let values = samples.values(metric, policy: policy)
                let differences =
                    policy == baseline
                    ? [] : samples.pairedDifferences(metric, policy: policy, baseline: baseline)
                rows.append(
                    Row(
                        policy: policy, metric: metric, statistics: values.isEmpty ? nil : SampleStatistics(values),
                        difference: differences.isEmpty ? nil : SampleStatistics(differences)))
            }
        }
        self.rows = rows
    }

    /// A `stats.csv` row: a statistics row with the comparison's baseline and failure counts.
    public struct TableRow: Sendable {
        /// The statistics row.
        public var row: Row
        /// The baseline policy.
        public var baseline: String
        /// Failed runs of the row's policy.
        public var failed: Int
    }

    /// sd, or an interval end, of `s`: empty below two values.
    private static func spread(_ s: SampleStatistics?, _ value: (SampleStatistics) -> Double) -> Double? {
        guard let s, s.count > 1 else { return nil }
        return value(s)
    }

    /// `stats.csv`'s columns; empty fields where a value does not exist.
    public static let table = CSVSchema<TableRow>([
        .text("policy") { $0.row.policy },
        .text("metric") { $0.row.metric },
        .integer("n") { $0.row.statistics?.count ?? 0 },
        .integer("failed") { $0.failed },
        .optionalNumber("mean") { $0.row.statistics?.mean },
        .optionalNumber("sd") { spread($0.row.statistics) { $0.standardDeviation } },
        .optionalNumber("ci95_low") { spread($0.row.statistics) { $0.mean - $0.confidenceHalfWidth95 } },
        .optionalNumber("ci95_high") { spread($0.row.statistics) { $0.mean + $0.confidenceHalfWidth95 } },
        .optionalNumber("p5") { $0.row.statistics?.p5 },
        .optionalNumber("p25") { $0.row.statistics?.p25 },
        .optionalNumber("p50") { $0.row.statistics?.p50 },
        .optionalNumber("p75") { $0.row.statistics?.p75 },
        .optionalNumber("p95") { $0.row.statistics?.p95 },
        .text("baseline") { $0.baseline },
        .integer("diff_n") { $0.row.difference?.count ?? 0 },
        .optionalNumber("diff_mean") { $0.row.difference?.mean },
        .optionalNumber("diff_sd") { spread($0.row.difference) { $0.standardDeviation } },
        .optionalNumber("diff_ci95_low") { spread($0.row.difference) { $0.mean - $0.confidenceHalfWidth95 } },
        .optionalNumber("diff_ci95_high") { spread($0.row.difference) { $0.mean + $0.confidenceHalfWidth95 } },
    ])

    /// Columns of `stats.csv`.
    public static var columns: [String] { table.names }

    /// `stats.csv`: one row per (metric, policy).
    public func csv() -> [UInt8] {
        Self.table.csv(rows.map { TableRow(row: $0, baseline: baseline, failed: failures[$0.policy] ?? 0) })
    }
}
