/// Parameter grids in policy specs: `bba(reservoir=5..15:5)` stands for `bba(reservoir=5)`, `bba(reservoir=10)`
/// and `bba(reservoir=15)`.
///
/// A parameter value may be
/// - a range `LOW..HIGH:STEP` (numbers, `STEP > 0`, `HIGH ≥ LOW`; `LOW..HIGH` means step 1): every
///   `LOW + k·STEP ≤ HIGH`, each value rounded to the decimals written in `LOW` and `STEP` so `0.1..0.3:0.1` gives
///   0.1, 0.2, 0.3 and not 0.30000000000000004;
/// - alternatives `A|B|C` (numbers or words): each in turn.
///
/// Several grid parameters give their cross product, the first parameter varying slowest (like nested loops in
/// the order written). Specs without grids expand to themselves. Every value a grid stands for is checked against
/// the parameter's declaration in the registry, so `bba(reservoir=-5..5)` fails before any run. Called by
/// `abrsim sweep` for `--policies`.
public enum PolicyGrid {
    /// The largest number of specs one grid may expand to, so a typo (`0..1e9`) fails fast.
    public static let maximumExpansion = 100_000

    /// Parses `text` (`name` or `name(k=v,…)`, values possibly grids) and expands it to plain specs in order.
    /// Policies and parameters unknown to `registry` are left for ``PolicyRegistry/validate(_:file:location:content:)``.
    public static func expand(_ text: String, source: String = "policy", registry: PolicyRegistry = .builtIn) throws
        -> [PolicySpec]
    {
        let spec = try PolicySpec.parse(text, source: source)
        let descriptor = registry.descriptor(named: spec.name)
        var choices: [[PolicySpec.Value]] = []
        for parameter in spec.parameters {
            let list = try values(of: parameter.value, parameter: parameter.name, spec: text, source: source)
            if let declaration = descriptor?.parameter(named: parameter.name),
                list.count > 1 || list != [parameter.value]
            {
                for value in list {
                    if let problem = declaration.problem(with: value) {
                        throw InputError(
                            InputPlace(position: InputPlace.Position(text: source)),
                            .within("'\(text)': parameter '\(parameter.name)=\(parameter.value)'", problem))
                    }
                }
            }
            choices.append(list)
        }
        var total = 1
        for list in choices {
            total *= list.count
            guard total <= maximumExpansion else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: source)),
                    .within(
                        "'\(text)'",
                        .overLimit("a grid of at least \(total) combinations", limit: "\(maximumExpansion)")))
            }
        }
        var result: [PolicySpec] = []
        result.reserveCapacity(total)
        var positions = Array(repeating: 0, count: choices.count)
        for _ in 0..<total {
            var expanded = spec
            for index in positions.indices { expanded.parameters[index].value = choices[index][positions[index]] }
            result.append(expanded)
            // Odometer: the last parameter turns fastest.
            var digit = positions.count - 1
            while digit >= 0 {
                positions[digit] += 1
                if positions[digit] < choices[digit].count { break }
                positions[digit] = 0
                digit -= 1
            }
        }
        return result
    }

    /// The values one parameter stands for: a range, alternatives, or the value itself.
    static func values(of value: PolicySpec.Value, parameter: String, spec: String, source: String) throws
        -> [PolicySpec.Value]
    {
        guard case .text(let raw) = value else { return [value] }
        func fail(_ problem: InputProblem) -> InputError {
            InputError(
                InputPlace(position: InputPlace.Position(text: source)),
                .within("'\(spec)': parameter '\(parameter)=\(raw)'", problem))
        }
        if raw.contains("|") {
            let items = raw.split(separator: "|", omittingEmptySubsequences: false).map {
                String($0).trimmingWhitespace()
            }
            guard !items.contains(where: \.isEmpty) else {
                throw fail(.mustBe("an alternative", rule: "non-empty", found: "''"))
            }
            return items.map { item in
                if let number = Double(item), number.isFinite { return .number(number) }
                return .text(item)
            }
        }
        guard let dots = raw.indices.first(where: { raw[$0...].hasPrefix("..") }) else { return [value] }
        let low = String(raw[..<dots]).trimmingWhitespace()
        let rest = raw[raw.index(dots, offsetBy: 2)...]
        let high: String
        var step = "1"
        if let colon = rest.firstIndex(of: ":") {
            high = String(rest[..<colon]).trimmingWhitespace()
            step = String(rest[rest.index(after: colon)...]).trimmingWhitespace()
        } else {
            high = String(rest).trimmingWhitespace()
        }
        guard let lowValue = Double(low), let highValue = Double(high), let stepValue = Double(step),
            lowValue.isFinite, highValue.isFinite, stepValue.isFinite
        else { throw fail(.expected("a range LOW..HIGH or LOW..HIGH:STEP of numbers", found: "'\(raw)'")) }
        guard stepValue > 0 else { throw fail(.mustBe("the step", rule: "> 0", found: step)) }
        guard highValue >= lowValue else {
            throw fail(
                .mustBeRelative("the range's end", found: high, rule: "at least", other: "its start", otherValue: low))
        }
        let steps = ((highValue - lowValue) / stepValue * (1 + 1e-12)).rounded(.down)
        guard steps < Double(maximumExpansion) else {
            let count = ((highValue - lowValue) / stepValue).rounded() + 1
            throw fail(
                .mustBe(
                    "the range's count of values", rule: "at most \(maximumExpansion)",
                    found: count < 1e18 ? String(Int(count)) : JSONPath.format(count)))
        }
        let decimals = max(decimalPlaces(low), decimalPlaces(step))
        var scale = 1.0
        for _ in 0..<min(decimals, 15) { scale *= 10 }
        return (0...Int(steps)).map { k in
            let exact = lowValue + Double(k) * stepValue
            return .number(decimals > 15 ? exact : (exact * scale).rounded() / scale)
        }
    }

    /// Digits after the decimal point in a number as written (`0.25` → 2, `5` → 0, `1e-3` → 15: unknown).
    static func decimalPlaces(_ text: String) -> Int {
        if text.contains(where: { $0 == "e" || $0 == "E" }) { return 16 }
        guard let point = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: point), to: text.endIndex)
    }
}
