#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Python's number formatting, as sabre's `print` calls use it, so that the sabre profile's text is sabre's text.
///
/// - ``percentD(_:)`` is `'%d' % x`: the integer part of `x` (truncation towards zero, as `int(x)`), all digits.
/// - ``percentF(_:)`` is `'%f' % x`: six decimals, correctly rounded from the exact binary value.
/// - ``repr(_:)`` is `repr(x)` for a float: the shortest digits that round-trip, in fixed notation with a `.0` for
///   integral values when the decimal exponent is in −4 … 15, otherwise `d.ddde±XX`.
/// - ``round(_:)`` is `round(x)`: the nearest integer, ties to even.
///
/// Called by ``SabreSimulation`` (its verbose log and its metric lines) and the `abrsim sabre` command.
public enum PythonFormat {
    /// `'%d' % x` for a finite `x`.
    public static func percentD(_ x: Double) -> String {
        let whole = x.rounded(.towardZero)
        if whole.magnitude < 9e18 { return String(Int64(whole)) }
        return printf("%.0f", whole)
    }

    /// `'%d' % n`.
    public static func percentD(_ n: Int) -> String { String(n) }

    /// `'%f' % x`. Below 10¹² in magnitude from the exact binary value in integers (x = m·2ᵉ, so 10⁶·x is
    /// m·10⁶·2ᵉ, rounded half to even as glibc rounds it), else by `snprintf`.
    public static func percentF(_ x: Double) -> String {
        guard x.isFinite, x.magnitude < 1e12 else { return printf("%f", x) }
        var millionths: UInt64 = 0
        // Subnormals (and zero) are far below half a millionth.
        if x.isNormal {
            let exponent = Int(x.exponent) - Double.significandBitCount
            let significand = x.significandBitPattern | 1 << UInt64(Double.significandBitCount)
            let exact = UInt128(significand) * 1_000_000
            if exponent >= 0 {
                millionths = UInt64(exact << exponent)
            } else if exponent > -128 {
                let shift = -exponent
                var quotient = exact >> shift
                let remainder = exact & ((1 << shift) - 1)
                let half = UInt128(1) << (shift - 1)
                if remainder > half || (remainder == half && quotient & 1 == 1) { quotient += 1 }
                millionths = UInt64(quotient)
            }  // else below 2⁻¹²⁸ × 2⁷³: less than half a millionth
        }
        let fraction = String(millionths % 1_000_000)
        return (x.sign == .minus ? "-" : "") + String(millionths / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `round(x)`, as a Double holding an integer.
    public static func round(_ x: Double) -> Double { x.rounded(.toNearestOrEven) }

    /// `repr(x)` for a float `x` (Python 3's `float_repr_style = 'short'`).
    public static func repr(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        if x == 0 { return x.sign == .minus ? "-0.0" : "0.0" }
        // Swift's description holds the same shortest round-trip digits; only the layout differs.
        var text = x.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...])!
            text = String(text[..<e])
        }
        var digits = ""
        var pointPosition: Int? = nil
        for character in text {
            if character == "." { pointPosition = digits.count } else { digits.append(character) }
        }
        var decimalPoint = (pointPosition ?? digits.count) + exponent
        // Strip leading zeros (each moves the point left) and trailing zeros.
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            decimalPoint -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let sign = x < 0 ? "-" : ""
        // The value is 0.DIGITS × 10^decimalPoint; Python's 'r' format goes exponential outside −4 < dp ≤ 16.
        if decimalPoint > -4 && decimalPoint <= 16 {
            if decimalPoint <= 0 {
                return sign + "0." + String(repeating: "0", count: -decimalPoint) + digits
            }
            if decimalPoint >= digits.count {
                return sign + digits + String(repeating: "0", count: decimalPoint - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: decimalPoint)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let mantissa =
            digits.count == 1 ? digits : String(digits.first!) + "." + digits.dropFirst()
        let power = decimalPoint - 1
        let powerText = power.magnitude < 10 ? "0\(power.magnitude)" : "\(power.magnitude)"
        return sign + mantissa + "e" + (power < 0 ? "-" : "+") + powerText
    }

    /// C's `snprintf(format, x)` (glibc's is correctly rounded, as Python's formatting is).
    static func printf(_ format: String, _ x: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = withVaList([x]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 512, format, arguments) }
        }
        return String(decoding: buffer[0..<Int(max(0, min(count, 511)))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
