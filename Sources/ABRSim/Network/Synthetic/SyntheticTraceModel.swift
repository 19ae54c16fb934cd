/// A recipe for a synthetic trace (DESIGN §2.2): a base rate process, how often its rate is redrawn, optional
/// random outages, and the latency and loss carried by every piece (from a preset, say).
///
/// Built by ``SyntheticModelDecoder`` from a scenario's `{"synthetic": {...}}` object or `abrsim trace generate`'s
/// model, and turned into a ``Trace`` by ``SyntheticTraceGenerator``. Times in seconds, rates bit/s.
public struct SyntheticTraceModel: Sendable, Equatable {
    /// The process that sets the rate before outages.
    public enum Base: Sendable, Equatable {
        /// Independent lognormal draws around one mean (a constant rate when the spread is 0).
        case lognormal(LognormalRate)
        /// A Markov-modulated rate.
        case markov(MarkovRateModel)
    }

    /// The base rate process.
    public var base: Base
    /// The rate is redrawn every `sampleSeconds` (and at every Markov state change).
    public var sampleSeconds: Double
    /// Random outages over the base, if any.
    public var outages: OutageModel?
    /// Latency (RTT before the first byte) of every piece, seconds, if the trace should carry one.
    public var latencySeconds: Double?
    /// Loss rate of every piece in [0, 1], if the trace should carry one.
    public var lossRate: Double?

    /// A model with the given base process, redrawn every `sampleSeconds`.
    public init(
        base: Base, sampleSeconds: Double = 1, outages: OutageModel? = nil, latencySeconds: Double? = nil,
        lossRate: Double? = nil
    ) {
        self.base = base
        self.sampleSeconds = sampleSeconds
        self.outages = outages
        self.latencySeconds = latencySeconds
        self.lossRate = lossRate
    }

    /// Throws an ``InputError`` at `location` for any invalid parameter.
    public func validate(location: String? = nil) throws {
        switch base {
        case .lognormal(let rate): try rate.validate(location: location)
        case .markov(let chain): try chain.validate(location: location)
        }
        guard sampleSeconds.isFinite, sampleSeconds > 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("sampleSeconds", rule: "a positive number", found: "\(sampleSeconds)"))
        }
        try outages?.validate(location: location.map { $0 + ".outages" } ?? "outages")
        if let latencySeconds, !(latencySeconds.isFinite && latencySeconds >= 0) {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("latency", rule: "finite and ≥ 0", found: "\(latencySeconds)", unit: "s"))
        }
        if let lossRate, !(lossRate >= 0 && lossRate <= 1) {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("loss", rule: "a fraction in [0, 1]", found: "\(lossRate)"))
        }
    }
}
