/// Random outages laid over a trace: zero capacity for a random duration, separated by random gaps.
///
/// Outages start as a renewal process: the gap from the end of one outage (or from time 0) to the start of the
/// next is exponential with mean 60 / `perMinute` seconds (a Poisson process of rate `perMinute` per minute of
/// connected time), and each outage lasts a draw of `duration`. Applied by ``SyntheticTraceGenerator`` after the
/// base rate is generated; times in seconds.
public struct OutageModel: Sendable, Equatable {
    /// Mean number of outages per minute of connected time (> 0).
    public var perMinute: Double
    /// How long each outage lasts.
    public var duration: SojournDistribution

    /// Outages at `perMinute` per minute, each lasting a draw of `duration`.
    public init(perMinute: Double, duration: SojournDistribution) {
        self.perMinute = perMinute
        self.duration = duration
    }

    /// Throws an ``InputError`` at `location` unless the rate is finite and positive and the duration valid.
    public func validate(location: String? = nil) throws {
        guard perMinute.isFinite, perMinute > 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("outages per minute", rule: "a positive number", found: "\(perMinute)"))
        }
        try duration.validate(location: location)
    }

    /// The outage intervals [start, end) within [0, `seconds`), in order and disjoint.
    /// Stops after `limit` + 1 outages (gaps and outages too short for `seconds` would otherwise never end), so a
    /// caller seeing more than `limit` refuses the model.
    func intervals(seconds: Double, _ random: RandomSource, limit: Int = .max) -> [(start: Double, end: Double)] {
        var result: [(start: Double, end: Double)] = []
        var t = 0.0
        let meanGap = 60 / perMinute
        while result.count <= limit {
            t += random.exponential(mean: meanGap)
            guard t < seconds else { break }
            let length = duration.draw(random)
            result.append((t, min(t + length, seconds)))
            t += length
        }
        return result
    }
}
