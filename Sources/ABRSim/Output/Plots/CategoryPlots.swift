/// Horizontal bars of one metric's mean per policy with whiskers for the 95 % confidence interval of the mean
/// (Student t, as in `stats.csv`): one row per policy, its full label at the left (wrapped, never cut), so long
/// policy labels of a sweep (`bba(reservoir=5,cushion=10)`) stay readable and apart. Drawn by `abrsim compare` and
/// `abrsim plot` from ``ComparisonSamples``.
public enum BarPlot {
    /// The bars of `metric` (axis title `title`) as SVG.
    public static func svg(_ samples: ComparisonSamples, metric: String, title: String) -> SVGDocument {
        let rows = samples.policies.map { policy -> CategoryChart.Row in
            let values = samples.values(metric, policy: policy).filter(\.isFinite)
            return CategoryChart.Row(label: policy, statistics: values.isEmpty ? nil : SampleStatistics(values))
        }
        return CategoryChart(
            title: "Mean \(title) per policy", subtitle: "whiskers: 95 % confidence interval of the mean (Student t)",
            axisTitle: title, rows: rows, colours: samples.policies.indices.map { Palette.series($0) }, bars: true
        ).svg()
    }
}

/// The paired differences of one metric against a baseline policy: for every other policy, the mean of
/// (policy − baseline) over the traces both ran, with the 95 % confidence interval of that mean (Student t with
/// n − 1 degrees of freedom, as `stats.csv`'s `diff_` columns), as a dot and whisker per row beside a zero line.
/// An interval that does not cross zero is a difference the traces support. Drawn by `abrsim compare` and
/// `abrsim plot` from ``ComparisonSamples``.
public enum DifferencePlot {
    /// The differences of `metric` (axis title `title`) against `baseline` as SVG.
    public static func svg(_ samples: ComparisonSamples, metric: String, title: String, baseline: String)
        -> SVGDocument
    {
        var rows: [CategoryChart.Row] = []
        var colours: [String] = []
        for (position, policy) in samples.policies.enumerated() where policy != baseline {
            let differences = samples.pairedDifferences(metric, policy: policy, baseline: baseline).filter(\.isFinite)
            rows.append(.init(label: policy, statistics: differences.isEmpty ? nil : SampleStatistics(differences)))
            colours.append(Palette.series(position))
        }
        return CategoryChart(
            title: "Paired difference in \(title): policy − \(baseline)",
            subtitle: "per trace, then the mean with its 95 % confidence interval (Student t); right of 0: higher",
            axisTitle: "\(title), policy − \(baseline)", rows: rows, colours: colours, bars: false
        ).svg()
    }
}

/// The layout both ``BarPlot`` and ``DifferencePlot`` draw: a row per category with its label wrapped into lines
/// at the left, a shared horizontal value axis with the zero line, a bar (or a dot) at the mean with a whisker for
/// the 95 % interval, and `n` at the right. Labels are text with `class="category-label"`, one element per line.
struct CategoryChart {
    /// One category: its label and the statistics of its values (`nil`: no values).
    struct Row {
        var label: String
        var statistics: SampleStatistics?
    }

    var title: String
    var subtitle: String
    var axisTitle: String
    var rows: [Row]
    var colours: [String]
    /// Bars from 0 to the mean (else a dot at the mean).
    var bars: Bool

    /// Longest label line, characters; longer labels wrap after a comma or parenthesis, else anywhere.
    static let lineCharacters = 36
    /// Font size of the labels.
    static let labelSize = 12.0
    /// Line height of the labels.
    static let lineHeight = 15.0
    /// Width of the value axis.
    static let panelWidth = 520.0

    /// `label` cut into lines of at most ``lineCharacters``, after a `,` or `(` where one is near the end of a line.
    static func wrap(_ label: String) -> [String] {
        var lines: [String] = []
        var rest = Substring(label)
        while rest.count > lineCharacters {
            let window = rest.prefix(lineCharacters)
            var cut = window.endIndex
            if let breakAt = window.lastIndex(where: { ",(|".contains($0) }),
                rest.distance(from: rest.startIndex, to: breakAt) >= lineCharacters / 3
            {
                cut = rest.index(after: breakAt)
            }
            lines.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(String(rest)) }
        return lines
    }

