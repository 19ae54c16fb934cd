/// How `abrsim tune` searches: the objective, the grid of weight ratios, whether priorities are searched too,
/// and the simplex's budget. Read from a scenario's `tune` key (``Scenario/tune``) and overridden by the
/// command line; used by ``Tuner`` and ``Calibrator``.
public struct TuneSettings: Sendable, Equatable {
    /// What to optimise (default ``TuneObjective/defaultObjective``).
    public var objective: TuneObjective = .defaultObjective
    /// Ratios to the lowest level in use that the grid tries for every other level.
    public var grid: [Double] = [1, 2, 4, 8, 16, 32]
    /// Whether every assignment of `low`/`default`/`high` to the players is searched as well.
    public var searchesPriorities = false
    /// The Nelder–Mead simplex's budget of function calls (0: grid only).
    public var maxSimplexEvaluations = 40
    /// The simplex stops when its size in log-ratio units falls below this.
    public var simplexTolerance = 0.01
    /// Width of the time bins calibration compares shares in (seconds).
    public var binSeconds = 10.0

    /// The defaults.
    public init() {}

    /// Most ratios in a grid (the grid is tried for every level, so its size multiplies the runs).
    public static let maximumGridCount = 64
    /// Smallest and largest ratio in a grid.
    public static let gridRatioRange = 1e-6...1e6
    /// Largest simplex budget (each evaluation is one run of the scenario).
    public static let maximumSimplexEvaluations = 100_000
    /// Calibration bin widths accepted, seconds (from 1 ms to a day).
    public static let binSecondsRange = 0.001...86_400.0

    /// Checks a grid given by the user: at least one and at most ``maximumGridCount`` values, each in
    /// ``gridRatioRange``; sorted and without duplicates.
    public static func checkedGrid(_ values: [Double], location: String, file: String? = nil) throws -> [Double] {
        guard !values.isEmpty else {
            throw InputError(
                InputPlace(file: file, position: InputPlace.Position(text: location)),
                .noneGiven("ratio"))
        }
        guard values.count <= maximumGridCount else {
            throw InputError(
                InputPlace(file: file, position: InputPlace.Position(text: location)),
                .overLimit("\(values.count) ratios", limit: "\(maximumGridCount)"))
        }
        for value in values where !gridRatioRange.contains(value) {
            throw InputError(
                InputPlace(file: file, position: InputPlace.Position(text: location)),
                .mustBe("ratios", rule: "in 1e-06…1e+06", found: "\(value)"))
        }
        return Array(Set(values)).sorted()
    }
}
