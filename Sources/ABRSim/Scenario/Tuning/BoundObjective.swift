/// A ``TuneObjective`` whose player selectors have been resolved against one scenario's players, ready to score
/// run reports. Made by ``TuneObjective/bind(to:)``; used by ``Tuner``.
public struct BoundObjective: Sendable {
    /// The objective as parsed.
    public var objective: TuneObjective
    /// The player indices of the goal term.
    var goalPlayers: [Int]
    /// The player indices of each constraint's term.
    var constraintPlayers: [[Int]]

    /// Scores one run: the goal's value, whether every constraint holds, and by how much they are missed.
    public func score(_ report: RunReport) -> TuneScore {
        let value = Self.value(objective.goal, players: goalPlayers, report: report)
        var violation = 0.0
        for (constraint, players) in zip(objective.constraints, constraintPlayers) {
            let values: [Double?]
            if constraint.term.aggregate == nil && !constraint.term.metric.isRunLevel {
                values = players.map { constraint.term.metric.value(report.players[$0]) }
            } else {
                values = [Self.value(constraint.term, players: players, report: report)]
            }
            for value in values {
                guard let value, value.isFinite else {
                    violation += 1
                    continue
                }
                let excess = constraint.isUpperBound ? value - constraint.bound : constraint.bound - value
                if excess > 0 { violation += excess }
            }
        }
        return TuneScore(value: value, maximises: objective.maximises, violation: violation)
    }

    /// The value of `term` over `players` (`nil` when any value is undefined).
    static func value(_ term: TuneTerm, players: [Int], report: RunReport) -> Double? {
        if term.metric.isRunLevel { return term.metric.value(report) }
        var values: [Double] = []
        for index in players {
            guard let value = term.metric.value(report.players[index]) else { return nil }
            values.append(value)
        }
        guard !values.isEmpty else { return nil }
        switch term.aggregate ?? .sum {
        case .sum: return values.reduce(0, +)
        case .mean: return values.reduce(0, +) / Double(values.count)
        case .min: return values.min()
        case .max: return values.max()
        }
    }
}

/// How good one evaluated point is: the goal's value and the constraints' total violation.
///
/// Constraints are hard: a point that misses any ranks below every feasible point, and infeasible points rank
/// by their total violation (the sum of the amounts by which values miss their bounds, in the metrics' own
/// units; an undefined value counts 1), smaller first. Among feasible points the better goal value wins.
public struct TuneScore: Sendable, Equatable {
    /// The goal term's value (`nil` when undefined, e.g. the startup time of a player that never started).
    public var value: Double?
    /// Whether larger values are better.
    public var maximises: Bool
    /// Total amount by which constraints are missed (0 when feasible).
    public var violation: Double

    /// A score from its parts.
    public init(value: Double?, maximises: Bool, violation: Double) {
        self.value = value
        self.maximises = maximises
        self.violation = violation
    }

    /// Whether every constraint holds.
    public var isFeasible: Bool { violation == 0 }

    /// The quantity the Nelder–Mead simplex minimises: minus the goal (plus for `min`) when feasible, otherwise
    /// a large constant plus the violation, so any feasible point beats any infeasible one.
    public var penalised: Double {
        guard isFeasible else { return 1e9 + violation }
        guard let value, value.isFinite else { return 1e9 }
        return maximises ? -value : value
    }

    /// Whether this score is strictly better than `other`.
    public func isBetter(than other: TuneScore) -> Bool { penalised < other.penalised }
}

extension TuneObjective {
    /// Resolves the selectors against `scenario`'s players (as the scenario file assigns priorities, for
    /// `@low`/`@default`/`@high`); a selector matching no player, or a single-player term selecting several
    /// players, is an ``InputError`` at `source`.
    public func bind(to scenario: Scenario, source: String, file: String? = nil) throws -> BoundObjective {
        let goalPlayers = try Self.resolve(goal, in: scenario, source: source, file: file)
        if goal.aggregate == nil && !goal.metric.isRunLevel && goalPlayers.count != 1 {
            throw InputError(
                InputPlace(file: file, position: InputPlace.Position(text: source)),
                .within(
                    "objective '\(self)'",
                    .withAdvice(
                        .mustBe("\(goal)", rule: "of one player", found: "\(goalPlayers.count) players"),
                        advice: "say which with [id] or combine them with sum, mean, min or max")))
        }
        let constraintPlayers = try constraints.map {
            try Self.resolve($0.term, in: scenario, source: source, file: file)
        }
        return BoundObjective(objective: self, goalPlayers: goalPlayers, constraintPlayers: constraintPlayers)
    }

    static func resolve(_ term: TuneTerm, in scenario: Scenario, source: String, file: String?) throws -> [Int] {
        if term.metric.isRunLevel { return [] }
        guard !term.selectors.isEmpty else { return Array(scenario.players.indices) }
        var chosen: [Int] = []
        for selector in term.selectors {
            let matches = scenario.players.indices.filter { index in
                let player = scenario.players[index]
                if selector.hasPrefix("@") {
                    return player.settings.networkResourcePriority.rawValue == selector.dropFirst().lowercased()
                }
                return globMatches(selector, player.id)
            }
            guard !matches.isEmpty else {
                throw InputError(
                    InputPlace(file: file, position: InputPlace.Position(text: source)),
                    .within("\(term)", .unknownName(selector, kind: "player", known: scenario.players.map(\.id))))
            }
            for index in matches where !chosen.contains(index) { chosen.append(index) }
        }
        return chosen.sorted()
    }
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters (possibly empty).
func globMatches(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern)
    let t = Array(text)
    var pi = 0
    var ti = 0
    var star = -1
    var mark = 0
    while ti < t.count {
        if pi < p.count, p[pi] != "*", p[pi] == t[ti] {
            pi += 1
            ti += 1
        } else if pi < p.count, p[pi] == "*" {
            star = pi
            mark = ti
            pi += 1
        } else if star >= 0 {
            pi = star + 1
            mark += 1
            ti = mark
        } else {
            return false
        }
    }
    while pi < p.count, p[pi] == "*" { pi += 1 }
    return pi == p.count
}
