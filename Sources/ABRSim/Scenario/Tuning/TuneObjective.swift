/// What `abrsim tune` optimises: a direction, one term to maximise or minimise, and constraints.
///
/// Written as text, on the command line (`--objective`) or in a scenario's `tune.objective`:
///
///     max qoe_lin[main] subject to rebuffer_ratio[tile*] <= 2%
///     max sum qoe_lin
///     max min qoe_lin subject to max stall_s <= 3 and jain_throughput >= 0.8
///
/// Grammar (words are case-insensitive, spaces optional around brackets and operators):
///
///     objective  := ("max" | "min") term [("subject to" | "st") constraint {("and" | ",") constraint}]
///     term       := [aggregate] metric ["[" selector {"," selector} "]"]
///     aggregate  := "sum" | "mean" | "min" | "max"
///     constraint := term ("<=" | ">=") number ["%"]
///     selector   := player id, with `*` matching any run of characters, or @low / @default / @high
///
/// Parsed by ``parse(_:source:)``; bound to a scenario's players by ``TuneObjective/bind(to:)``.
public struct TuneObjective: Sendable, Equatable, CustomStringConvertible {
    /// Whether larger (`max`) or smaller (`min`) values of ``goal`` are better.
    public var maximises: Bool
    /// The term optimised.
    public var goal: TuneTerm
    /// Bounds every evaluated point must meet to be feasible.
    public var constraints: [TuneConstraint]

    /// An objective from its parts.
    public init(maximises: Bool, goal: TuneTerm, constraints: [TuneConstraint] = []) {
        self.maximises = maximises
        self.goal = goal
        self.constraints = constraints
    }

    /// The objective used when neither the command line nor the scenario names one: `max sum qoe_lin`.
    public static let defaultObjective = TuneObjective(
        maximises: true, goal: TuneTerm(aggregate: .sum, metric: .qoeLinear, selectors: []))

    /// The objective in canonical text (parses back to an equal objective).
    public var description: String {
        var text = (maximises ? "max " : "min ") + goal.description
        if !constraints.isEmpty {
            text += " subject to " + constraints.map(\.description).joined(separator: " and ")
        }
        return text
    }

    /// Parses `text`; errors are ``InputError``s at `source` (a JSON path or `--objective`) quoting the text.
    public static func parse(_ text: String, source: String, file: String? = nil) throws -> TuneObjective {
        var parser = TuneObjectiveParser(text: text, source: source, file: file)
        return try parser.parseObjective()
    }
}

/// How a term combines the values of the players it selects.
public enum TuneAggregate: String, Sendable, CaseIterable {
    case sum, mean, min, max
}

/// A number a term can read from a run: a per-player summary metric or a run-level fairness index.
public enum TuneMetric: String, Sendable, CaseIterable {
    case qoeLinear = "qoe_lin"
    case qoeLog = "qoe_log"
    case qoeHD = "qoe_hd"
    case averageBitrateKbps = "avg_bitrate_kbps"
    case stallSeconds = "stall_s"
    case stallCount = "stall_count"
    case rebufferRatio = "rebuffer_ratio"
    case startupSeconds = "startup_s"
    case switches = "switches"
    case linkShare = "link_share"
    case throughputKbps = "throughput_kbps"
    case jainThroughput = "jain_throughput"
    case jainBitrate = "jain_bitrate"
    case jainQoE = "jain_qoe"

    /// Whether the metric belongs to the run rather than to a player (no selector, no aggregate).
    public var isRunLevel: Bool { rawValue.hasPrefix("jain_") }

    /// The per-player metrics, in `tune.csv` column order.
    public static var playerMetrics: [TuneMetric] { allCases.filter { !$0.isRunLevel } }

    /// The run-level metrics, in `tune.csv` column order.
    public static var runMetrics: [TuneMetric] { allCases.filter(\.isRunLevel) }

    /// The metric's value for `player` (`nil` when undefined, e.g. the startup of a player that never started).
    public func value(_ player: RunReport.PlayerReport) -> Double? {
        let s = player.summary
        switch self {
        case .qoeLinear: return s.qoeLinear
        case .qoeLog: return s.qoeLog
        case .qoeHD: return s.qoeHD
        case .averageBitrateKbps: return s.averageBitrateKbps
        case .stallSeconds: return s.stallSeconds
        case .stallCount: return Double(s.stallCount)
        case .rebufferRatio: return s.rebufferRatio
        case .startupSeconds: return s.startupSeconds
        case .switches: return Double(s.switchCount)
        case .linkShare: return s.averageLinkShare
        case .throughputKbps: return s.averageThroughputBps.map { $0 / 1000 }
        case .jainThroughput, .jainBitrate, .jainQoE: return nil
        }
    }

    /// The run-level value (`nil` for per-player metrics and undefined indices).
    public func value(_ report: RunReport) -> Double? {
        switch self {
        case .jainThroughput: return report.fairness?.throughput
        case .jainBitrate: return report.fairness?.bitrate
        case .jainQoE: return report.fairness?.qoe
        default: return nil
        }
    }
}

/// One side of an objective: `[aggregate] metric[selectors]`.
public struct TuneTerm: Sendable, Equatable, CustomStringConvertible {
    /// How several selected players combine (`nil`: one player, or each player separately in a constraint).
    public var aggregate: TuneAggregate?
    /// The metric read.
    public var metric: TuneMetric
    /// Player selectors as written (empty: every player).
    public var selectors: [String]

    /// A term from its parts.
    public init(aggregate: TuneAggregate?, metric: TuneMetric, selectors: [String]) {
        self.aggregate = aggregate
        self.metric = metric
        self.selectors = selectors
    }

    /// The term as text.
    public var description: String {
        var text = aggregate.map { $0.rawValue + " " } ?? ""
        text += metric.rawValue
        if !selectors.isEmpty { text += "[" + selectors.joined(separator: ",") + "]" }
        return text
    }
}

/// A bound on a term: `term <= bound` or `term >= bound`. Without an aggregate it holds for every selected
/// player separately.
public struct TuneConstraint: Sendable, Equatable, CustomStringConvertible {
    /// The bounded term.
    public var term: TuneTerm
    /// `true` for `<=`, `false` for `>=`.
    public var isUpperBound: Bool
    /// The bound, in the metric's own units (`2%` is 0.02).
    public var bound: Double

    /// A constraint from its parts.
    public init(term: TuneTerm, isUpperBound: Bool, bound: Double) {
        self.term = term
        self.isUpperBound = isUpperBound
        self.bound = bound
    }

    /// The constraint as text.
    public var description: String {
        term.description + (isUpperBound ? " <= " : " >= ") + formatCSVNumber(bound)
    }
}
