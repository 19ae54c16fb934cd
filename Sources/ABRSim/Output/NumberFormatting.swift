/// Deterministic number text for CSV output: `.` as the decimal point, no locale, no thousands separators.
///
/// - Integral values with |x| < 1e15 are printed without a fraction: `8`, `-3`, `0` (and `-0` prints `0`).
/// - Other finite values use Swift's shortest round-trip `description`: `0.1`, `1.4342768133466879`, `1e-05`,
///   `1e+15`. Reading the text back with `Double(_:)` gives the same value bit for bit.
/// - A non-finite value is a value that does not exist: it is written as nothing (an empty field), which R
///   (`read.csv`) and pandas read as a missing value. No output ever holds `NaN` or `Inf`.
///
/// Called by ``CSVWriter`` for every number field; usable on its own for other text outputs.
public func formatCSVNumber(_ x: Double) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendCSVNumber(x, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// Appends the text of ``formatCSVNumber(_:)`` for `x` to `bytes` without building an intermediate `String`.
/// Integral values are written as integers; other values of 0.001 ≤ |x| < 10¹⁴ with at most 15 significant digits
/// (most of a simulation's times, sizes and rates) are written directly (``ShortDecimal``); the rest go through
/// Swift's shortest round-trip formatting. The text is the same in every case.
public func appendCSVNumber(_ x: Double, to bytes: inout [UInt8]) {
    if x.isFinite {
        if x.magnitude < 1e15, x == x.rounded(.towardZero) {
            appendCSVInteger(Int(x), to: &bytes)
        } else if ShortDecimal.append(x, to: &bytes) {
            return
        } else {
            // Same text as `x.description`; going through `write(to:)` avoids building a `String` per number.
            var sink = ByteSink()
            swap(&sink.bytes, &bytes)
            x.write(to: &sink)
            swap(&sink.bytes, &bytes)
        }
    }
    // A non-finite value is a value that does not exist: an empty field, never `NaN` or `Inf`.
}

/// Appends the decimal digits of `value` (with a leading `-` when negative) to `bytes`, in one append.
public func appendCSVInteger(_ value: Int, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
        var magnitude = value.magnitude
        var start = 20
        repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
    }
}

/// The shortest round-trip text of a non-integral `x` with 0.001 ≤ |x| < 10¹⁴ that has at most 15 significant
/// digits, computed exactly; the same text as `x.description`.
///
/// With e integer digits (e = ⌊log₁₀|x|⌋ + 1) and K = 15 − e fraction digits, decimals 10⁻ᴷ apart are coarser
/// than the spacing of doubles near x, so at most one K-digit decimal reads back as x, and it is
/// m = round(|x|·10ᴷ) (the product's rounding error is far below ½). m < 10¹⁵ and 10ᴷ (K ≤ 18) are exact
/// doubles, so m / 10ᴷ is correctly rounded and equals x exactly when m's text reads back as x. Every shorter
/// decimal that reads back as x is m with trailing zeros cut, so m without its trailing zeros is the shortest,
/// and, being the only candidate of its length, the one `description` prints.
enum ShortDecimal {
    /// 10⁰ … 10¹⁸, exact.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    ]

    /// Appends the text of `x` and returns `true`, or returns `false` (nothing appended) when `x` is outside the
    /// range or needs more than 15 significant digits.
    @inline(__always) static func append(_ x: Double, to bytes: inout [UInt8]) -> Bool {
        let magnitude = x.magnitude
        guard magnitude >= 1e-3, magnitude < 1e14 else { return false }
        // e: the number of integer digits (negative for leading fraction zeros), from exact comparisons.
        var e = -2
        while e < 14, magnitude >= powersOfTen[e + 3] / 1000 { e += 1 }
        let k = 15 - e
        let scaled = (magnitude * powersOfTen[k]).rounded()
        guard scaled / powersOfTen[k] == magnitude else { return false }
        var digits = UInt64(scaled)
        var fractionDigits = k
        while fractionDigits > 0, digits % 10 == 0 {
            digits /= 10
            fractionDigits -= 1
        }
        guard fractionDigits > 0 else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var start = 40
            var written = 0
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits % 10)
                digits /= 10
                written += 1
                if written == fractionDigits {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
            } while digits > 0 || written < fractionDigits
            if written == fractionDigits {
                // |x| < 1: a zero before the point.
                start -= 1
                buffer[start] = UInt8(ascii: "0")
            }
            if x < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<40]))
        }
        return true
    }
}

/// A text stream appending to a byte array. `Double.write(to:)` hands its digits to `_writeASCII` (a customization
/// point of `TextOutputStream`) as raw bytes; should that hook ever go away, `write(_:)` gives the same result,
/// only slower.
private struct ByteSink: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
