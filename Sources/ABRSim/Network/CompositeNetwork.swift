/// The whole network of a scenario: stretches (``NetworkStretch``) concatenated into one capacity curve.
///
/// Built by the scenario loader with ``build(_:defaultRttSeconds:atEnd:)``; the shared link reads ``curve``,
/// plots and CSV output read ``stretchStarts`` and ``labels``. Every piece of the curve has a latency (the
/// stretch's RTT: preset, explicit, the trace's own per-piece latency, else the default) and a loss rate (the
/// preset's or the trace's, else 0), so `curve.latency(at:)` and `curve.loss(at:)` are never nil. Adjacent pieces
/// with the same rate, latency and loss are merged, so a constant trace looping in a long stretch costs one piece.
public struct NetworkTimeline: Sendable {
    /// The concatenated capacity, with the scenario's end behaviour.
    public let curve: CapacityCurve
    /// Start of each stretch in seconds.
    public let stretchStarts: [Double]
    /// A label per stretch: the preset key (`wifi`), the trace file name, `constant` or `outage`.
    public let labels: [String]

    /// Concatenates `stretches`; `defaultRttSeconds` applies where a stretch has no RTT of its own. Throws an
    /// ``InputError`` located at `stretches[i]` for a non-positive or non-finite duration, a negative rate or RTT,
    /// an invalid trace, or an empty list.
    public static func build(_ stretches: [NetworkStretch], defaultRttSeconds: Double, atEnd: TraceEndBehavior)
        throws -> NetworkTimeline
    {
        guard !stretches.isEmpty else { throw InputError(.none, .noneGiven("stretch", in: "a network")) }
        guard defaultRttSeconds >= 0, defaultRttSeconds.isFinite else {
            throw InputError(
                .none, .mustBe("the default RTT", rule: "finite and ≥ 0", found: "\(defaultRttSeconds)", unit: "s"))
        }
        var pieces = Pieces()
        var stretchStarts: [Double] = []
        var labels: [String] = []
        var t = 0.0
        for (index, stretch) in stretches.enumerated() {
            let location = "stretches[\(index)]"
            func check(_ seconds: Double) throws {
                guard seconds > 0, seconds.isFinite else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: location)),
                        .mustBe("a stretch's length", rule: "finite and > 0", found: "\(seconds)", unit: "s"))
                }
            }
            func rtt(_ value: Double?) throws -> Double {
                guard let value else { return defaultRttSeconds }
                guard value >= 0, value.isFinite else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: location)),
                        .mustBe("RTT", rule: "finite and ≥ 0", found: "\(value)", unit: "s"))
                }
                return value
            }
            stretchStarts.append(t)
            switch stretch {
            case .preset(let preset, let seconds):
                try check(seconds)
                pieces.append(t, preset.downlinkBps, preset.rttSeconds, preset.lossRate)
                labels.append(preset.name)
                t += seconds
            case .constant(let bps, let seconds, let rttSeconds):
                try check(seconds)
                guard bps >= 0, bps.isFinite else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: location)),
                        .mustBe("rate", rule: "finite and ≥ 0", found: "\(bps)", unit: "bit/s"))
                }
                pieces.append(t, bps, try rtt(rttSeconds), 0)
                labels.append("constant")
                t += seconds
            case .trace(let trace, let seconds, let rttSeconds):
                let curve: CapacityCurve
                do {
                    curve = try trace.curve(atEnd: .loop)
                } catch var error as InputError {
                    error.location = error.location ?? location
                    throw error
                }
                let length = seconds ?? trace.duration
                try check(length)
                let explicitRtt = try rttSeconds.map { try rtt($0) }
                let end = t + length
                // Each repetition adds up to pieceCount pieces: refuse a stretch that would repeat a short trace
                // beyond the simulator's piece budget (it would exhaust memory, or never end when t + offset no
                // longer grows).
                let pieceBudget = Double(SyntheticTraceGenerator.maximumPieces - pieces.starts.count)
                guard (length / curve.duration).rounded(.up) * Double(trace.pieceCount) <= pieceBudget else {
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: location)),
                        .overLimit(
                            "\(length) s of the \(curve.duration) s trace ‘\(trace.name)’ repeated",
                            limit: "\(SyntheticTraceGenerator.maximumPieces) pieces (use a shorter stretch)"))
                }
                var offset = 0.0
                loops: while true {
                    for i in 0..<trace.pieceCount {
                        let start = t + offset + trace.starts[i]
                        if start >= end { break loops }
                        let latency = explicitRtt ?? trace.latencySeconds?[i] ?? defaultRttSeconds
                        pieces.append(start, trace.ratesBps[i], latency, trace.lossRates?[i] ?? 0)
                    }
                    offset += curve.duration
                }
                labels.append(trace.name)
                t = end
            case .outage(let seconds):
                try check(seconds)
                pieces.append(t, 0, defaultRttSeconds, 0)
                labels.append("outage")
                t += seconds
            }
        }
        let curve = try CapacityCurve(
            starts: pieces.starts, ratesBps: pieces.rates, duration: t, latencySeconds: pieces.latencies,
            lossRates: pieces.losses, atEnd: atEnd)
        return NetworkTimeline(curve: curve, stretchStarts: stretchStarts, labels: labels)
    }

    /// Piece arrays under construction, merging a piece into the previous one when nothing changes.
    struct Pieces {
        var starts: [Double] = []
        var rates: [Double] = []
        var latencies: [Double] = []
        var losses: [Double] = []

        mutating func append(_ start: Double, _ rate: Double, _ latency: Double, _ loss: Double) {
            if rates.last == rate, latencies.last == latency, losses.last == loss { return }
            // Rounding can make a piece start on (or before) the previous one: replace it then.
            if let last = starts.last, start <= last {
                rates[rates.count - 1] = rate
                latencies[latencies.count - 1] = latency
                losses[losses.count - 1] = loss
                return
            }
            starts.append(start)
            rates.append(rate)
            latencies.append(latency)
            losses.append(loss)
        }
    }
}
