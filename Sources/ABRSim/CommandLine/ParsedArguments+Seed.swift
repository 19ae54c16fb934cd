extension ParsedArguments {
    /// The value of option `name` as a 64-bit seed (decimal digits, 0 to 2⁶⁴ − 1), `nil` when absent; anything
    /// else is an error at `--name`.
    public func seed(_ name: String = "seed") throws -> UInt64? {
        guard let text = value(name) else { return nil }
        guard let seed = parseSeed(text) else {
            throw InputError(
                .option("--\(name)"), .expected("a seed from 0 to 18446744073709551615", found: "'\(text)'"))
        }
        return seed
    }
}
