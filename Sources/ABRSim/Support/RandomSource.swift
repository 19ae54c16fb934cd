import CGSL

/// A seeded stream of random numbers from GSL's MT19937 generator.
///
/// The same seed gives the same sequence on every machine (GSL's generators are specified bit for bit),
/// which is what makes ABRSim's outputs byte-identical run to run. Each consumer that needs randomness
/// (a synthetic trace, a randomised policy) owns its own `RandomSource`, derived from the scenario seed,
/// so the draws of one never shift the draws of another. Not shareable between threads.
public final class RandomSource {
    private let generator: UnsafeMutablePointer<gsl_rng>

    /// Creates a generator seeded with `seed` (GSL maps seed 0 to its default seed 4357).
    public init(seed: UInt64) {
        abrsim_gsl_disable_abort()
        generator = gsl_rng_alloc(abrsim_gsl_rng_mt19937())
        gsl_rng_set(generator, UInt(truncatingIfNeeded: seed))
    }

    deinit { gsl_rng_free(generator) }

    /// A uniform draw in [0, 1).
    public func uniform() -> Double { gsl_rng_uniform(generator) }

    /// A uniform draw in (0, 1): never exactly zero, safe under `log`.
    public func uniformPositive() -> Double { gsl_rng_uniform_pos(generator) }

    /// An exponential draw with the given mean.
    public func exponential(mean: Double) -> Double { gsl_ran_exponential(generator, mean) }

    /// A gamma draw with shape `k` and scale `theta` (mean k·θ).
    public func gamma(shape: Double, scale: Double) -> Double { gsl_ran_gamma(generator, shape, scale) }

    /// A lognormal draw whose logarithm has mean `mu` and standard deviation `sigma`.
    public func lognormal(mu: Double, sigma: Double) -> Double { gsl_ran_lognormal(generator, mu, sigma) }

    /// A normal draw with mean 0 and standard deviation `sigma`.
    public func gaussian(sigma: Double) -> Double { gsl_ran_gaussian(generator, sigma) }

    /// A uniform integer in 0..<n.
    public func integer(below n: Int) -> Int { Int(gsl_rng_uniform_int(generator, UInt(n))) }
}
