/// One evaluated point of a search: the weight table and priorities simulated, the run's metrics and score.
public struct TunePoint: Sendable {
    /// `baseline` (the scenario as written), `grid`, `simplex`, or `holdout` (a table scored on the networks
    /// the search did not see).
    public var phase: String
    /// The weight table simulated.
    public var weights: PriorityWeights
    /// Each player's priority, in scenario order.
    public var priorities: [NetworkResourcePriority]
    /// The run's report (without timelines); over several networks, the first network's.
    public var report: RunReport
    /// The point's score: the objective's (tune), or the fit error to minimise (calibration); over several
    /// networks, their combination (``TuneNetworks/combine(_:)``).
    public var score: TuneScore
    /// One report per network when the point was scored over several (`tune --traces`), else empty.
    public var networkReports: [RunReport] = []

    /// The reports the point's metrics come from: each network's, or the one run's.
    var metricReports: [RunReport] { networkReports.isEmpty ? [report] : networkReports }

    /// Player `index`'s value of `metric`, the mean over the networks (`nil` when any run lacks it).
    public func value(_ metric: TuneMetric, player index: Int) -> Double? {
        NetworkAggregate.mean.combine(metricReports.map { metric.value($0.players[index]) })
    }

    /// A run-level metric's value (a Jain index), the mean over the networks.
    public func value(_ metric: TuneMetric) -> Double? {
        NetworkAggregate.mean.combine(metricReports.map { metric.value($0) })
    }
}

/// What a search scores points by.
public enum TuneScoring: Sendable {
    /// `abrsim tune`: an objective with constraints; weights keep the levels' order.
    case objective(BoundObjective)
    /// `abrsim tune --calibrate`: the RMS share error against measurements (minimised); weights are free.
    case fit(ShareFit)

    /// Whether searched weight tables keep `low ≤ default ≤ high`.
    var isOrdered: Bool {
        if case .objective = self { return true }
        return false
    }

    func score(_ report: RunReport) -> TuneScore {
        switch self {
        case .objective(let objective): return objective.score(report)
        case .fit(let fit): return TuneScore(value: fit.rmsError(report), maximises: false, violation: 0)
        }
    }
}

/// `abrsim tune`'s search: the scenario's own table (the baseline), a grid over weight ratios (and, when asked,
/// over priority assignments) run in parallel, then GSL's Nelder–Mead simplex refining the continuous weights
/// from the best grid point, sequentially. Every distinct point is simulated once (points giving every player
/// the same normalised weight are the same point); results keep a fixed order, so the output does not depend
/// on `jobs`.
public struct Tuner: Sendable {
    /// The scenario searched (its allocation must be `weighted`).
    public var scenario: Scenario
    /// How points are scored.
    public var scoring: TuneScoring
    /// Grid, priorities, simplex budget.
    public var settings: TuneSettings
    /// The seed of every run (default: the scenario's).
    public var seed: UInt64?
    /// Parallel runs in the grid phase.
    public var jobs: Int
    /// The policies the scenario may name (each run makes a ``ScenarioRunner`` over it).
    public var registry = PolicyRegistry.builtIn
    /// The networks each point is scored on (`nil`: the scenario's own network).
    public var networks: TuneNetworks?

    /// A tuner; fails when the scenario's allocation ignores weights or priorities are too many to enumerate.
    public init(scenario: Scenario, scoring: TuneScoring, settings: TuneSettings, seed: UInt64?, jobs: Int) throws {
        try Self.checkTunable(scenario, searchesPriorities: settings.searchesPriorities)
        self.scenario = scenario
        self.scoring = scoring
        self.settings = settings
        self.seed = seed
        self.jobs = jobs
    }

    /// The outcome: every point in evaluation order, and which is the best.
    public struct Outcome: Sendable {
        /// Points in order: baseline, grid, simplex.
        public var points: [TunePoint]
        /// Index of the best point (the earliest of equals, so the baseline wins ties).
        public var bestIndex: Int
        /// The best point.
        public var best: TunePoint { points[bestIndex] }
        /// The baseline (the scenario's own table and priorities).
        public var baseline: TunePoint { points[0] }
    }

    /// Runs the search.
    public func run() throws -> Outcome {
        let original = scenario.players.map(\.settings.networkResourcePriority)
        var candidates: [(PriorityWeights, [NetworkResourcePriority])] = [(scenario.priorityWeights, original)]
        let assignments = settings.searchesPriorities ? Self.assignments(count: original.count) : [original]
        for assignment in assignments {
            let space = WeightSpace(priorities: assignment, isOrdered: scoring.isOrdered)
            for ratios in space.grid(settings.grid) {
                candidates.append((space.table(ratios: ratios, base: scenario.priorityWeights), assignment))
            }
            if space.dimension == 0 { candidates.append((scenario.priorityWeights, assignment)) }
        }
        var seen = Set<String>()
        var unique: [(PriorityWeights, [NetworkResourcePriority])] = []
        for candidate in candidates where seen.insert(Self.key(candidate.0, candidate.1)).inserted {
            unique.append(candidate)
        }
        let tuner = self
        let list = unique
        var points = try parallelMap(count: unique.count, jobs: jobs) { index in
            try tuner.evaluate(list[index].0, list[index].1, phase: index == 0 ? "baseline" : "grid")
        }
        var best = Self.bestIndex(points)
        let start = points[best]
        let space = WeightSpace(priorities: start.priorities, isOrdered: scoring.isOrdered)
        if space.dimension > 0 && settings.maxSimplexEvaluations > 0 {
            var cache: [String: TuneScore] = [:]
            for point in points { cache[Self.key(point.weights, point.priorities)] = point.score }
            var failure: (any Error)?
            let minimizer = NelderMead(
                step: 0.5, tolerance: settings.simplexTolerance, maxEvaluations: settings.maxSimplexEvaluations)
            _ = minimizer.minimize(from: space.point(ratios: space.ratios(of: start.weights))) { coordinates in
                let table = space.table(ratios: space.ratios(at: coordinates), base: start.weights)
                let key = Self.key(table, start.priorities)
                if let known = cache[key] { return known.penalised }
                do {
                    let point = try evaluate(table, start.priorities, phase: "simplex")
                    points.append(point)
                    cache[key] = point.score
                    return point.score.penalised
                } catch {
                    failure = failure ?? error
                    return .greatestFiniteMagnitude
                }
            }
            if let failure { throw failure }
            best = Self.bestIndex(points)
        }
        return Outcome(points: points, bestIndex: best)
    }

