/// A small SVG 1.1 writer: shapes, paths and text appended in order to one `<svg>` element, with every number
/// written by ``svgNumber(_:)`` (at most two decimals, no locale) and every text escaped, so the same drawing
/// gives byte-identical files.
///
/// Used by the plot types (``TimelinePlot``, ``CDFPlot``, ``BarPlot``); coordinates are pixels, origin at the
/// top left, y growing downwards. The drawing is kept as UTF-8 bytes, appended once (no intermediate strings per
/// element), so a large drawing costs its size and no more.
public struct SVGDocument: Sendable {
    /// Width of the drawing in pixels.
    public let width: Double
    /// Height of the drawing in pixels.
    public let height: Double
    private var body: [UInt8] = []

    /// An empty drawing of `width` × `height` pixels with a white background.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
        rect(x: 0, y: 0, width: width, height: height, fill: "#ffffff")
    }

    /// A rectangle; `stroke` `nil` draws no outline; `role` (when given) is written as its `class`, naming what it
    /// marks (tests and style sheets find marks by it).
    public mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1,
        stroke: String? = nil, role: String? = nil
    ) {
        append("<rect")
        appendRole(role)
        append(" x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" width=\"\(svgNumber(max(width, 0)))\"")
        append(" height=\"\(svgNumber(max(height, 0)))\" fill=\"\(fill)\"")
        if opacity < 1 { append(" fill-opacity=\"\(svgNumber(opacity))\"") }
        if let stroke { append(" stroke=\"\(stroke)\"") }
        append("/>\n")
    }

    /// A straight line; `role` as for ``rect(x:y:width:height:fill:opacity:stroke:role:)``.
    public mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dashed: Bool = false,
        role: String? = nil
    ) {
        append("<line")
        appendRole(role)
        append(" x1=\"\(svgNumber(x1))\" y1=\"\(svgNumber(y1))\" x2=\"\(svgNumber(x2))\"")
        append(" y2=\"\(svgNumber(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(svgNumber(width))\"")
        if dashed { append(" stroke-dasharray=\"4 3\"") }
        append("/>\n")
    }

    /// An open polyline through `points` (nothing for fewer than two points).
    public mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width: Double = 1.5) {
        guard points.count >= 2 else { return }
        append("<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(svgNumber(width))\"")
        append(" stroke-linejoin=\"round\" points=\"")
        appendPoints(points)
        append("\"/>\n")
    }

    /// A closed, filled polygon through `points`.
    public mutating func polygon(_ points: [(x: Double, y: Double)], fill: String, opacity: Double = 1) {
        guard points.count >= 3 else { return }
        append("<polygon fill=\"\(fill)\"")
        if opacity < 1 { append(" fill-opacity=\"\(svgNumber(opacity))\"") }
        append(" stroke=\"none\" points=\"")
        appendPoints(points)
        append("\"/>\n")
    }

    /// Text at (`x`, `y`) (the baseline); `anchor` is `start`, `middle` or `end`; `rotation` in degrees about
    /// the anchor point; `role` as for ``rect(x:y:width:height:fill:opacity:stroke:role:)``.
    public mutating func text(
        _ string: String, x: Double, y: Double, size: Double = 13, anchor: String = "start", fill: String = "#222222",
        bold: Bool = false, rotation: Double = 0, role: String? = nil
    ) {
        append("<text")
        appendRole(role)
        append(" x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" font-size=\"\(svgNumber(size))\"")
        if anchor != "start" { append(" text-anchor=\"\(anchor)\"") }
        if bold { append(" font-weight=\"bold\"") }
        if rotation != 0 {
            append(" transform=\"rotate(\(svgNumber(rotation)) \(svgNumber(x)) \(svgNumber(y)))\"")
        }
        append(" fill=\"\(fill)\">\(escapeXML(string))</text>\n")
    }

    /// Size of the drawing's elements in bytes (without the enclosing `<svg>` tags), for reserving output space.
    public var byteCount: Int { body.count }

    /// The document: an `<svg>` element with the drawing (no XML declaration, so it can also be inlined in HTML).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The document as UTF-8 bytes, for an output file.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 300)
        write(into: &bytes)
        return bytes
    }

    /// Appends the document's UTF-8 bytes (the same as ``bytes``) to `output`; ``HTMLIndex`` inlines drawings
    /// this way without copying them through a string.
    public func write(into output: inout [UInt8]) {
        let header =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(svgNumber(width))\""
            + " height=\"\(svgNumber(height))\" viewBox=\"0 0 \(svgNumber(width)) \(svgNumber(height))\""
            + " font-family=\"Helvetica, Arial, sans-serif\">\n"
        output.append(contentsOf: header.utf8)
        output.append(contentsOf: body)
        output.append(contentsOf: "</svg>\n".utf8)
    }

    private mutating func appendRole(_ role: String?) {
        if let role { append(" class=\"\(escapeXML(role))\"") }
    }

    private mutating func append(_ string: String) {
        body.append(contentsOf: string.utf8)
    }

    private mutating func appendPoints(_ points: [(x: Double, y: Double)]) {
        var first = true
        for point in points {
            if !first { body.append(UInt8(ascii: " ")) }
            first = false
            appendSVGNumber(point.x, to: &body)
            body.append(UInt8(ascii: ","))
            appendSVGNumber(point.y, to: &body)
        }
    }
}

