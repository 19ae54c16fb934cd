/// The network's marks on the session timeline: a dashed line at every stretch boundary, grey shading over every
/// outage, and (on the capacity panel) each stretch's label, so the reader sees where the walk goes from WiFi to
/// LTE to 3G and where the link is down.
///
/// Outages are the `outage` stretches of `stretches.csv` together with the runs of zero bins of `capacity.csv`
/// (a trace's own gaps), merged. Made from ``RunPlotData`` by ``TimelinePlot``; every mark carries a `class`
/// (`stretch-boundary`, `outage`, `stretch-label`).
struct TimelineMarks {
    /// Times of the stretch boundaries (each stretch's start after 0 and before the end), seconds.
    var boundaries: [Double] = []
    /// Spans without capacity, seconds, in time order, disjoint.
    var outages: [(start: Double, end: Double)] = []
    /// Spans of the stretches that carry data, with their labels.
    var stretches: [(label: String, start: Double, end: Double)] = []

    /// A feed run's items, each over the time it was the playing item.
    var items: [(id: String, start: Double, end: Double)] = []

    /// Grey of the outage shading.
    static let outageColour = "#888888"
    /// Colour of the tint of every other feed item.
    static let itemColour = "#0072b2"
    /// Colour of the boundary lines.
    static let boundaryColour = "#444444"

    /// The marks of `data` over [0, `end`].
    init(_ data: RunPlotData, end: Double) {
        items = data.items.filter { $0.start < end }
        var spans: [(start: Double, end: Double)] = []
        for stretch in data.stretches where stretch.start < end {
            if stretch.start > 0, boundaries.last != stretch.start { boundaries.append(stretch.start) }
            if stretch.isOutage {
                spans.append((stretch.start, min(stretch.end, end)))
            } else {
                stretches.append((stretch.label, stretch.start, min(stretch.end, end)))
            }
        }
        var index = 0
        let bins = data.capacity
        while index + 1 < bins.count {
            guard bins[index].kbps == 0 else {
                index += 1
                continue
            }
            let start = bins[index].time
            while index + 1 < bins.count, bins[index].kbps == 0 { index += 1 }
            spans.append((start, bins[index].time))
        }
        for span in spans.sorted(by: { $0.start < $1.start }) where span.end > span.start {
            if let last = outages.last, span.start <= last.end {
                outages[outages.count - 1].end = max(last.end, span.end)
            } else {
                outages.append(span)
            }
        }
    }

    /// Legend entries for the marks present.
    var legend: [PlotLegend.Entry] {
        var entries: [PlotLegend.Entry] = []
        if !boundaries.isEmpty { entries.append(.init("stretch boundary", colour: Self.boundaryColour)) }
        if !outages.isEmpty {
            entries.append(.init("outage (no capacity)", colour: Self.outageColour, isLine: false, opacity: 0.35))
        }
        return entries
    }

    /// Draws the outages and boundaries over `panel` (before its data), and with `labels` each stretch's label
    /// along its top edge where the stretch is wide enough (shortened with "…" to fit).
    func draw(_ svg: inout SVGDocument, panel: PlotPanel, labels: Bool) {
        let xMap = panel.x
        // A feed's items: every other one tinted, each labelled with its id along the bottom edge of the first panel.
        for (position, item) in items.enumerated() {
            let x0 = xMap(item.start)
            let width = max(xMap(min(item.end, panel.xScale.upper)) - x0, 0)
            if position % 2 == 1 {
                svg.rect(
                    x: x0, y: panel.top, width: width, height: panel.height, fill: Self.itemColour, opacity: 0.12,
                    role: "feed-item")
            }
            guard labels, let text = TextMeasure.shortened(item.id, toFit: width - 4, size: 9) else { continue }
            svg.text(text, x: x0 + 2, y: panel.bottom - 4, size: 9, fill: "#555555", role: "feed-item-label")
        }
        for outage in outages {
            let x0 = xMap(outage.start)
            svg.rect(
                x: x0, y: panel.top, width: max(xMap(outage.end) - x0, 1), height: panel.height,
                fill: Self.outageColour, opacity: 0.35, role: "outage")
        }
        for time in boundaries {
            let x = xMap(time)
            svg.line(
                x1: x, y1: panel.top, x2: x, y2: panel.bottom, stroke: Self.boundaryColour, dashed: true,
                role: "stretch-boundary")
        }
        guard labels else { return }
        let size = 10.0
        for stretch in stretches {
            let x0 = xMap(stretch.start)
            let room = xMap(stretch.end) - x0 - 8
            guard let text = TextMeasure.shortened(stretch.label, toFit: room, size: size) else { continue }
            svg.text(text, x: x0 + 4, y: panel.top + 12, size: size, fill: "#333333", role: "stretch-label")
        }
    }
}

/// Estimated text widths for layout, so that labels can be wrapped, shortened or given room without a font
/// engine: ``averageAdvance`` × the font size per character, generous for Helvetica and DejaVu Sans (the fonts
/// the SVGs name and that librsvg falls back to).
enum TextMeasure {
    /// Average advance per character, in units of the font size.
    static let averageAdvance = 0.62

    /// Estimated width of `text` at font size `size`, pixels.
    static func width(_ text: String, size: Double) -> Double {
        Double(text.count) * size * averageAdvance
    }

    /// `text` when it fits in `room` pixels; else its longest prefix that fits with "…" (at least three
    /// characters); `nil` when not even that fits.
    static func shortened(_ text: String, toFit room: Double, size: Double) -> String? {
        if width(text, size: size) <= room { return text }
        let fitting = Int(room / (size * averageAdvance)) - 1
        guard fitting >= 3 else { return nil }
        return String(text.prefix(fitting)) + "…"
    }
}
