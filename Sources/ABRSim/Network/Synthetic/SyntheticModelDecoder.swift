/// Decodes the JSON form of a synthetic trace, shared by scenarios (`{"synthetic": {...}}` networks and
/// stretches) and `abrsim trace generate`:
///
/// ```json
/// {"model": "lognormal", "meanKbps": 3000, "spread": 0.5, "sampleSeconds": 1, "seconds": 600, "seed": 7,
///  "outages": {"perMinute": 0.5, "meanSeconds": 3, "shape": 2}}
/// {"model": "lognormal", "preset": "lte", "spread": 0.3, "seconds": 600}
/// {"model": "markov", "seconds": 600,
///  "states": [{"meanKbps": 8000, "spread": 0.2, "meanSojournSeconds": 40},
///             {"meanKbps": 500, "spread": 0.5, "meanSojournSeconds": 10, "sojournShape": 2}],
///  "transitions": [[0, 1], [1, 0]]}
/// ```
///
/// `spread` is the coefficient of variation (default 0); sojourns and outage durations are exponential unless a
/// gamma `shape`/`sojournShape` is given; a `preset` supplies the mean rate, RTT and loss; `rttMs` and `loss`
/// set them explicitly. `seconds` and `seed` are optional here: the caller supplies defaults. Errors are
/// ``InputError``s at the JSON path.
public struct SyntheticModelDecoder {
    /// What the JSON says: the model, and the length and seed when it gives them.
    public struct Decoded: Sendable {
        /// The model.
        public var model: SyntheticTraceModel
        /// `seconds`, when given.
        public var seconds: Double?
        /// `seed`, when given.
        public var seed: UInt64?
        /// A label: `synthetic-<model>`.
        public var label: String
    }

    /// A decoder.
    public init() {}

    /// Decodes the object at `reader` (all keys checked).
    public func decode(_ reader: JSONReader) throws -> Decoded {
        let object = try reader.object()
        let decoded = try decode(object)
        try object.finish()
        return decoded
    }

    /// Decodes the keys of `object` (the caller calls `finish()`).
    public func decode(_ object: JSONObjectReader) throws -> Decoded {
        let modelReader = try object.required("model")
        let name = try modelReader.string()
        var latency = try object.optional("rttMs").map { try $0.double(in: ScenarioBounds.rttMs) / 1000 }
        var loss = try object.optional("loss").map { try fraction($0) }
        let base: SyntheticTraceModel.Base
        switch name {
        case "lognormal":
            let spread = try object.optional("spread")?.nonNegativeDouble() ?? 0
            let mean: Double
            switch (object.optional("meanKbps"), object.optional("preset")) {
            case (let kbps?, nil):
                mean = try kbps.double(in: ScenarioBounds.rateKbps) * 1000
            case (nil, let presetReader?):
                let presetName = try presetReader.string()
                guard let preset = NetworkPreset.named(presetName) else {
                    throw presetReader.error(
                        .unknownName(presetName, kind: "preset", known: NetworkPreset.catalogue.map(\.name)))
                }
                mean = preset.downlinkBps
                latency = latency ?? preset.rttSeconds
                loss = loss ?? preset.lossRate
            default:
                throw object.reader.error(
                    .conflicting(
                        ["meanKbps", "preset"], reason: "a lognormal model needs exactly one of meanKbps or preset"))
            }
            base = .lognormal(LognormalRate(meanBps: mean, spread: spread))
        case "markov":
            let statesReader = try object.required("states")
            let items = try statesReader.array()
            guard !items.isEmpty else { throw statesReader.error(.noneGiven("state", in: "a Markov model")) }
            let states = try items.map(decodeState)
            var transitions: [[Double]]?
            if let matrix = object.optional("transitions") {
                transitions = try matrix.array().map { try $0.doubleArray() }
            }
            let initialReader = object.optional("initialState")
            let chain = MarkovRateModel(
                states: states, transitions: transitions, initialState: try initialReader?.nonNegativeInt() ?? 0)
            do {
                try chain.validate(location: object.reader.path)
            } catch var error as InputError {
                error.file = object.reader.file
                throw error
            }
            base = .markov(chain)
        default:
            throw modelReader.error(.unknownName(name, kind: "synthetic model", known: ["lognormal", "markov"]))
        }
        var model = SyntheticTraceModel(base: base, latencySeconds: latency, lossRate: loss)
        if let sample = object.optional("sampleSeconds") {
            model.sampleSeconds = try sample.double(in: ScenarioBounds.segmentSeconds)
        }
        if let outages = object.optional("outages") { model.outages = try decodeOutages(outages) }
        let seconds = try object.optional("seconds")?.double(in: ScenarioBounds.durationSeconds)
        let seed = try object.optional("seed").map { try $0.seed() }
        return Decoded(model: model, seconds: seconds, seed: seed, label: "synthetic-\(name)")
    }

    func decodeState(_ reader: JSONReader) throws -> MarkovRateModel.State {
        let object = try reader.object()
        let rate = LognormalRate(
            meanBps: try object.required("meanKbps").double(in: ScenarioBounds.rateKbps) * 1000,
            spread: try object.optional("spread")?.nonNegativeDouble() ?? 0)
        let sojourn = try sojourn(object, meanKey: "meanSojournSeconds", shapeKey: "sojournShape")
        try object.finish()
        return MarkovRateModel.State(rate: rate, sojourn: sojourn)
    }

    func decodeOutages(_ reader: JSONReader) throws -> OutageModel {
        let object = try reader.object()
        let perMinute = try object.required("perMinute").double(in: 1e-6...1e4)
        let duration = try sojourn(object, meanKey: "meanSeconds", shapeKey: "shape")
        try object.finish()
        return OutageModel(perMinute: perMinute, duration: duration)
    }

    func sojourn(_ object: JSONObjectReader, meanKey: String, shapeKey: String) throws -> SojournDistribution {
        let mean = try object.required(meanKey).double(in: 1e-6...1e7)
        guard let shape = object.optional(shapeKey) else { return .exponential(meanSeconds: mean) }
        return .gamma(shape: try shape.double(in: 1e-3...1e3), meanSeconds: mean)
    }

    func fraction(_ reader: JSONReader) throws -> Double {
        let value = try reader.nonNegativeDouble()
        guard value <= 1 else { throw reader.error(.mustBe("loss", rule: "a fraction in [0, 1]", found: "\(value)")) }
        return value
    }
}
