/// `stretches.csv`: the stretches of a run's network on the run's time axis, so that the timeline plot can mark
/// their boundaries and outages from a run's files alone.
///
/// Columns `stretch,label,start_s,end_s`: the stretch's index in the scenario's `network.stretches` (0 for a
/// single trace), its label (the trace's file name, a preset, `constant` or `outage`), and where it starts and
/// ends (seconds). With `atEnd: loop` the stretches repeat every network period up to the run's end; with `hold`
/// the last one lasts to the end; with `end` the time after the network's end is an `outage` row with index −1.
/// At most ``maximumRows`` rows. Written by `abrsim run` from the scenario's network; read by ``RunPlotData``.
public enum StretchTable {
    /// Columns of `stretches.csv`.
    public static let columns = ["stretch", "label", "start_s", "end_s"]
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
    public static func csv(_ rows: [RunPlotData.Stretch]) -> [UInt8] {
        var writer = CSVWriter(columns: columns)
        for row in rows {
            writer.beginRow()
            writer.append(row.index)
            writer.append(row.label)
            writer.append(row.start)
            writer.append(row.end)
            writer.endRow()
        }
        return writer.takeBytes()
    }
}

/// `scenario.csv`: the scenario's name and its `description`, one row, so that the plots' `index.html` can say
/// what the run shows from a run's files alone. Written by `abrsim run`; read by ``RunPlotData``.
public enum ScenarioTable {
    /// Columns of `scenario.csv`.
    public static let columns = ["scenario", "description"]

    /// `scenario.csv` for the scenario `name` described by `description`.
    public static func csv(name: String, description: String) -> [UInt8] {
        var writer = CSVWriter(columns: columns)
        writer.beginRow()
        writer.append(name)
        writer.append(description)
        writer.endRow()
        return writer.takeBytes()
    }
}
