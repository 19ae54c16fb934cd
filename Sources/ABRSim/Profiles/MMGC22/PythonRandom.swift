/// CPython's `random.Random` for the calls the MM'22 challenge makes: `random.seed(n)` with an integer (its
/// absolute value split into 32-bit words, least significant first, fed to `init_by_array`), `random()` (53 bits
/// from two outputs) and `uniform(a, b)` = `a + (b − a) · random()`. Used by ``MMGC22Retention``.
public struct PythonRandom: Sendable {
    private var generator: MersenneTwister

    /// `random.seed(seed)` for an integer seed (Python 3.9 hashes a numpy integer to the same value, so the
    /// challenge's `random.seed(np.int64(n))` seeds the same).
    public init(seed: Int64) {
        var magnitude = seed.magnitude
        var key: [UInt32] = []
        repeat {
            key.append(UInt32(truncatingIfNeeded: magnitude))
            magnitude >>= 32
        } while magnitude != 0
        generator = MersenneTwister(key: key)
    }

    /// `random.random()`: a double in [0, 1).
    public mutating func random() -> Double { generator.nextDouble() }

    /// `random.uniform(a, b)`.
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * random() }
}
