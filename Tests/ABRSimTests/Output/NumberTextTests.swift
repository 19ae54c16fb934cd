import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// The direct number paths (``ShortDecimal`` for writing, ``DecimalText`` for reading) against Swift's own
/// `description` and `Double(String)`, on values a run writes and on values chosen to be hard.
@Suite("numbers written and read without String") struct NumberTextTests {
    /// A fixed stream of test values.
    typealias Stream = NetworkTestSupport.SplitMix

    func written(_ x: Double) -> String {
        var bytes: [UInt8] = []
        appendCSVNumber(x, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func expected(_ x: Double) -> String {
        if x.magnitude < 1e15, x == x.rounded(.towardZero) { return String(Int(x)) }
        return x.description
    }

    @Test("1.4 M short, full-precision and neighbouring values are written as Swift's description writes them")
    func shortDecimalsAreTheTextOfDescription() {
        var stream = Stream(state: 21)
        var values: [Double] = [
            0.001, 0.0010000000000000002, 0.009999999999999998, 0.01, 0.1, 0.30000000000000004, 0.5, 1.5,
            99_999_999_999_999.9, 99_999_999_999_999.98, 12_345_678_901_234.5, 1e14 - 0.5, 0.1 + 0.2, 1.0 / 3,
            2.0 / 3, 4.35, 2.675, 1.005, 1234.5678, 0.000999999999999, 9.999999999999999, 9.999999999999998,
        ]
        for _ in 0..<200_000 {
            // Short decimals (times and sizes with a few digits), full-precision values, and neighbours.
            let digits = Int(stream.next() % 15) + 1
            let scale = pow(10.0, Double(Int(stream.next() % 18)))
            let mantissa = Double(stream.next() % UInt64(pow(10.0, Double(digits))))
            let short = mantissa / scale
            let full = stream.uniform() * pow(10.0, Double(Int(stream.next() % 18)) - 3)
            values += [short, -short, short.nextUp, short.nextDown, full, -full]
        }
        // Every binade of the direct range, at random significands: mostly 16- and 17-digit values.
        for _ in 0..<100_000 {
            let exponent = UInt64(Int(stream.next() % 57) - 10 + 1023)
            let value = Double(bitPattern: exponent << 52 | stream.next() >> 12)
            values += [value, -value]
        }
        for exponent in -3...14 {
            let power = pow(10.0, Double(exponent))
            values += [power, power.nextUp, power.nextDown, power * 1.5, -power.nextDown]
        }
        var mismatches: [String] = []
        for value in values where written(value) != expected(value) {
            mismatches.append("\(expected(value)) written as \(written(value))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("50,000 random finite doubles written as CSV numbers read back to the same value")
    func writtenNumbersReadBackToTheirValue() {
        var stream = Stream(state: 7)
        for _ in 0..<50_000 {
            let value = Double(bitPattern: stream.next())
            guard value.isFinite else { continue }
            #expect(Double(written(value)) == value)
        }
    }

    func parsed(_ text: String) -> Double? {
        DecimalText.double(Array(text.utf8)[...])
    }

    @Test("300,000 decimal texts, malformed ones included, read to the bits Double(String) gives, or to nil")
    func decimalTextReadsAsDoubleOfString() {
        var stream = Stream(state: 3)
        var texts = [
            "0", "-0", "+0", "1", "1.", ".5", "-.5", "00012", "1e22", "1e23", "9007199254740993", "9007199254740992",
            "9007199254740991.5", "0.1", "4.35", "1e-22", "1e-23", "123456789012345678901", "1.7976931348623157e308",
            "2e308", "5e-324", "1e", "1e+", "-", "", "1.2.3", " 1", "1 ", "0x10", "inf", "nan", "1e0001", "1E5", "1e-5",
            "0.000000000000000000000000001", "18446744073709551615", "18446744073709551616",
        ]
        for _ in 0..<100_000 {
            let integer = stream.next() % 100_000_000
            let fraction = stream.next() % 1_000_000_000
            let exponent = Int(stream.next() % 60) - 30
            texts.append("\(integer).\(fraction)")
            texts.append("-\(integer % 1000).\(fraction)e\(exponent)")
            texts.append("\(stream.next())")
        }
        var mismatches: [String] = []
        for text in texts {
            let mine = parsed(text)
            let swift = Double(text)
            let same = mine.map { value in swift.map { $0.bitPattern == value.bitPattern } ?? false } ?? (swift == nil)
            if !same { mismatches.append("\(text): \(String(describing: mine)) against \(String(describing: swift))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
