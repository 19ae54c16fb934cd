#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rate that varies lognormally around a mean: each draw is exp(N(μ, σ²)) with μ and σ chosen so that the
/// draws have the given mean and coefficient of variation (`spread` = standard deviation / mean).
///
/// σ² = ln(1 + spread²) and μ = ln(mean) − σ²/2. A spread of 0 gives the mean every time. Used by
/// ``SyntheticTraceModel`` for the lognormal model and for each state of a ``MarkovRateModel``; rates are bit/s.
public struct LognormalRate: Sendable, Equatable {
    /// Mean rate, bit/s (≥ 0).
    public var meanBps: Double
    /// Coefficient of variation: standard deviation / mean (≥ 0).
    public var spread: Double

    /// A rate with mean `meanBps` bit/s and coefficient of variation `spread`.
    public init(meanBps: Double, spread: Double) {
        self.meanBps = meanBps
        self.spread = spread
    }

    /// σ of the logarithm.
    public var sigma: Double { log1pSquare.squareRoot() }
    /// μ of the logarithm (−∞ for a zero mean).
    public var mu: Double { log(meanBps) - log1pSquare / 2 }

    private var log1pSquare: Double { log(1 + spread * spread) }

    /// Throws an ``InputError`` at `location` unless the mean and spread are finite and ≥ 0.
    public func validate(location: String? = nil) throws {
        guard meanBps.isFinite, meanBps >= 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("mean rate", rule: "finite and ≥ 0", found: "\(meanBps)", unit: "bit/s"))
        }
        guard spread.isFinite, spread >= 0 else {
            throw InputError(
                InputPlace(position: location.map(InputPlace.Position.init(text:))),
                .mustBe("spread", rule: "finite and ≥ 0", found: "\(spread)"))
        }
    }

    /// One rate, bit/s.
    public func draw(_ random: RandomSource) -> Double {
        if meanBps == 0 { return 0 }
        if spread == 0 { return meanBps }
        return random.lognormal(mu: mu, sigma: sigma)
    }
}
