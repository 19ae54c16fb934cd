/// Decimal text to `Double` without building a `String`: the readers of traces, sizes and JSON numbers call it for
/// every number they read.
///
/// The answer is always the one `Double(String)` gives for the same text (the correctly rounded value; `nil` where
/// that is `nil`). Text of the plain form `[+-]digits[.digits][(e|E)[+-]digits]` with at most 19 significant
/// digits whose value is below 2⁵³ and whose decimal exponent is within ±22 is computed directly: both the digits
/// and the power of ten are exact doubles, so their one product or quotient is the correctly rounded value
/// (Clinger's fast path). Any other text goes through `Double(String)`.
enum DecimalText {
    /// Exact powers of ten, 10⁰ to 10²².
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The value of `bytes` as `Double(String)` reads it, or `nil`.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = fastDouble(bytes) { return value }
        guard !bytes.isEmpty else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The value of `bytes` as `Double(String)` reads it, or `nil`.
    static func double(_ bytes: ArraySlice<UInt8>) -> Double? {
        bytes.withUnsafeBufferPointer { double($0) }
    }

    /// The exact fast path: the value when `bytes` is plain decimal text it can compute exactly, else `nil`
    /// (which says nothing about the text; the caller falls back).
    @inline(__always) static func fastDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        // The digits before and after the point, into one mantissa.
        // Zeros before the first other digit are not significant (while the mantissa is 0 none has been read: a
        // mantissa that wrapped round to 0 has more than 19 significant digits counted already).
        func readDigits() -> Int {
            let first = index
            if mantissa == 0 {
                while index < count, bytes[index] == UInt8(ascii: "0") { index += 1 }
            }
            let significantStart = index
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            significant += index - significantStart
            return index - first
        }
        var digits = readDigits()
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = readDigits()
            digits += fractionDigits
        }
        guard digits > 0, significant <= 19 else { return nil }
        var exponent = 0
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponentDigits = 0
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9, exponentDigits < 4 else { break }
                exponent = exponent * 10 + Int(digit)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard index == count, mantissa <= 1 << 53 else { return nil }
        exponent -= fractionDigits
        var value = Double(mantissa)
        if mantissa == 0 {
            value = 0
        } else if exponent >= 0 {
            guard exponent <= 22 else { return nil }
            value *= powersOfTen[exponent]
        } else {
            guard exponent >= -22 else { return nil }
            value /= powersOfTen[-exponent]
        }
        return negative ? -value : value
    }
}
