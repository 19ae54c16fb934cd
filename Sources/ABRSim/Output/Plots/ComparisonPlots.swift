/// The metrics the comparison plots show, with their axis titles.
public let comparisonPlotMetrics: [(metric: String, title: String)] = [
    ("qoe_lin", "QoE (linear)"), ("avg_bitrate_kbps", "average bitrate (kbit/s)"), ("stall_s", "stall time (s)"),
]

/// The empirical CDF of one metric across traces, one step line per policy: the fraction of traces on which
/// the policy's value is ≤ x. Drawn by `abrsim compare` and `abrsim plot` from ``ComparisonSamples``.
public enum CDFPlot {
    /// The CDF of `metric` (axis title `title`) as SVG.
    public static func svg(_ samples: ComparisonSamples, metric: String, title: String) -> SVGDocument {
        let values = samples.policies.map { samples.values(metric, policy: $0).sorted() }
        let all = values.flatMap { $0 }.filter(\.isFinite)
        let xScale = NiceScale(minimum: all.min() ?? 0, maximum: all.max() ?? 1, maximumTicks: 8)
        var svg = SVGDocument(width: 820, height: 460)
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
            svg.polyline(points, stroke: Palette.series(position), width: 2)
        }
        panel.drawFrame(&svg)
        PlotLegend.draw(
            &svg,
            entries: samples.policies.enumerated().map {
                .init("\($0.element) (n = \(values[$0.offset].count))", colour: Palette.series($0.offset))
            }, x: panel.right + 20, y: panel.top + 12)
        return svg
    }
}

/// Bars of one metric's mean per policy with whiskers for the 95 % confidence interval of the mean (Student
/// t, as in `stats.csv`). Drawn by `abrsim compare` and `abrsim plot` from ``ComparisonSamples``.
public enum BarPlot {
    /// The bars of `metric` (axis title `title`) as SVG.
    public static func svg(_ samples: ComparisonSamples, metric: String, title: String) -> SVGDocument {
        let stats = samples.policies.map { policy -> SampleStatistics? in
            let values = samples.values(metric, policy: policy).filter(\.isFinite)
            return values.isEmpty ? nil : SampleStatistics(values)
        }
        var low = 0.0
        var high = 0.0
        for s in stats.compactMap({ $0 }) {
            low = min(low, s.mean - s.confidenceHalfWidth95)
            high = max(high, s.mean + s.confidenceHalfWidth95)
        }
        let count = max(samples.policies.count, 1)
        let panelWidth = max(420, min(900, Double(count) * 110))
        var svg = SVGDocument(width: panelWidth + 140, height: 460)
        svg.text("Mean \(title) per policy", x: 80, y: 26, size: 16, bold: true)
        svg.text("whiskers: 95 % confidence interval of the mean (Student t)", x: 80, y: 44, size: 12)
        let panel = PlotPanel(
            left: 80, top: 60, width: panelWidth, height: 320,
            xScale: NiceScale(minimum: 0, maximum: Double(count), maximumTicks: 2),
            yScale: NiceScale(minimum: low, maximum: high, maximumTicks: 7))
        let yMap = panel.y
        for tick in panel.yScale.ticks {
            let py = yMap(tick)
            svg.line(x1: panel.left, y1: py, x2: panel.right, y2: py, stroke: "#e3e3e3")
            svg.text(panel.yScale.label(tick), x: panel.left - 6, y: py + 4, size: 12, anchor: "end")
        }
        svg.text(title, x: panel.left - 56, y: panel.top + panel.height / 2, size: 12, anchor: "middle", rotation: -90)
        let slot = panel.width / Double(count)
        let zero = yMap(0)
        for (position, policy) in samples.policies.enumerated() {
            let centre = panel.left + slot * (Double(position) + 0.5)
            let label = policy.count > 18 ? String(policy.prefix(17)) + "…" : policy
            svg.text(label, x: centre, y: panel.bottom + 18, size: 12, anchor: "middle")
            guard let s = stats[position] else { continue }
            let top = yMap(s.mean)
            let barWidth = slot * 0.6
            svg.rect(
                x: centre - barWidth / 2, y: min(top, zero), width: barWidth, height: abs(zero - top),
                fill: Palette.series(position), opacity: 0.85)
            svg.text(
                "n = \(s.count)", x: centre, y: panel.bottom + 34, size: 11, anchor: "middle", fill: "#555555")
            guard s.count > 1 else { continue }
            let lo = yMap(s.mean - s.confidenceHalfWidth95)
            let hi = yMap(s.mean + s.confidenceHalfWidth95)
            svg.line(x1: centre, y1: lo, x2: centre, y2: hi, stroke: Palette.black, width: 1.5)
            svg.line(x1: centre - 8, y1: lo, x2: centre + 8, y2: lo, stroke: Palette.black, width: 1.5)
            svg.line(x1: centre - 8, y1: hi, x2: centre + 8, y2: hi, stroke: Palette.black, width: 1.5)
        }
        svg.line(x1: panel.left, y1: zero, x2: panel.right, y2: zero, stroke: "#555555")
        svg.line(x1: panel.left, y1: panel.top, x2: panel.left, y2: panel.bottom, stroke: "#555555")
        return svg
    }
}

extension ComparisonSamples {
    /// The samples of a comparison's `summary.csv` (columns `policy`, `trace` and the metrics); an empty field
    /// is a missing value, and a row whose `final_state` is `failed` is a failure. Used by `abrsim plot` and `abrsim compare` to draw from the written file.
    public init(summary: CSVTable, file: String, metrics: [String] = ComparisonSamples.defaultMetrics) throws {
        let table = NamedTable(file: file, table: summary)
        let policies = try table.strings("policy")
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
