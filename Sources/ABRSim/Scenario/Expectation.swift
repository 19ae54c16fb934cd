/// One item of a scenario's `expect` list: a bound on one `summary.csv` metric of some players, checked by
/// `abrsim check` after the scenario has run.
///
/// `{"player": "main", "metric": "stall_count", "max": 0}` — the player (`*`, the default, means every player),
/// an optional policy filter, a metric (a column of ``RunTables/summaryColumns``), and a bound: `min`, `max`
/// (either or both, inclusive) or `equals` (a number, or a word for text columns such as `final_state`).
/// Decoded by ``ExpectationDecoder`` (which resolves the players it applies to), evaluated by
/// ``ExpectationEvaluator``.
public struct MetricExpectation: Sendable, Equatable {
    /// The player filter as written: an id or `*`.
    public var player: String
    /// The policy filter as written (a policy name such as `bba`, or a full label `bba(reservoir=5)`), if any.
    public var policy: String?
    /// The `summary.csv` column checked.
    public var metric: String
    /// The bound the measured value must satisfy.
    public var bound: Bound
    /// Where the expectation is in its file (`$.expect[2]`), for messages.
    public var location: String
    /// Ids of the players it applies to, in the scenario's player order (never empty once loaded).
    public var players: [String]

    /// Creates an expectation; ``ExpectationDecoder`` is the usual source.
    public init(
        player: String = "*", policy: String? = nil, metric: String, bound: Bound, location: String = "$",
        players: [String] = []
    ) {
        self.player = player
        self.policy = policy
        self.metric = metric
        self.bound = bound
        self.location = location
        self.players = players
    }

    /// What a measured value must be: inside an inclusive range, or equal to a number or a word.
    public enum Bound: Sendable, Equatable, CustomStringConvertible {
        /// `min ≤ value ≤ max`; either end may be absent (but not both).
        case range(min: Double?, max: Double?)
        /// The value is this number.
        case equalsNumber(Double)
        /// The value is this text (for text columns such as `final_state`).
        case equalsText(String)

        /// The bound as the check output shows it: `max 1`, `min 1800`, `min 1, max 3`, `equals ended`.
        public var description: String {
            switch self {
            case .range(let min, let max):
                return [min.map { "min " + JSONPath.format($0) }, max.map { "max " + JSONPath.format($0) }]
                    .compactMap { $0 }.joined(separator: ", ")
            case .equalsNumber(let x): return "equals " + JSONPath.format(x)
            case .equalsText(let text): return "equals " + text
            }
        }

        /// Whether `measured` (a `summary.csv` field, never empty) satisfies the bound. A range or numeric
        /// bound needs a number; text compares exactly.
        public func holds(for measured: String) -> Bool {
            switch self {
            case .range(let min, let max):
                guard let value = Double(measured), !value.isNaN else { return false }
                return (min.map { value >= $0 } ?? true) && (max.map { value <= $0 } ?? true)
            case .equalsNumber(let expected):
                return Double(measured) == expected
            case .equalsText(let expected):
                return measured == expected
            }
        }
    }

    /// `summary.csv` columns that identify a row rather than measure it; they cannot be expected.
    public static let identityColumns: Set<String> = ["scenario", "player", "policy", "trace"]

    /// `summary.csv` columns holding words rather than numbers: only `equals` applies to them.
    public static let textColumns: Set<String> = ["final_state", "failure_reason", "jain_qoe_undefined"]

    /// The metrics an expectation may name: every column of ``RunTables/summaryColumns`` except the identity
    /// columns, read at run time so that columns added to `summary.csv` become checkable without a change here.
    public static var metrics: [String] {
        RunTables.summaryColumns.filter { !identityColumns.contains($0) }
    }
}
