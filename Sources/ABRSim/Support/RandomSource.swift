import CGSL

/// A seeded stream of random numbers from GSL's MT19937 generator.
///
/// The same seed and stream give the same sequence on every machine (GSL's generators are specified bit for bit),
/// which is what makes ABRSim's outputs byte-identical run to run. Each consumer that needs randomness (a synthetic
/// trace, its outages, a randomised policy) owns its own `RandomSource` on its own ``RandomStream`` of the run's
/// seed, so the draws of one never shift the draws of another. Not shareable between threads.
///
/// Seeding (`docs/seeds.md`): GSL's `gsl_rng_set` keeps only 32 bits of a seed, so seeds 2³² apart would give the
/// same draws. Instead the generator's whole state is written: words 0–1 are the SplitMix64 finaliser of the seed,
/// words 2–3 that of the stream, words 4–623 successive SplitMix64 outputs from the two mixed. The finaliser is a
/// bijection of 64-bit values, so two different (seed, stream) pairs always start from different states.
public final class RandomSource {
    private let generator: UnsafeMutablePointer<gsl_rng>

    /// Creates the generator of `stream` under `seed` (every 64-bit pair is distinct).
    public init(seed: UInt64, stream: RandomStream = .plain) {
        abrsim_gsl_disable_abort()
        generator = gsl_rng_alloc(abrsim_gsl_rng_mt19937())
        let words = Self.stateWords(seed: seed, stream: stream.value)
        let status = words.withUnsafeBufferPointer { abrsim_gsl_mt19937_set_state(generator, $0.baseAddress) }
        precondition(status == 0, "GSL's MT19937 state has an unexpected layout")
    }

    deinit { gsl_rng_free(generator) }

    /// The SplitMix64 finaliser (Steele, Lea and Flood 2014): a bijection that spreads every input bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The 624 state words (32 bits each) for `seed` on `stream`, as the type's comment describes.
    static func stateWords(seed: UInt64, stream: UInt64) -> [UInt32] {
        let mixedSeed = mix(seed)
        let mixedStream = mix(stream ^ 0x6A09_E667_F3BC_C909)
        var words = [UInt32](repeating: 0, count: 624)
        words[0] = UInt32(truncatingIfNeeded: mixedSeed)
        words[1] = UInt32(truncatingIfNeeded: mixedSeed >> 32)
        words[2] = UInt32(truncatingIfNeeded: mixedStream)
        words[3] = UInt32(truncatingIfNeeded: mixedStream >> 32)
        var state = mixedSeed ^ (mixedStream << 1 | mixedStream >> 63)
        for index in stride(from: 4, to: 624, by: 2) {
            state &+= 0x9E37_79B9_7F4A_7C15
            let output = mix(state)
            words[index] = UInt32(truncatingIfNeeded: output)
            words[index + 1] = UInt32(truncatingIfNeeded: output >> 32)
        }
        return words
    }

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

/// Which of a run's random streams a ``RandomSource`` draws: one per consumer, so that adding or removing one
/// consumer never shifts another's draws. The value packs a 16-bit kind tag with two 24-bit positions.
public struct RandomStream: Equatable, Hashable, Sendable {
    /// The packed value mixed into the generator's state.
    public let value: UInt64

    /// A stream named by `tag` at positions `first` and `second` (each below 2²⁴; larger ones wrap).
    init(tag: UInt16, _ first: Int = 0, _ second: Int = 0) {
        value =
            UInt64(tag) << 48 | (UInt64(truncatingIfNeeded: first) & 0xFF_FFFF) << 24
            | (UInt64(truncatingIfNeeded: second) & 0xFF_FFFF)
    }

    /// The default stream (tests and one-off draws).
    public static let plain = RandomStream(tag: 0)

    /// The base rates of synthetic stretch `stretch` of network `network` (0 the shared link, r + 1 route r).
    public static func syntheticRates(network: Int, stretch: Int) -> RandomStream {
        RandomStream(tag: 0x5359, network, stretch)
    }

    /// The outages of the same stretch (independent of its rates, so adding outages leaves the rates alone).
    public static func syntheticOutages(network: Int, stretch: Int) -> RandomStream {
        RandomStream(tag: 0x4F55, network, stretch)
    }

    /// Policy `tag`'s draws for player `player` of the run.
    public static func policy(_ tag: UInt16, player: Int) -> RandomStream { RandomStream(tag: tag, player) }
}
