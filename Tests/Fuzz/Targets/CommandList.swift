@testable import ABRSim

/// libFuzzer entry: the bytes (decoded as UTF-8, repaired) as the value of a comma-list option, split by
/// ``ListArgument/items(_:location:)`` as `compare --policies` and `sweep --policies` do, then each item parsed as a
/// policy spec and expanded as a sweep grid. Splitting either refuses the list with an ``InputError`` or returns
/// non-empty, trimmed items with balanced parentheses, which together hold every non-separator character.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    expectInputErrorsOnly {
        let items = try ListArgument.items(text, location: "--policies")
        precondition(!items.isEmpty, "fuzz: an accepted list without items")
        for item in items {
            precondition(!item.isEmpty && item.trimmingWhitespace() == item, "fuzz: item '\(item)' not trimmed")
            var depth = 0
            for character in item {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                precondition(depth >= 0, "fuzz: item '\(item)' closes more than it opens")
            }
            precondition(depth == 0, "fuzz: item '\(item)' leaves a parenthesis open")
        }
        for item in items {
            let spec = try PolicySpec.parse(item, source: "--policies")
            let expanded = try PolicyGrid.expand(spec.label, source: "--policies")
            precondition(!expanded.isEmpty, "fuzz: a grid of nothing")
        }
    }
    return 0
}
