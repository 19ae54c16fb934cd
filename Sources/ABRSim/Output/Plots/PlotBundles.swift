/// The plot files of a run or a comparison, with their `index.html`, as an ``OutputBundle`` to commit to the
/// plots folder. Called by `abrsim run`, `abrsim compare` and `abrsim plot`; everything is drawn from data read
/// back from the CSV files, so the commands give byte-identical plots.
public enum PlotBundles {
    /// The `summary.csv` columns the run page shows, in order (those present; `link_share` for several players,
    /// `failure_reason` when a player failed).
    public static let runSummaryColumns = [
        "player", "policy", "trace", "startup_s", "stall_count", "stall_s", "avg_bitrate_kbps", "switch_count",
        "qoe_lin", "link_share", "final_state", "failure_reason",
    ]

    /// A run: `timeline.svg` (every player on one time axis), for a multi-player run also
    /// `timeline-<player>.svg` per player, and `index.html` with the description, the command and the chosen
    /// columns of the summary.
    public static func run(_ data: RunPlotData, page: PlotPage = PlotPage()) -> OutputBundle {
        run(data, page: page) { TimelinePlot.svg(data, players: $0) }
    }

    /// ``run(_:page:)`` of the run in `directory`, its timelines drawn as `timeline.csv` and `segments.csv` are
    /// read (``StreamedRunPlots``: memory flat in the run's length) when the files are as `abrsim run` writes
    /// them, else from ``RunPlotData/load(directory:)`` (the same pictures; a damaged file is reported there).
    public static func run(directory: String, page: PlotPage = PlotPage()) throws -> OutputBundle {
        if let streamed = try? StreamedRunPlots.draw(directory: directory) {
            return run(streamed.data, page: page) { streamed.figures[$0]! }
        }
        return run(try RunPlotData.load(directory: directory), page: page)
    }

    /// The bundle of a run whose players' timelines `timeline` draws (given the players' indices).
    static func run(_ data: RunPlotData, page: PlotPage, timeline: ([Int]) -> SVGDocument) -> OutputBundle {
        var figures: [HTMLIndex.Figure] = []
        let everyone = Array(data.players.indices)
        figures.append(
            .init(
                heading: data.players.count == 1 ? "Session timeline" : "Session timeline, every player",
                file: "timeline.svg", svg: timeline(everyone)))
        if data.players.count > 1 {
            var used: Set<String> = ["timeline.svg", "index.html"]
            for index in everyone {
                var name = "timeline-\(fileNamePart(data.players[index].id)).svg"
                if used.contains(name) { name = "timeline-\(index + 1).svg" }
                used.insert(name)
                figures.append(
                    .init(
                        heading: "Session timeline of \(data.players[index].id)", file: name,
                        svg: timeline([index])))
            }
        }
        var bundle = OutputBundle()
        for figure in figures { bundle.add(name: figure.file, bytes: figure.svg.bytes) }
        let table = HTMLIndex.Table(
            heading: "Summary", table: readableRunSummary(data.summary),
            links: ["summary.csv", "segments.csv", "timeline.csv"].map { ($0, page.link($0)) })
        let about = HTMLIndex.About(
            description: data.descriptionText, command: page.command, resultsWrittenBy: page.resultsWrittenBy)
        bundle.add(
            name: "index.html",
            bytes: HTMLIndex.page(title: "\(data.scenario): run", about: about, tables: [table], figures: figures))
        return bundle
    }

    /// The ``runSummaryColumns`` of `summary` (`link_share` only for several players, `failure_reason` only when
    /// some row has one).
    static func readableRunSummary(_ summary: CSVTable) -> CSVTable {
        let columns = runSummaryColumns.filter { name in
            guard let column = summary.column(name) else { return false }
            switch name {
            case "link_share": return column.count > 1
            case "failure_reason": return column.contains { !$0.isEmpty }
            default: return true
            }
        }
        let indices = columns.compactMap { summary.columns.firstIndex(of: $0) }
        return CSVTable(
            columns: columns, rows: summary.rows.map { row in indices.map { $0 < row.count ? row[$0] : "" } })
    }

    /// A comparison: `cdf-<metric>.svg`, `bars-<metric>.svg` and (with two policies or more) `diff-<metric>.svg`,
    /// the paired differences against `baseline` (default: the first policy), for QoE, average bitrate and stall
    /// time, and `index.html` with a table per policy and links to `summary.csv` (and `stats.csv` when
    /// `hasStats`).
    public static func comparison(
        _ samples: ComparisonSamples, title: String, baseline: String? = nil, hasStats: Bool = false,
        page: PlotPage = PlotPage()
    ) -> OutputBundle {
        let baseline = baseline ?? samples.policies.first ?? ""
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
        if samples.policies.count > 1 {
            for (metric, axisTitle) in comparisonPlotMetrics where samples.metrics.contains(metric) {
                figures.append(
                    .init(
                        heading: "Paired difference in \(axisTitle) against \(baseline), 95 % CI",
                        file: "diff-\(metric).svg",
                        svg: DifferencePlot.svg(samples, metric: metric, title: axisTitle, baseline: baseline)))
            }
        }
        var bundle = OutputBundle()
        for figure in figures { bundle.add(name: figure.file, bytes: figure.svg.bytes) }
        let table = HTMLIndex.Table(
            heading: "Per policy across traces (mean ± 95 % CI half-width; paired differences against \(baseline))",
            table: ComparisonTable.table(samples, baseline: baseline),
            links: (hasStats ? ["summary.csv", "stats.csv"] : ["summary.csv"]).map { ($0, page.link($0)) })
        let about = HTMLIndex.About(command: page.command, resultsWrittenBy: page.resultsWrittenBy)
        bundle.add(
            name: "index.html", bytes: HTMLIndex.page(title: title, about: about, tables: [table], figures: figures))
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
