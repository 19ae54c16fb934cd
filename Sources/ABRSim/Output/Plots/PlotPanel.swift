/// One rectangular plotting area of an SVG: its pixel frame, its x and y scales, and the drawing of its grid,
/// tick labels, axis titles and frame.
///
/// The plot types stack panels that share an x scale (the session timeline) or draw a single one (CDFs, bars).
public struct PlotPanel: Sendable {
    /// Left edge, pixels.
    public var left: Double
    /// Top edge, pixels.
    public var top: Double
    /// Width, pixels.
    public var width: Double
    /// Height, pixels.
    public var height: Double
    /// Ticks of the x axis.
    public var xScale: NiceScale
    /// Ticks of the y axis (when it is linear).
    public var yScale: NiceScale
    /// A logarithmic y axis instead of ``yScale`` (`nil`: linear).
    public var yLog: LogScale?

    /// A panel at (`left`, `top`) of `width` × `height` pixels over the given scales (`yLog` replaces `yScale`).
    public init(
        left: Double, top: Double, width: Double, height: Double, xScale: NiceScale, yScale: NiceScale,
        yLog: LogScale? = nil
    ) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.xScale = xScale
        self.yScale = yScale
        self.yLog = yLog
    }

    /// Bottom edge, pixels.
    public var bottom: Double { top + height }
    /// Right edge, pixels.
    public var right: Double { left + width }
    /// Data x to pixels.
    public var x: LinearMap {
        LinearMap(domainLower: xScale.lower, domainUpper: xScale.upper, pixelStart: left, pixelEnd: right)
    }
    /// Data y to pixels.
    public var y: AxisMap {
        if let yLog {
            return AxisMap(
                domainLower: yLog.lower, domainUpper: yLog.upper, pixelStart: bottom, pixelEnd: top, logarithmic: true)
        }
        return AxisMap(
            domainLower: yScale.lower, domainUpper: yScale.upper, pixelStart: bottom, pixelEnd: top, logarithmic: false)
    }
    /// The y tick values and their labels (of ``yLog`` when set, else of ``yScale``).
    public var yTicks: [(value: Double, label: String)] {
        if let yLog { return yLog.ticks.map { ($0, yLog.label($0)) } }
        return yScale.ticks.map { ($0, yScale.label($0)) }
    }

    /// Draws the horizontal and vertical grid lines and the y tick labels; x tick labels when `xLabels`; the
    /// title above the panel's top left corner; `yTitle` rotated along the left edge.
    public func drawAxes(
        _ svg: inout SVGDocument, title: String, yTitle: String? = nil, xLabels: Bool, xTitle: String? = nil
    ) {
        let yMap = y
        let xMap = x
        for tick in yTicks {
            let py = yMap(tick.value)
            svg.line(x1: left, y1: py, x2: right, y2: py, stroke: "#e3e3e3")
            svg.text(tick.label, x: left - 6, y: py + 4, size: height < 80 ? 10 : 12, anchor: "end")
        }
        for tick in xScale.ticks {
            let px = xMap(tick)
            svg.line(x1: px, y1: top, x2: px, y2: bottom, stroke: "#eeeeee")
            if xLabels {
                svg.line(x1: px, y1: bottom, x2: px, y2: bottom + 4, stroke: "#555555")
                svg.text(xScale.label(tick), x: px, y: bottom + 17, size: 12, anchor: "middle")
            }
        }
        svg.text(title, x: left, y: top - 7, size: 13, bold: true)
        if let yTitle {
            svg.text(yTitle, x: left - 48, y: top + height / 2, size: 12, anchor: "middle", rotation: -90)
        }
        if let xTitle, xLabels {
            svg.text(xTitle, x: left + width / 2, y: bottom + 34, size: 12, anchor: "middle")
        }
    }

    /// Draws the panel's frame (call last, so it sits above the data).
    public func drawFrame(_ svg: inout SVGDocument) {
        svg.line(x1: left, y1: bottom, x2: right, y2: bottom, stroke: "#555555")
        svg.line(x1: left, y1: top, x2: left, y2: bottom, stroke: "#555555")
    }
}

/// A legend: coloured swatches with labels in a column, starting at (`x`, `y`).
public struct PlotLegend: Sendable {
    /// One entry: a label and its colour; `isLine` draws a short line instead of a filled box.
    public struct Entry: Sendable {
        /// The text.
        public var label: String
        /// The colour.
        public var colour: String
        /// A line swatch (a series) rather than a box (an area or a state).
        public var isLine: Bool
        /// Opacity of a box swatch.
        public var opacity: Double

        /// An entry.
        public init(_ label: String, colour: String, isLine: Bool = true, opacity: Double = 1) {
            self.label = label
            self.colour = colour
            self.isLine = isLine
            self.opacity = opacity
        }
    }

    /// Draws `entries` downwards from (`x`, `y`), 18 pixels apart.
    public static func draw(_ svg: inout SVGDocument, entries: [Entry], x: Double, y: Double) {
        for (index, entry) in entries.enumerated() {
            let rowY = y + Double(index) * 18
            if entry.isLine {
                svg.line(x1: x, y1: rowY - 4, x2: x + 18, y2: rowY - 4, stroke: entry.colour, width: 3)
            } else {
                svg.rect(x: x, y: rowY - 10, width: 18, height: 11, fill: entry.colour, opacity: entry.opacity)
            }
            svg.text(entry.label, x: x + 24, y: rowY, size: 12)
        }
    }
}