    /// Simulates one point and scores it.
    func evaluate(_ weights: PriorityWeights, _ priorities: [NetworkResourcePriority], phase: String) throws
        -> TunePoint
    {
        let variant = Self.scenario(scenario, weights: weights, priorities: priorities)
        guard let networks else {
            let report = try ScenarioRunner(registry: registry).run(variant, seed: seed, recordsTimeline: false)
            return TunePoint(
                phase: phase, weights: weights, priorities: priorities, report: report, score: scoring.score(report))
        }
        var reports: [RunReport] = []
        for index in networks.traces.indices {
            reports.append(
                try ScenarioRunner(registry: registry).run(
                    networks.scenario(variant, trace: index), seed: seed, recordsTimeline: false))
        }
        return TunePoint(
            phase: phase, weights: weights, priorities: priorities, report: reports[0],
            score: networks.combine(reports.map(scoring.score)), networkReports: reports)
    }

    /// The baseline's and the best point's tables scored on `held` (networks the search did not see), as
    /// `holdout` points: baseline first, then the best.
    public func heldOut(_ outcome: Outcome, on held: TuneNetworks) throws -> [TunePoint] {
        var tuner = self
        tuner.networks = held
        return try [outcome.baseline, outcome.best].map {
            try tuner.evaluate($0.weights, $0.priorities, phase: "holdout")
        }
    }

    /// `scenario` with `weights` and each player's priority from `priorities`.
    static func scenario(_ scenario: Scenario, weights: PriorityWeights, priorities: [NetworkResourcePriority])
        -> Scenario
    {
        var variant = scenario
        variant.priorityWeights = weights
        for index in variant.players.indices {
            variant.players[index].settings.networkResourcePriority = priorities[index]
        }
        return variant
    }

    /// The index of the best point (earliest among equals).
    static func bestIndex(_ points: [TunePoint]) -> Int {
        var best = 0
        for index in points.indices.dropFirst() where points[index].score.isBetter(than: points[best].score) {
            best = index
        }
        return best
    }

    /// Identifies a point by each player's weight divided by the smallest: what weighted sharing depends on.
    static func key(_ weights: PriorityWeights, _ priorities: [NetworkResourcePriority]) -> String {
        let perPlayer = priorities.map { weights.weight($0) }
        let smallest = perPlayer.min() ?? 1
        return perPlayer.map { formatCSVNumber(($0 / smallest * 1e9).rounded() / 1e9) }.joined(separator: ",")
    }

    /// Every assignment of the three levels to `count` players, the first player varying slowest.
    static func assignments(count: Int) -> [[NetworkResourcePriority]] {
        var result: [[NetworkResourcePriority]] = [[]]
        for _ in 0..<count {
            result = result.flatMap { prefix in NetworkResourcePriority.allCases.map { prefix + [$0] } }
        }
        return result
    }

    /// Most players whose priorities `--search-priorities` enumerates (3⁶ = 729 assignments).
    public static let maxPrioritySearchPlayers = 6

    static func checkTunable(_ scenario: Scenario, searchesPriorities: Bool) throws {
        guard scenario.allocation == .weighted else {
            throw InputError(
                .jsonPath(scenario.file, "$.allocation.strategy"),
                .notApplicable(
                    "tuning the weights", onlyFor: "'weighted' allocation", here: "'\(scenario.allocation.rawValue)'"))
        }
        guard scenario.players.count >= 2 else {
            throw InputError(
                .jsonPath(scenario.file, "$.players"),
                .tooFew("players", atLeast: 2, found: scenario.players.count, in: "tuning the weights"))
        }
        if searchesPriorities {
            guard scenario.players.count <= maxPrioritySearchPlayers else {
                throw InputError(
                    .option("--search-priorities"),
                    .overLimit(
                        "\(scenario.players.count) players (3^\(scenario.players.count) assignments)",
                        limit: "\(maxPrioritySearchPlayers) players"))
            }
        } else if Set(scenario.players.map(\.settings.networkResourcePriority)).count < 2 {
            throw InputError(
                .jsonPath(scenario.file, "$.players"),
                .withAdvice(
                    .changesNothing(
                        "tuning the weights", because: "every player has the same networkResourcePriority"),
                    advice: "give players different priorities or use --search-priorities"))
        }
    }
}
