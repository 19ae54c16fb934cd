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
/// Integral values are written as integers; other values of 0.001 ≤ |x| < 10¹⁴ (a simulation's times, sizes, rates
/// and buffer levels) are written directly (``ShortDecimal``); the rest go through Swift's shortest round-trip
/// formatting. The text is the same in every case.
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

/// The shortest round-trip text of a non-integral `x` with 0.001 ≤ |x| < 10¹⁴, computed exactly; the same text as
/// `x.description`. Called by ``appendCSVNumber(_:to:)``. Up to 15 significant digits:
///
/// With e integer digits (e = ⌊log₁₀|x|⌋ + 1) and K = 15 − e fraction digits, decimals 10⁻ᴷ apart are coarser
/// than the spacing of doubles near x, so at most one K-digit decimal reads back as x, and it is
/// m = round(|x|·10ᴷ) (the product's rounding error is far below ½). m < 10¹⁵ and 10ᴷ (K ≤ 18) are exact
/// doubles, so m / 10ᴷ is correctly rounded and equals x exactly when m's text reads back as x. Every shorter
/// decimal that reads back as x is m with trailing zeros cut, so m without its trailing zeros is the shortest,
/// and, being the only candidate of its length, the one `description` prints.
enum ShortDecimal {
    /// "00", "01", … "99": the ASCII digits of each pair, for writing two digits per division.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { (pair: Int) -> [UInt8] in
        [UInt8(ascii: "0") + UInt8(pair / 10), UInt8(ascii: "0") + UInt8(pair % 10)]
    }

    /// 10⁰ … 10¹⁸, exact.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    ]

    /// Appends the text of `x` and returns `true`, or returns `false` (nothing appended) when `x` is outside the
    /// range. Values of up to 15 significant digits take the floating-point path above, the others
    /// ``longDigits(_:integerDigits:)``.
    @inline(__always) static func append(_ x: Double, to bytes: inout [UInt8]) -> Bool {
        let magnitude = x.magnitude
        guard magnitude >= 1e-3, magnitude < 1e14 else { return false }
        // e: the number of integer digits (negative for leading fraction zeros), from exact comparisons.
        var e = -2
        while e < 14, magnitude >= powersOfTen[e + 3] / 1000 { e += 1 }
        let k = 15 - e
        let scaled = (magnitude * powersOfTen[k]).rounded()
        var digits: UInt64
        var fractionDigits: Int
        if scaled / powersOfTen[k] == magnitude {
            digits = UInt64(scaled)
            fractionDigits = k
        } else if let long = longDigits(magnitude, integerDigits: e) {
            (digits, fractionDigits) = long
        } else {
            return false
        }
        while fractionDigits > 0, digits % 10 == 0 {
            digits /= 10
            fractionDigits -= 1
        }
        guard fractionDigits > 0 else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            // Right to left, two digits at a time: the fraction's digits, the point, the integer part (at least
            // one digit), the sign.
            var start = 40
            var remaining = fractionDigits
            while remaining >= 2 {
                let pair = Int(digits % 100)
                digits /= 100
                start -= 2
                buffer[start] = digitPairs[2 * pair]
                buffer[start + 1] = digitPairs[2 * pair + 1]
                remaining -= 2
            }
            if remaining == 1 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits % 10)
                digits /= 10
            }
            start -= 1
            buffer[start] = UInt8(ascii: ".")
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits % 10)
                digits /= 10
            } while digits > 0
            if x < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<40]))
        }
        return true
    }
}

extension ShortDecimal {
    /// 10⁰ … 10¹⁹, exact.
    private static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// The digits and the fraction-digit count of the shortest text of `magnitude` (0.001 ≤ magnitude < 10¹⁴, not
    /// integral, with `integerDigits` digits before the point) when it needs 16 or 17 significant digits, in exact
    /// integer arithmetic; `nil` otherwise (the caller falls back to `description`).
    ///
    /// magnitude = f·2⁻ˢ exactly (f the 53-bit significand, 6 ≤ s ≤ 62 in this range). For n = 16, then 17, with
    /// K = n − `integerDigits` fraction digits, c = round(f·10ᴷ / 2ˢ) is the n-digit decimal nearest the value,
    /// so if any n-digit decimal reads back as the value, c does; it does when |c·2ˢ − f·10ᴷ| is below half the
    /// spacing of doubles there (10ᴷ/2 in these units, 10ᴷ/4 below a power of two). The first n for which c reads
    /// back is the shortest length, and c is the nearest decimal of it: what `description` prints. No value in
    /// the range is a tie at 17 digits or fewer (its exact expansion has more than 19 significant digits), so the
    /// roundings need no tie rule; ties round to even all the same.
    static func longDigits(_ magnitude: Double, integerDigits e: Int) -> (digits: UInt64, fractionDigits: Int)? {
        guard magnitude.isNormal else { return nil }
        let f = UInt128(magnitude.significandBitPattern | (1 << 52))
        let s = 1075 - Int(magnitude.bitPattern >> 52 & 0x7FF)
        guard s >= 1, s <= 64 else { return nil }
        let below = UInt128(1) << s - 1
        let half = UInt128(1) << (s - 1)
        let isPowerOfTwo = magnitude.significandBitPattern == 0
        for n in 16...17 {
            let k = n - e
            guard k >= 0, k <= 19 else { return nil }
            let power = UInt128(integerPowersOfTen[k])
            let scaled = f * power
            var c = scaled >> s
            let remainder = scaled & below
            if remainder > half || (remainder == half && c & 1 == 1) { c += 1 }
            let back = c << s
            let reads: Bool
            if back >= scaled {
                reads = 2 * (back - scaled) < power
            } else {
                reads = (isPowerOfTwo ? 4 : 2) * (scaled - back) < power
            }
            if reads { return (UInt64(c), k) }
        }
        return nil
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
