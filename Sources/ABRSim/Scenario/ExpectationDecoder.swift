/// Decodes a scenario's `expect` array into ``MetricExpectation``s, resolving each to the players it applies to.
///
/// Keys of an item: `metric` (required; a column of ``RunTables/summaryColumns``), `player` (an id or `*`,
/// default `*`), `policy` (a policy name or label filter), and a bound: `min` and/or `max` (numbers), or
/// `equals` (a number, or a string for text columns); `fromSeconds` and/or `toSeconds` restrict it to a window
/// (only for ``MetricExpectation/windowedMetrics``; the window must not run backwards). Unknown metrics, a missing or contradictory bound, a
/// player id that does not exist and an item that matches no player are errors naming the JSON path. Called
/// by ``ScenarioLoader`` after the players are decoded.
struct ExpectationDecoder {
    /// The scenario's players, in file order.
    let players: [PlayerDescription]

    func decode(_ reader: JSONReader) throws -> [MetricExpectation] {
        try reader.array().map(decodeItem)
    }

    func decodeItem(_ reader: JSONReader) throws -> MetricExpectation {
        let object = try reader.object()
        let metricReader = try object.required("metric")
        let metric = try metricReader.string()
        guard MetricExpectation.metrics.contains(metric) else {
            throw metricReader.error(
                .unknownName(metric, kind: "metric", known: MetricExpectation.metrics))
        }
        let playerReader = object.optional("player")
        let player = try playerReader?.string() ?? "*"
        if let playerReader, player != "*", !players.contains(where: { $0.id == player }) {
            throw playerReader.error(
                .unknownName(player, kind: "player", known: players.map(\.id) + ["* (every player)"]))
        }
        let policy = try object.optional("policy")?.string()
        let bound = try decodeBound(object, metric: metric)
        let window = try decodeWindow(object, metric: metric)
        try object.finish()
        let matched = players.filter { description in
            (player == "*" || description.id == player)
                && (policy.map { $0 == description.policy.name || $0 == description.policy.label } ?? true)
        }
        guard !matched.isEmpty else {
            let candidates = players.filter { player == "*" || $0.id == player }.map(\.policy.label)
            let unknown = InputProblem.unknownName(policy ?? "", kind: "policy", known: candidates)
            throw reader.error(player == "*" ? unknown : .within("player '\(player)'", unknown))
        }
        return MetricExpectation(
            player: player, policy: policy, metric: metric, bound: bound, window: window, location: reader.path,
            players: matched.map(\.id))
    }

    func decodeWindow(_ object: JSONObjectReader, metric: String) throws -> MetricExpectation.Window? {
        let fromReader = object.optional("fromSeconds")
        let toReader = object.optional("toSeconds")
        guard fromReader != nil || toReader != nil else { return nil }
        guard MetricExpectation.windowedMetrics.contains(metric) else {
            throw (fromReader ?? toReader)!.error(
                .notApplicable(
                    "a window (fromSeconds, toSeconds)",
                    onlyFor: "the windowed metrics " + MetricExpectation.windowedMetrics.joined(separator: ", "),
                    here: metric))
        }
        let from = try fromReader?.double() ?? 0
        if let fromReader, from < 0 {
            throw fromReader.error(.mustBe("fromSeconds", rule: "0 or more", found: JSONPath.format(from)))
        }
        let to = try toReader?.double() ?? .infinity
        if let toReader, to <= from {
            throw toReader.error(
                .mustBe(
                    "toSeconds", rule: "greater than fromSeconds \(JSONPath.format(from))", found: JSONPath.format(to)))
        }
        return MetricExpectation.Window(fromSeconds: from, toSeconds: to)
    }

    func decodeBound(_ object: JSONObjectReader, metric: String) throws -> MetricExpectation.Bound {
        let minimum = try object.optional("min")?.double()
        let maximum = try object.optional("max")?.double()
        let equalsReader = object.optional("equals")
        let isText = MetricExpectation.textColumns.contains(metric)
        if let equalsReader {
            guard minimum == nil, maximum == nil else {
                throw equalsReader.error(
                    .conflicting(["equals", "min", "max"], reason: "give either equals or min/max, not both"))
            }
            if isText {
                return .equalsText(try equalsReader.string())
            }
            return .equalsNumber(try equalsReader.double())
        }
        guard minimum != nil || maximum != nil else {
            throw object.reader.error(.noneGiven("bound: min, max (or both) or equals", in: "an expectation"))
        }
        guard !isText else {
            throw object.reader.error(
                .notApplicable(
                    "min/max", onlyFor: "number metrics", here: "\(metric), which is text: bound it with equals"))
        }
        if let minimum, let maximum, minimum > maximum {
            throw object.reader.error(
                .mustBeRelative(
                    "min", found: JSONPath.format(minimum), rule: "at most", other: "max",
                    otherValue: JSONPath.format(maximum)))
        }
        return .range(min: minimum, max: maximum)
    }
}
