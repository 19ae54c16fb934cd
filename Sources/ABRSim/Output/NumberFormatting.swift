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

/// Appends the text of ``formatCSVNumber(_:)`` for `x` to `bytes` without building an intermediate `String`
/// for integral values (the common case for byte counts, indices and whole seconds).
public func appendCSVNumber(_ x: Double, to bytes: inout [UInt8]) {
    if x.isFinite {
        if x.magnitude < 1e15, x == x.rounded(.towardZero) {
            appendCSVInteger(Int(x), to: &bytes)
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

/// Appends the decimal digits of `value` (with a leading `-` when negative) to `bytes`.
public func appendCSVInteger(_ value: Int, to bytes: inout [UInt8]) {
    if value == 0 {
        bytes.append(UInt8(ascii: "0"))
        return
    }
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let start = bytes.count
    while magnitude > 0 {
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
        magnitude /= 10
    }
    bytes[start...].reverse()
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
