/// `stretches.csv`: the stretches of a run's network on the run's time axis, so that the timeline plot can mark
/// their boundaries and outages from a run's files alone.
///
/// Columns `stretch,label,start_s,end_s`: the stretch's index in the scenario's `network.stretches` (0 for a
/// single trace), its label (the trace's file name, a preset, `constant` or `outage`), and where it starts and
/// ends (seconds). With `atEnd: loop` the stretches repeat every network period up to the run's end; with `hold`
/// the last one lasts to the end; with `end` the time after the network's end is an `outage` row with index −1.
/// At most ``maximumRows`` rows. Written by `abrsim run` from the scenario's network; read by ``RunPlotData``.
public enum StretchTable {
    /// `stretches.csv`'s columns.
    public static let table = CSVSchema<RunPlotData.Stretch>([
        .integer("stretch") { $0.index }, .text("label") { $0.label }, .number("start_s") { $0.start },
        .number("end_s") { $0.end },
    ])
    /// Most rows (a timeline panel is 800 pixels wide; more boundaries than that cannot be told apart).
    public static let maximumRows = 1000

    /// The stretches (`starts` and `labels` as in ``NetworkTimeline``, the network lasting `duration` seconds and
    /// behaving as `atEnd` after it) over [0, `end`].
    public static func rows(
        starts: [Double], labels: [String], duration: Double, atEnd: TraceEndBehavior, end: Double
    ) -> [RunPlotData.Stretch] {
        guard !starts.isEmpty, starts.count == labels.count, duration > 0, duration.isFinite, end.isFinite else {
            return []
        }
        var rows: [RunPlotData.Stretch] = []
        var offset = 0.0
        repeat {
            for index in starts.indices {
                let start = offset + starts[index]
                guard start < end || rows.isEmpty, rows.count < maximumRows else { return rows }
                var stop = offset + (index + 1 < starts.count ? starts[index + 1] : duration)
                if index == starts.count - 1, atEnd == .hold { stop = max(stop, end) }
                rows.append(.init(index: index, label: labels[index], start: start, end: min(stop, max(end, start))))
            }
            offset += duration
        } while atEnd == .loop && offset < end
        if atEnd == .end, end > duration, rows.count < maximumRows {
            rows.append(.init(index: -1, label: "outage", start: duration, end: end))
        }
        return rows
    }

    /// `stretches.csv` of `rows`.
    public static func csv(_ rows: [RunPlotData.Stretch]) -> [UInt8] { table.csv(rows) }
}

/// `scenario.csv`: the scenario's name and its `description`, one row, so that the plots' `index.html` can say
/// what the run shows from a run's files alone. Written by `abrsim run`; read by ``RunPlotData``.
public enum ScenarioTable {
    /// `scenario.csv`'s columns.
    public static let table = CSVSchema<(name: String, description: String)>([
        .text("scenario") { $0.name }, .text("description") { $0.description },
    ])

    /// `scenario.csv` for the scenario `name` described by `description`.
    public static func csv(name: String, description: String) -> [UInt8] { table.csv([(name, description)]) }
}
