/// The metrics the comparison plots show, with their axis titles.
public let comparisonPlotMetrics: [(metric: String, title: String)] = [
    ("qoe_lin", "QoE (linear)"), ("avg_bitrate_kbps", "average bitrate (kbit/s)"), ("stall_s", "stall time (s)"),
]

/// The empirical CDF of one metric across traces, one step line per policy: the fraction of traces on which
/// the policy's value is ≤ x. Lines are drawn thickest first, so a policy whose line is the same as a later one's
/// (two labels for one setting) still shows as a border around it. Drawn by `abrsim compare` and `abrsim plot`
/// from ``ComparisonSamples``.
public enum CDFPlot {
    /// Width of line `position` of `count`: from 4.5 pixels for the first down to 1.5 for the last.
    static func lineWidth(_ position: Int, of count: Int) -> Double {
        count < 2 ? 2 : 1.5 + 3 * Double(count - 1 - position) / Double(count - 1)
    }

    /// The CDF of `metric` (axis title `title`) as SVG.
    public static func svg(_ samples: ComparisonSamples, metric: String, title: String) -> SVGDocument {
        let values = samples.policies.map { samples.values(metric, policy: $0).sorted() }
        let all = values.flatMap { $0 }.filter(\.isFinite)
        let xScale = NiceScale(minimum: all.min() ?? 0, maximum: all.max() ?? 1, maximumTicks: 8)
        let labels = samples.policies.enumerated().map { "\($0.element) (n = \(values[$0.offset].count))" }
        let legendWidth = labels.map { TextMeasure.width($0, size: 12) }.max() ?? 0
        let height = max(460, 72 + 18 * Double(labels.count))
        var svg = SVGDocument(width: max(820, 80 + 520 + 20 + 24 + legendWidth + 16), height: height)
        svg.text("CDF of \(title) across traces", x: 80, y: 26, size: 16, bold: true)
        let panel = PlotPanel(
            left: 80, top: 60, width: 520, height: 320, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: 1, maximumTicks: 6))
        panel.drawAxes(
            &svg, title: "", yTitle: "fraction of traces ≤ x", xLabels: true, xTitle: title)
        let xMap = panel.x
        let yMap = panel.y
        for (position, sorted) in values.enumerated() {
            let finite = sorted.filter(\.isFinite)
            guard !finite.isEmpty else { continue }
            var points: [(x: Double, y: Double)] = [(xMap(xScale.lower), yMap(0))]
            for (index, value) in finite.enumerated() {
                points.append((xMap(value), yMap(Double(index) / Double(finite.count))))
                points.append((xMap(value), yMap(Double(index + 1) / Double(finite.count))))
            }
            points.append((xMap(xScale.upper), yMap(1)))
            svg.polyline(points, stroke: Palette.series(position), width: lineWidth(position, of: values.count))
        }
        panel.drawFrame(&svg)
        PlotLegend.draw(
            &svg,
            entries: labels.enumerated().map { .init($0.element, colour: Palette.series($0.offset)) },
            x: panel.right + 20, y: panel.top + 12)
        return svg
    }
}

extension ComparisonSamples {
    /// The samples of a comparison's `summary.csv` (columns `policy`, `trace` and the metrics it has); an empty field
    /// is a missing value, and a row whose `final_state` is `failed` is a failure. Columns beyond the summary's
    /// own (a sweep's `--grid` settings) are part of the series: `bba [buffer=30]` and `bba [buffer=60]` are
    /// two series, never pooled. Used by `abrsim plot` and `abrsim compare` to draw from the written file.
    public init(summary: CSVTable, file: String, metrics: [String] = ComparisonSamples.liveMetrics) throws {
        let table = NamedTable(file: file, table: summary)
        let known = Set(RunTables.summaryColumns(live: true))
        let settings = try summary.columns.filter { !known.contains($0) }.map { ($0, try table.strings($0)) }
        let policies = try table.strings("policy").enumerated().map { row, policy in
            settings.isEmpty
                ? policy : policy + " [" + settings.map { "\($0.0)=\($0.1[row])" }.joined(separator: ", ") + "]"
        }
        let traces = try table.strings("trace")
        var columns: [String: [Double]] = [:]
        for metric in metrics where summary.columns.contains(metric) {
            columns[metric] = try table.numbers(metric)
        }
        let states = summary.columns.contains("final_state") ? try table.strings("final_state") : nil
        self.init(metrics: metrics.filter { columns[$0] != nil })
        for row in policies.indices {
            add(policy: policies[row], trace: traces[row], failed: states?[row] == "failed") { columns[$0]?[row] }
        }
    }
}
