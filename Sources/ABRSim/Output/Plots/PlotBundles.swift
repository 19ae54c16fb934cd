/// The plot files of a run or a comparison, with their `index.html`, as an ``OutputBundle`` to commit to the
/// plots folder. Called by `abrsim run`, `abrsim compare` and `abrsim plot`; everything is drawn from data read
/// back from the CSV files, so the commands give byte-identical plots.
public enum PlotBundles {
    /// A run: `timeline.svg` (every player on one time axis), for a multi-player run also
    /// `timeline-<player>.svg` per player, and `index.html` with the summary table.
    public static func run(_ data: RunPlotData) -> OutputBundle {
        var figures: [HTMLIndex.Figure] = []
        let everyone = Array(data.players.indices)
        figures.append(
            .init(
                heading: data.players.count == 1 ? "Session timeline" : "Session timeline, every player",
                file: "timeline.svg", svg: TimelinePlot.svg(data, players: everyone)))
        if data.players.count > 1 {
            var used: Set<String> = ["timeline.svg", "index.html"]
            for index in everyone {
                var name = "timeline-\(fileNamePart(data.players[index].id)).svg"
                if used.contains(name) { name = "timeline-\(index + 1).svg" }
                used.insert(name)
                figures.append(
                    .init(
                        heading: "Session timeline of \(data.players[index].id)", file: name,
                        svg: TimelinePlot.svg(data, players: [index])))
            }
        }
        var bundle = OutputBundle()
        for figure in figures { bundle.add(name: figure.file, bytes: figure.svg.bytes) }
        bundle.add(
            name: "index.html",
            bytes: HTMLIndex.page(
                title: "\(data.scenario): run", tables: [.init(heading: "Summary", table: data.summary)],
                figures: figures))
        return bundle
    }

    /// A comparison: `cdf-<metric>.svg` and `bars-<metric>.svg` for QoE, average bitrate and stall time, and
    /// `index.html` with `stats` (the `stats.csv` table) when given.
    public static func comparison(_ samples: ComparisonSamples, title: String, stats: CSVTable?) -> OutputBundle {
        var figures: [HTMLIndex.Figure] = []
        for (metric, axisTitle) in comparisonPlotMetrics where samples.metrics.contains(metric) {
            figures.append(
                .init(
                    heading: "CDF of \(axisTitle)", file: "cdf-\(metric).svg",
                    svg: CDFPlot.svg(samples, metric: metric, title: axisTitle)))
        }
        for (metric, axisTitle) in comparisonPlotMetrics where samples.metrics.contains(metric) {
            figures.append(
                .init(
                    heading: "Mean \(axisTitle), 95 % CI", file: "bars-\(metric).svg",
                    svg: BarPlot.svg(samples, metric: metric, title: axisTitle)))
        }
        var bundle = OutputBundle()
        for figure in figures { bundle.add(name: figure.file, bytes: figure.svg.bytes) }
        let tables = stats.map { [HTMLIndex.Table(heading: "Statistics across traces (stats.csv)", table: $0)] } ?? []
        bundle.add(name: "index.html", bytes: HTMLIndex.page(title: title, tables: tables, figures: figures))
        return bundle
    }

    /// `id` with every character other than letters, digits, `-`, `_` and `.` replaced by `_`.
    static func fileNamePart(_ id: String) -> String {
        String(
            id.prefix(100).map { character -> Character in
                character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
                    ? character : "_"
            })
    }
}
