/// Writing a string as a JSON string literal (RFC 8259): the one quoter for messages that quote a key or name and
/// for the JSON lines sent to external policies.
///
/// `"` and `\` are escaped, LF, CR and tab as `\n`, `\r`, `\t`, other control characters below U+0020 as
/// `\u00XX` with upper-case hex; everything else (DEL, non-ASCII) is written as it is, in UTF-8.
public enum JSONString {
    /// `text` in double quotes, escaped as described on the type.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
