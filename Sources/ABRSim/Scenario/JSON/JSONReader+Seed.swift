extension JSONReader {
    /// The largest integer a JSON number (a `Double`) tells apart from its neighbours: 2⁵³ − 1 (2⁵³ + 1 reads as
    /// 2⁵³). A larger seed is given as a string.
    public static let largestExactInteger: Double = 9_007_199_254_740_991

    /// A 64-bit seed: a whole number from 0 to 2⁵³ − 1 (larger numbers are not exact in JSON and are refused, since
    /// two different seeds would read the same), or a string of decimal digits from "0" to "18446744073709551615".
    public func seed() throws -> UInt64 {
        if case .string(let text) = value {
            guard let seed = parseSeed(text) else {
                throw error(.expected("a seed: decimal digits from 0 to 18446744073709551615", found: "'\(text)'"))
            }
            return seed
        }
        guard case .number(let number) = value else { throw typeError(expected: "a seed (an integer or a string)") }
        guard number >= 0, number.rounded() == number, number <= Self.largestExactInteger else {
            throw error(
                .outOfRange(
                    what: "a seed", bound: "from 0 to 9007199254740991 (give larger seeds as a string of digits)",
                    found: JSONPath.format(number)))
        }
        return UInt64(number)
    }
}

/// `text` as a seed: decimal digits only (no sign, no spaces), at most 2⁶⁴ − 1; `nil` otherwise. The command
/// line's `--seed` and the JSON string form read seeds with this.
public func parseSeed(_ text: String) -> UInt64? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
        return nil
    }
    return UInt64(text)
}
