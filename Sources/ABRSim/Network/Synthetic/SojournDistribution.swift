/// How long a synthetic process stays in one state (a Markov rate state, an outage, the gap between outages).
///
/// Exponential sojourns make the process memoryless (a continuous-time Markov chain); gamma sojourns with shape
/// k > 1 are more regular (coefficient of variation 1/√k), shape < 1 burstier. Drawn with GSL from a caller's
/// ``RandomSource``. Used by ``MarkovRateModel`` and ``OutageModel``; durations are seconds.
public enum SojournDistribution: Sendable, Equatable {
    /// Exponential with the given mean (seconds).
    case exponential(meanSeconds: Double)
    /// Gamma with the given shape k and mean (seconds); the scale is mean / k.
    case gamma(shape: Double, meanSeconds: Double)

    /// The mean duration, seconds.
    public var meanSeconds: Double {
        switch self {
        case .exponential(let mean), .gamma(_, let mean): return mean
        }
    }

    /// The standard deviation of the duration, seconds (mean for exponential, mean/√k for gamma).
    public var standardDeviationSeconds: Double {
        switch self {
        case .exponential(let mean): return mean
        case .gamma(let shape, let mean): return mean / shape.squareRoot()
        }
    }

    /// Throws an ``InputError`` (with `location` as its place) unless the mean and shape are finite and positive.
    public func validate(location: String? = nil) throws {
        var shape = 1.0
        if case .gamma(let k, _) = self { shape = k }
        guard meanSeconds.isFinite, meanSeconds > 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("mean duration", rule: "a positive number of seconds", found: "\(meanSeconds)"))
        }
        guard shape.isFinite, shape > 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("gamma shape", rule: "a positive number", found: "\(shape)"))
        }
    }

    /// One duration, seconds.
    public func draw(_ random: RandomSource) -> Double {
        switch self {
        case .exponential(let mean): return random.exponential(mean: mean)
        case .gamma(let shape, let mean): return random.gamma(shape: shape, scale: mean / shape)
        }
    }
}
