/// One item of a scenario's `expect` list: a bound on one `summary.csv` metric of some players, checked by
/// `abrsim check` after the scenario has run.
///
/// `{"player": "main", "metric": "stall_count", "max": 0}` — the player (`*`, the default, means every player),
/// an optional policy filter, a metric (a column of ``RunTables/summaryColumns``), and a bound: `min`, `max`
/// (either or both, inclusive) or `equals` (a number, or a word for text columns such as `final_state`).
/// With `fromSeconds` and/or `toSeconds` the bound applies to one stretch of simulated time (a ``Window``) and
/// the metric is one of ``windowedMetrics``, computed from the player's segments and stalls in that stretch.
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
    /// The stretch of simulated time the bound applies to; `nil` for the whole run (the `summary.csv` value).
    public var window: Window?
    /// Where the expectation is in its file (`$.expect[2]`), for messages.
    public var location: String
    /// Ids of the players it applies to, in the scenario's player order (never empty once loaded).
    public var players: [String]

    /// Creates an expectation; ``ExpectationDecoder`` is the usual source.
    public init(
        player: String = "*", policy: String? = nil, metric: String, bound: Bound, window: Window? = nil,
        location: String = "$", players: [String] = []
    ) {
        self.player = player
        self.policy = policy
        self.metric = metric
        self.bound = bound
        self.window = window
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

    /// A half-open stretch `[fromSeconds, toSeconds)` of simulated seconds.
    ///
    /// A segment belongs to it when its request was sent in it; a stall counts in it when it began in it, and
    /// its seconds count as far as they overlap it.
    public struct Window: Sendable, Equatable, CustomStringConvertible {
        /// Start, inclusive (seconds; 0 when not written).
        public var fromSeconds: Double
        /// End, exclusive (seconds; infinity when not written).
        public var toSeconds: Double

        /// A window from `fromSeconds` to `toSeconds`.
        public init(fromSeconds: Double = 0, toSeconds: Double = .infinity) {
            self.fromSeconds = fromSeconds
            self.toSeconds = toSeconds
        }

        /// Whether `time` is in the window.
        public func contains(_ time: Double) -> Bool {
            time >= fromSeconds && time < toSeconds
        }

        /// `[120 s, 262 s)`, or `[262 s, end)` without an end.
        public var description: String {
            let end = toSeconds.isFinite ? JSONPath.format(toSeconds) + " s" : "end"
            return "[\(JSONPath.format(fromSeconds)) s, \(end))"
        }
    }

    /// The metrics an expectation with a window may name: those with a meaning over a stretch of time.
    /// `avg_bitrate_kbps` is the duration-weighted mean declared bitrate of the segments downloaded (not
    /// abandoned) whose request was sent in the window; `stall_count` counts the stalls that began in it;
    /// `stall_s` sums the stall seconds inside it.
    public static let windowedMetrics: [String] = ["avg_bitrate_kbps", "stall_count", "stall_s"]

    /// The metric as the check output names it: `stall_count`, or `stall_count in [0 s, 120 s)`.
    public var subject: String {
        window.map { "\(metric) in \($0)" } ?? metric
    }

    /// `summary.csv` columns that identify a row rather than measure it; they cannot be expected.
    public static let identityColumns: Set<String> = ["scenario", "player", "policy", "trace"]

    /// `summary.csv` columns holding words rather than numbers: only `equals` applies to them.
    public static let textColumns: Set<String> = ["final_state", "failure_reason", "jain_qoe_undefined"]

    /// The metrics an expectation may name: every column of ``RunTables/summaryColumns(live:)`` (the live ones
    /// included) except the identity columns, read at run time so that columns added to `summary.csv` become
    /// checkable without a change here.
    public static var metrics: [String] {
        RunTables.summaryColumns(live: true).filter { !identityColumns.contains($0) } + feedMetrics
    }

    /// A feed run's session metrics: `feed.` and a column of `feed.csv` (``FeedTables/sessionMetrics``).
    public static var feedMetrics: [String] { FeedTables.sessionMetrics.map { feedPrefix + $0 } }
    static let feedPrefix = "feed."

    /// The `feed.csv` column of a feed metric, `nil` for a `summary.csv` one.
    var feedColumn: String? {
        metric.hasPrefix(Self.feedPrefix) ? String(metric.dropFirst(Self.feedPrefix.count)) : nil
    }
}
