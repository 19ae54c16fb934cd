/// The table a comparison's `index.html` shows: one row per policy with the number of traces, each headline
/// metric's mean ± the half-width of its 95 % confidence interval (Student t, as `stats.csv`), and QoE's paired
/// difference against the baseline with its interval — the numbers a reader needs, where `stats.csv` holds 18
/// columns per policy and metric. Made by ``PlotBundles/comparison(_:title:baseline:hasStats:page:)``.
enum ComparisonTable {
    /// The metrics shown, with their decimals.
    static let metrics: [(metric: String, decimals: Int)] = [
        ("qoe_lin", 2), ("avg_bitrate_kbps", 0), ("stall_s", 2), ("switch_count", 1),
    ]

    /// The table of `samples` against `baseline`.
    static func table(_ samples: ComparisonSamples, baseline: String) -> CSVTable {
        let shown = metrics.filter { samples.metrics.contains($0.metric) }
        let hasQoE = samples.metrics.contains("qoe_lin")
        var columns = ["policy", "n"]
        for (metric, _) in shown {
            columns.append(metric)
            if metric == "qoe_lin" { columns.append("qoe_lin − \(baseline)") }
        }
        var rows: [[String]] = []
        for policy in samples.policies {
            let first = shown.first.map { samples.values($0.metric, policy: policy).count } ?? 0
            var row = [policy, String(first)]
            for (metric, decimals) in shown {
                let values = samples.values(metric, policy: policy).filter(\.isFinite)
                row.append(values.isEmpty ? "" : meanAndHalfWidth(SampleStatistics(values), decimals))
                guard metric == "qoe_lin", hasQoE else { continue }
                if policy == baseline {
                    row.append("baseline")
                } else {
                    let differences = samples.pairedDifferences(metric, policy: policy, baseline: baseline)
                        .filter(\.isFinite)
                    row.append(differences.isEmpty ? "" : interval(SampleStatistics(differences), decimals))
                }
            }
            rows.append(row)
        }
        return CSVTable(columns: columns, rows: rows)
    }

    /// "12.30 ± 1.05", or "12.30 ± n/a" below two values.
    static func meanAndHalfWidth(_ s: SampleStatistics, _ decimals: Int) -> String {
        fixedDecimals(s.mean, decimals) + " ± "
            + (s.count > 1 ? fixedDecimals(s.confidenceHalfWidth95, decimals) : "n/a")
    }

    /// "+3.10 [1.20, 5.00] (n = 12)", or "+3.10, n/a (n = 1)" below two values.
    static func interval(_ s: SampleStatistics, _ decimals: Int) -> String {
        let sign = s.mean > 0 ? "+" : ""
        let mean = sign + fixedDecimals(s.mean, decimals)
        guard s.count > 1 else { return mean + ", n/a (n = 1)" }
        let low = fixedDecimals(s.mean - s.confidenceHalfWidth95, decimals)
        let high = fixedDecimals(s.mean + s.confidenceHalfWidth95, decimals)
        return "\(mean) [\(low), \(high)] (n = \(s.count))"
    }
}
