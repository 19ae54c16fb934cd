import CGSL

/// How `abrsim tune --traces` turns one point's per-network objective values into its score.
public enum NetworkAggregate: Sendable, Equatable, CustomStringConvertible {
    /// The mean over the networks.
    case mean
    /// The given percentile (0–100) over the networks (GSL's quantile of the sorted values, interpolated).
    case percentile(Double)

    /// Parses `mean` or `pN` (`p10`, `p50`, `p90`; 0 ≤ N ≤ 100).
    public static func parse(_ text: String, location: String) throws -> NetworkAggregate {
        if text == "mean" { return .mean }
        guard text.hasPrefix("p"), let value = Double(text.dropFirst()), value >= 0, value <= 100 else {
            throw InputError(
                InputPlace(position: InputPlace.Position(text: location)),
                .expected("mean or pN with 0 ≤ N ≤ 100 (p10, p50)", found: "'\(text)'"))
        }
        return .percentile(value)
    }

    public var description: String {
        switch self {
        case .mean: "mean"
        case .percentile(let p): "p" + formatParameterNumber(p)
        }
    }

    /// The aggregate of `values` (`nil` when any is `nil` or there are none).
    public func combine(_ values: [Double?]) -> Double? {
        let known = values.compactMap { $0 }
        guard !known.isEmpty, known.count == values.count else { return nil }
        switch self {
        case .mean:
            return known.reduce(0, +) / Double(known.count)
        case .percentile(let p):
            let sorted = known.sorted()
            return sorted.withUnsafeBufferPointer {
                gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, p / 100)
            }
        }
    }
}

/// The networks `abrsim tune --traces` scores each weight table on: the scenario with its network replaced by
/// each trace in turn (looping, with the scenario's `network.rttMs` as the RTT, as `sweep` does), every run
/// scored by the objective, and the scores combined by ``aggregate``. Constraints must hold on every network: a
/// point's violation is the mean of its per-network violations, so it is feasible only when each run is.
/// Made by `abrsim tune`; used by ``Tuner``.
public struct TuneNetworks: Sendable {
    /// The traces, in the order given.
    public var traces: [Trace]
    /// RTT of traces that carry no latency, seconds.
    public var rttSeconds: Double
    /// How per-network values combine.
    public var aggregate: NetworkAggregate

    /// Networks from loaded traces.
    public init(traces: [Trace], rttSeconds: Double, aggregate: NetworkAggregate = .mean) {
        self.traces = traces
        self.rttSeconds = rttSeconds
        self.aggregate = aggregate
    }

    /// `scenario` on trace `index`.
    public func scenario(_ scenario: Scenario, trace index: Int) throws -> Scenario {
        var run = scenario
        run.network = try NetworkTimeline.build(
            [.trace(traces[index], seconds: nil, rttSeconds: nil)], defaultRttSeconds: rttSeconds, atEnd: .loop)
        run.networkLabel = traces[index].name
        return run
    }

    /// One combined score from per-network scores (all of one point).
    public func combine(_ scores: [TuneScore]) -> TuneScore {
        TuneScore(
            value: aggregate.combine(scores.map(\.value)), maximises: scores.first?.maximises ?? true,
            violation: scores.reduce(0) { $0 + $1.violation } / Double(max(scores.count, 1)))
    }

    /// Splits `files` into the networks a search sees and `fraction` of them held out, by a shuffle seeded
    /// with `seed` (so the same files and seed give the same split); each part keeps the files' order. At least
    /// one file goes to each part.
    public static func split(_ files: [String], holdout fraction: Double, seed: UInt64) throws
        -> (training: [String], holdout: [String])
    {
        guard fraction > 0, fraction < 1 else {
            throw InputError(
                .option("--holdout"), .mustBe(nil, rule: "a fraction between 0 and 1", found: "\(fraction)"))
        }
        guard files.count >= 2 else {
            throw InputError(
                .option("--holdout"),
                .tooFew("traces to hold some out", atLeast: 2, found: files.count, in: "--holdout"))
        }
        let count = min(max(Int((fraction * Double(files.count)).rounded()), 1), files.count - 1)
        var order = Array(files.indices)
        var state = seed ^ 0x7475_6e65_686f_6c64  // "tuneheld"
        for position in stride(from: order.count - 1, to: 0, by: -1) {
            let pick = Int(splitMix64(&state) % UInt64(position + 1))
            order.swapAt(position, pick)
        }
        let held = Set(order.prefix(count))
        return (
            files.indices.filter { !held.contains($0) }.map { files[$0] },
            files.indices.filter { held.contains($0) }.map { files[$0] }
        )
    }

    static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
