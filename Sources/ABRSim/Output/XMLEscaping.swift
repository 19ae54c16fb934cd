/// `text` made safe for XML 1.0 text and attribute values (SVG plots, the HTML index, JUnit reports): `&`, `<`,
/// `>`, `"` and `'` as entities; control characters, line separators and the non-characters U+FFFE and U+FFFF
/// (which XML forbids or a reader may break on) as ``VisibleText`` escapes (`\n`, `\u{1B}`). With
/// `keepingLineBreaks`, tab and line feed stay as they are, for multi-line element text.
public func escapeXML(_ text: String, keepingLineBreaks: Bool = false) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&apos;"
        case "\t" where keepingLineBreaks, "\n" where keepingLineBreaks: escaped.unicodeScalars.append(scalar)
        case _ where VisibleText.isEscaped(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
            escaped += VisibleText.escape(scalar)
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}
