#if canImport(Glibc)
    import Glibc
#endif

/// Writes `text` to standard output, unbuffered, so it interleaves correctly with stderr.
func writeStandardOutput(_ text: String) { writeAll(text, to: 1) }

/// Writes `text` to standard error.
func writeStandardError(_ text: String) { writeAll(text, to: 2) }

private func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

extension String {
    /// The string padded with spaces (or cut) to `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }

    /// The string right-aligned in `length` characters.
    func leftPadding(toLength length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}

/// `lines` (a header and rows of cells) as text columns two spaces apart: the first column padded on the right,
/// the others on the left, one line each.
func alignedColumns(_ lines: [[String]]) -> String {
    let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
    return lines.map { row in
        row.enumerated().map { column, cell in
            column == 0 ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
        }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
}

/// A number with `digits` decimals, for tables meant for people (CSV keeps full precision).
func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "-" }
    guard x.magnitude < 1e15 else { return String(x) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (x * scale).rounded() / scale
    var text = String(Int64(rounded.magnitude))
    if digits > 0 {
        let fraction = Int64(((rounded.magnitude - Double(Int64(rounded.magnitude))) * scale).rounded())
        let digitsText = String(fraction)
        text += "." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
    }
    return (rounded < 0 ? "-" : "") + text
}
