import Foundation
import Testing

@testable import ABRSim

/// Python's `repr`, `%d`, `%f` and `round`, checked against what Python 3.11 prints for the same doubles.
@Suite("numbers formatted as Python does")
struct SabrePythonFormatTests {
    @Test("repr of a double gives Python's shortest round-trip text")
    func reprIsPythonsShortestRoundTrip() {
        let cases: [(Double, String)] = [
            (30000, "30000.0"), (60000, "60000.0"), (1e16, "1e+16"), (1_234_567_890_123_456, "1234567890123456.0"),
            (0.0001, "0.0001"), (0.00001, "1e-05"), (0.1 + 0.2, "0.30000000000000004"), (1.5e-7, "1.5e-07"),
            (12345.678, "12345.678"), (2.5e20, "2.5e+20"), (-0.5, "-0.5"), (25000.5, "25000.5"), (1e22, "1e+22"),
            (123_456_789_012_345_680, "1.2345678901234568e+17"), (0, "0.0"),
        ]
        for (value, text) in cases { #expect(PythonFormat.repr(value) == text, "\(value)") }
    }

    @Test("%d truncates, %f rounds exactly to six decimals, and round ties to even, as Python does")
    func percentDTruncatesAndPercentFRoundsExactly() {
        #expect(PythonFormat.percentD(2.9) == "2")
        #expect(PythonFormat.percentD(-2.9) == "-2")
        #expect(PythonFormat.percentD(-0.3) == "0")
        #expect(PythonFormat.percentD(1e20) == "100000000000000000000")
        #expect(PythonFormat.percentF(0.5) == "0.500000")
        #expect(PythonFormat.percentF(2.0000005) == "2.000001")
        #expect(PythonFormat.percentF(1e-7) == "0.000000")
        #expect(PythonFormat.percentF(123456.7890125) == "123456.789012")
        #expect(PythonFormat.percentF(-0.0000004) == "-0.000000")
        #expect(PythonFormat.round(2.5) == 2 && PythonFormat.round(3.5) == 4 && PythonFormat.round(-0.5) == 0)
    }

    @Test("%f gives C's snprintf text for doubles of every magnitude, halfway cases and signed zeros included")
    func percentFMatchesSnprintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.0000005, -0.0000005, 0.0000015, 0.0000025, 1e-300, .leastNonzeroMagnitude, 999_999.9999995,
        ]
        values += [
            1e12 - 1, 1e12, -1e12, 999_999_999_999.9999, 2.5e-7, 1.0000005, 123.4567895, .greatestFiniteMagnitude,
            0.5e-6 + 1e-22,
        ]
        for _ in 0..<100_000 {
            let bits = Double(bitPattern: generator.next() & 0xC3FF_FFFF_FFFF_FFFF)  // magnitudes up to 2^1024
            let scaled = Double.random(in: -1e7...1e7, using: &generator) * pow(10, Double(Int.random(in: -12...8)))
            values += [bits, scaled, (scaled * 1e6).rounded() / 1e6 + 5e-7]
        }
        for value in values where value.isFinite {
            #expect(PythonFormat.percentF(value) == PythonFormat.printf("%f", value), "\(value.bitPattern)")
        }
    }
}