/// Appends ``svgNumber(_:)`` of `x` to `output` as UTF-8, without building a string in the common case (a
/// finite value below 1e15 in magnitude); the bytes are the same as `svgNumber(x).utf8`. Used for the many
/// coordinates of polylines and polygons.
func appendSVGNumber(_ x: Double, to output: inout [UInt8]) {
    guard x.isFinite, x.magnitude < 1e15 else {
        output.append(contentsOf: svgNumber(x).utf8)
        return
    }
    let units = Int64((x * 100).rounded())
    let magnitude = units.magnitude
    if units < 0 { output.append(UInt8(ascii: "-")) }
    appendDecimalDigits(magnitude / 100, to: &output)
    let fraction = magnitude % 100
    guard fraction != 0 else { return }
    output.append(UInt8(ascii: "."))
    output.append(UInt8(ascii: "0") + UInt8(fraction / 10))
    if fraction % 10 != 0 { output.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
}

/// Appends the decimal digits of `value` (no sign, no leading zeros; `0` for zero).
private func appendDecimalDigits(_ value: UInt64, to output: inout [UInt8]) {
    var divisor: UInt64 = 1
    while value / divisor >= 10 { divisor *= 10 }
    var rest = value
    while divisor > 0 {
        output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
        rest %= divisor
        divisor /= 10
    }
}

/// `x` rounded to two decimals, without trailing zeros or a locale: `12`, `12.5`, `-0.25`; `-0` and non-finite
/// values (which a drawing should never hold) print `0`. The number format of every SVG and HTML output.
public func svgNumber(_ x: Double) -> String {
    fixedDecimals(x, 2, trimZeros: true)
}

/// `x` with exactly `digits` decimals (or fewer when `trimZeros`), deterministic and locale-free; used for SVG
/// coordinates and for tick and table labels.
public func fixedDecimals(_ x: Double, _ digits: Int, trimZeros: Bool = false) -> String {
    guard x.isFinite else { return "0" }
    guard x.magnitude < 1e15 else { return formatCSVNumber(x) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (x * scale).rounded()
    guard scaled.magnitude < 9e18 else { return formatCSVNumber(x) }
    let units = Int64(scaled)
    let magnitude = units.magnitude
    let whole = magnitude / UInt64(scale)
    var fraction = digits > 0 ? String(magnitude % UInt64(scale)) : ""
    fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
    if trimZeros {
        while fraction.hasSuffix("0") { fraction.removeLast() }
    }
    let sign = units < 0 ? "-" : ""
    return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
}
