/// Generates a ``Trace`` from a ``SyntheticTraceModel`` and a seed, with GSL's MT19937 (``RandomSource``).
///
/// The same model, length and seed give the same trace on every machine: GSL's generator is specified bit for bit
/// and the draws are taken in a fixed order. The base process and the outages use separate ``RandomStream``s of the
/// seed, one pair per stretch position, so adding outages does not change the base rates underneath them and two
/// stretches of one network never repeat each other's draws. Called by the scenario loader
/// (`{"synthetic": …}` networks and stretches) and `abrsim trace generate`.
public enum SyntheticTraceGenerator {
    /// The most pieces a generated trace may have (about 380 MB of piece arrays).
    public static let maximumPieces = 10_000_000

    /// A trace of `seconds` seconds named `name`, drawn on the streams of stretch `stretch` of network `network`
    /// (`abrsim trace generate` is stretch 0 of network 0); throws an ``InputError`` for an invalid model or length.
    public static func generate(
        _ model: SyntheticTraceModel, seconds: Double, seed: UInt64, name: String = "synthetic", network: Int = 0,
        stretch: Int = 0
    ) throws -> Trace {
        try model.validate()
        guard seconds.isFinite, seconds > 0 else {
            throw InputError(
                .none, .mustBe("a synthetic trace's length", rule: "a positive number of seconds", found: "\(seconds)"))
        }
        guard seconds / model.sampleSeconds <= Double(maximumPieces) else {
            throw InputError(
                .none,
                .overLimit(
                    "\(seconds) s in samples of \(model.sampleSeconds) s",
                    limit: "\(maximumPieces) pieces (use a longer sampleSeconds)"))
        }
        // Expected state visits and outages, checked before drawing them; the draws are capped too (a skewed draw
        // can exceed its expectation), so no model can exhaust memory or loop for ever.
        if case .markov(let chain) = model.base, let shortest = chain.states.map(\.sojourn.meanSeconds).min(),
            seconds / shortest > Double(maximumPieces)
        {
            throw InputError(
                .none,
                .overLimit(
                    "\(seconds) s in sojourns of \(shortest) s",
                    limit: "\(maximumPieces) state visits (use longer meanSojournSeconds)"))
        }
        if let outages = model.outages,
            seconds / (60 / outages.perMinute + outages.duration.meanSeconds)
                > Double(maximumPieces)
        {
            throw InputError(
                .none,
                .overLimit(
                    "\(seconds) s at \(outages.perMinute) outages per minute",
                    limit: "\(maximumPieces) outages (use a lower perMinute or longer meanSeconds)"))
        }
        let random = RandomSource(seed: seed, stream: .syntheticRates(network: network, stretch: stretch))
        var starts: [Double] = []
        var rates: [Double] = []
        func sample(from start: Double, length: Double, _ rate: LognormalRate) {
            let count = max(1, Int((length / model.sampleSeconds).rounded(.up)))
            for j in 0..<count {
                let t = start + Double(j) * model.sampleSeconds
                if t >= start + length { break }
                let value = rate.draw(random)
                if rates.last == value { continue }  // a constant state continues the previous piece
                starts.append(t)
                rates.append(value)
            }
        }
        switch model.base {
        case .lognormal(let rate):
            sample(from: 0, length: seconds, rate)
        case .markov(let chain):
            let visits = chain.visits(seconds: seconds, random, limit: maximumPieces)
            guard visits.count <= maximumPieces else {
                throw InputError(
                    .none,
                    .overLimit(
                        "\(seconds) s drew \(visits.count) state visits",
                        limit: "\(maximumPieces) (use longer meanSojournSeconds)"))
            }
            for visit in visits where visit.length > 0 {
                sample(from: visit.start, length: visit.length, chain.states[visit.state].rate)
            }
        }
        guard !starts.isEmpty else {
            throw InputError(
                .none,
                .empty(
                    "synthetic trace",
                    no: "rate drawn in \(seconds) s (a sojournShape or meanSojournSeconds too small to draw a positive"
                        + " length)"))
        }
        // A finite mean and spread can still overflow the draws (a spread of 1e300): say so here, where the
        // decoders add the file and JSON path, rather than when the trace becomes a curve.
        if let rate = rates.first(where: { !$0.isFinite }) {
            throw InputError(
                .none,
                .mustBe(
                    "a drawn rate", rule: "finite (the model's mean or spread is too large)", found: "\(rate)",
                    unit: "bit/s"))
        }
        var trace = Trace(name: name, starts: starts, ratesBps: rates, duration: seconds)
        if let outages = model.outages {
            let outageRandom = RandomSource(
                seed: seed, stream: .syntheticOutages(network: network, stretch: stretch))
            let intervals = outages.intervals(seconds: seconds, outageRandom, limit: maximumPieces)
            guard intervals.count <= maximumPieces else {
                throw InputError(
                    .none,
                    .overLimit(
                        "\(seconds) s drew \(intervals.count) outages",
                        limit: "\(maximumPieces) (use a lower perMinute or longer meanSeconds)"))
            }
            trace = TraceTools.zeroed(trace, during: intervals)
        }
        if let latency = model.latencySeconds {
            trace.latencySeconds = Array(repeating: latency, count: trace.pieceCount)
        }
        if let loss = model.lossRate { trace.lossRates = Array(repeating: loss, count: trace.pieceCount) }
        return trace
    }
}
