/// `tune.csv`: one row per evaluated point in evaluation order — phase, weight table, priorities, the score,
/// then every per-player metric (`qoe_lin[main]`, …, in player order) and the run's fairness indices. A point
/// scored over several networks (`tune --traces`) shows each metric's mean over them; `holdout` rows come last.
///
/// Written by `abrsim tune`; identical bytes for any number of jobs, since the points come in a fixed order.
public enum TuneTable {
    /// The header for `players` (ids in scenario order); `isFit` names the score column `rms_share_error` and
    /// leaves out the constraint columns.
    public static func columns(players: [String], isFit: Bool) -> [String] {
        var columns = ["phase", "evaluation", "weight_low", "weight_default", "weight_high", "priorities"]
        columns += isFit ? ["rms_share_error"] : ["objective", "feasible", "violation"]
        for id in players {
            columns += TuneMetric.playerMetrics.map { "\($0.rawValue)[\(id)]" }
        }
        columns += TuneMetric.runMetrics.map(\.rawValue)
        return columns
    }

    /// The whole file for `points`.
    public static func bytes(_ points: [TunePoint], players: [String], isFit: Bool) -> [UInt8] {
        var writer = CSVWriter(columns: columns(players: players, isFit: isFit))
        for (index, point) in points.enumerated() {
            writer.beginRow()
            writer.append(point.phase)
            writer.append(index + 1)
            writer.append(point.weights.low)
            writer.append(point.weights.standard)
            writer.append(point.weights.high)
            writer.append(point.priorities.map(\.rawValue).joined(separator: ";"))
            appendOptional(point.score.value, to: &writer)
            if !isFit {
                writer.append(point.score.isFeasible)
                writer.append(point.score.violation)
            }
            for player in point.report.players.indices {
                for metric in TuneMetric.playerMetrics {
                    appendOptional(point.value(metric, player: player), to: &writer)
                }
            }
            for metric in TuneMetric.runMetrics { appendOptional(point.value(metric), to: &writer) }
            writer.endRow()
        }
        return writer.takeBytes()
    }

    static func appendOptional(_ value: Double?, to writer: inout CSVWriter) {
        if let value { writer.append(value) } else { writer.appendEmpty() }
    }
}
