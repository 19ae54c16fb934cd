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

    /// Checks a grid given by the user: positive, finite, at least one value; sorted and without duplicates.
    public static func checkedGrid(_ values: [Double], location: String, file: String? = nil) throws -> [Double] {
        guard !values.isEmpty else { throw InputError(file: file, location: location, "give at least one ratio") }
        for value in values where !(value > 0 && value.isFinite) {
            throw InputError(file: file, location: location, "ratios must be positive numbers, got \(value)")
        }
        return Array(Set(values)).sorted()
    }
}