    func svg() -> SVGDocument {
        let wrapped = rows.map { Self.wrap($0.label) }
        let labelWidth = wrapped.flatMap { $0 }.map { TextMeasure.width($0, size: Self.labelSize) }.max() ?? 0
        let left = max(80, labelWidth + 24)
        let top = 64.0
        let heights = wrapped.map { max(30, Double($0.count) * Self.lineHeight + 12) }
        let panelHeight = max(heights.reduce(0, +), 30)
        var low = 0.0
        var high = 0.0
        for s in rows.compactMap(\.statistics) {
            low = min(low, s.mean - s.confidenceHalfWidth95)
            high = max(high, s.mean + s.confidenceHalfWidth95)
        }
        let scale = NiceScale(minimum: low, maximum: high, maximumTicks: 7)
        let panel = PlotPanel(
            left: left, top: top, width: Self.panelWidth, height: panelHeight, xScale: scale, yScale: scale)
        let nWidth = rows.map { TextMeasure.width(Self.countText($0.statistics), size: 11) }.max() ?? 0
        var svg = SVGDocument(width: panel.right + 16 + nWidth + 16, height: panel.bottom + 60)
        svg.text(title, x: 16, y: 26, size: 16, bold: true)
        svg.text(subtitle, x: 16, y: 44, size: 12)
        let xMap = panel.x
        for tick in scale.ticks {
            let px = xMap(tick)
            svg.line(x1: px, y1: panel.top, x2: px, y2: panel.bottom, stroke: "#e3e3e3")
            svg.line(x1: px, y1: panel.bottom, x2: px, y2: panel.bottom + 4, stroke: "#555555")
            svg.text(scale.label(tick), x: px, y: panel.bottom + 17, size: 12, anchor: "middle")
        }
        svg.text(axisTitle, x: panel.left + panel.width / 2, y: panel.bottom + 36, size: 12, anchor: "middle")
        var rowTop = panel.top
        for (index, row) in rows.enumerated() {
            let centre = rowTop + heights[index] / 2
            let lines = wrapped[index]
            let firstBaseline = centre - Double(lines.count - 1) * Self.lineHeight / 2 + 4
            for (number, line) in lines.enumerated() {
                svg.text(
                    line, x: left - 10, y: firstBaseline + Double(number) * Self.lineHeight, size: Self.labelSize,
                    anchor: "end", role: "category-label")
            }
            svg.text(
                Self.countText(row.statistics), x: panel.right + 16, y: centre + 4, size: 11, fill: "#555555")
            rowTop += heights[index]
            guard let s = row.statistics else { continue }
            let colour = colours[index % max(colours.count, 1)]
            let mean = xMap(s.mean)
            if bars {
                let zero = xMap(0)
                svg.rect(
                    x: min(mean, zero), y: centre - 9, width: abs(mean - zero), height: 18, fill: colour, opacity: 0.85)
            }
            if s.count > 1 {
                let lo = xMap(s.mean - s.confidenceHalfWidth95)
                let hi = xMap(s.mean + s.confidenceHalfWidth95)
                svg.line(x1: lo, y1: centre, x2: hi, y2: centre, stroke: Palette.black, width: 1.5, role: "interval")
                svg.line(x1: lo, y1: centre - 6, x2: lo, y2: centre + 6, stroke: Palette.black, width: 1.5)
                svg.line(x1: hi, y1: centre - 6, x2: hi, y2: centre + 6, stroke: Palette.black, width: 1.5)
            }
            if !bars {
                svg.rect(x: mean - 5, y: centre - 5, width: 10, height: 10, fill: colour, stroke: Palette.black)
            }
        }
        let zero = xMap(0)
        svg.line(x1: zero, y1: panel.top, x2: zero, y2: panel.bottom, stroke: "#555555", dashed: !bars)
        svg.line(x1: panel.left, y1: panel.bottom, x2: panel.right, y2: panel.bottom, stroke: "#555555")
        return svg
    }

    /// "n = 12", "n = 1, no interval" or "no values".
    static func countText(_ statistics: SampleStatistics?) -> String {
        guard let s = statistics else { return "no values" }
        return s.count > 1 ? "n = \(s.count)" : "n = \(s.count), no interval"
    }
}
