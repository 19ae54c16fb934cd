/// Text from outside ABRSim (a child's reply or stderr, a name, a path) made safe to write on one line of any
/// output: messages, CSV fields, HTML, SVG and JUnit XML.
///
/// Control characters (C0, DEL, C1), the Unicode line and paragraph separators (U+2028, U+2029) and the byte-order
/// mark are shown as escapes (`\n`, `\r`, `\t`, `\u{0}`, `\u{2028}`); bytes that are not UTF-8 as `\x{FF}`. Nothing
/// else changes, so ordinary text (accents, CJK, emoji) reads as written. Used by ``InputError``, the external
/// policy's failure reasons, ``escapeXML(_:keepingLineBreaks:)`` and ``JUnitReport``.
public enum VisibleText {
    /// Whether `scalar` is shown escaped.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0xFEFF
    }

    /// The escape shown for `scalar`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `text` with every escaped scalar (see the type) shown as its escape.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `bytes` decoded as UTF-8, each byte that is not part of a valid sequence shown as `\x{HH}`, then escaped as
    /// ``escaping(_:)`` does. For what a child process wrote.
    public static func escaping(bytes: some Collection<UInt8>) -> String {
        let all = Array(bytes)
        var result = ""
        var index = 0
        while index < all.count {
            let length = sequenceLength(all, at: index)
            if length == 0 {
                result += "\\x{" + String(all[index], radix: 16, uppercase: true) + "}"
                index += 1
            } else {
                result += escaping(String(decoding: all[index..<index + length], as: UTF8.self))
                index += length
            }
        }
        return result
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 when the byte there does not start one.
    static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var lowest: UInt8 = 0x80
        var highest: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            highest = 0x9F
        case 0xF0:
            length = 4
            lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            highest = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let (low, high) = offset == 1 ? (lowest, highest) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low, byte <= high else { return 0 }
        }
        return length
    }
}
