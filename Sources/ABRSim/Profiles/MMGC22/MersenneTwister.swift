/// MT19937, the Mersenne Twister of Matsumoto and Nishimura (1998), as both CPython's `random` module
/// (`Modules/_randommodule.c`) and numpy's legacy `RandomState` (`numpy/random/src/mt19937/mt19937.c`) run it:
/// 624 words of state, `init_genrand` for a 32-bit seed, `init_by_array` for a key of 32-bit words, tempered
/// 32-bit outputs, and doubles in [0, 1) built from two outputs (27 + 26 bits). Both libraries' draws are
/// reproduced bit for bit from it by ``NumpyLegacyRandomState`` and ``PythonRandom``.
public struct MersenneTwister: Sendable, Equatable {
    private static let stateWords = 624
    private static let shift = 397
    private var words: [UInt32]
    private var position: Int

    /// A generator seeded with `init_genrand(seed)` (numpy's `mt19937_seed`, used by `np.random.seed(int)`).
    public init(seed: UInt32) {
        words = Array(repeating: 0, count: Self.stateWords)
        position = Self.stateWords
        Self.initGenrand(&words, seed)
    }

    /// A generator seeded with `init_by_array(key)` (CPython's `random.seed(int)`, with the integer's 32-bit words
    /// least significant first; numpy's `np.random.seed(array)`). The key must not be empty.
    public init(key: [UInt32]) {
        precondition(!key.isEmpty, "init_by_array needs at least one word")
        words = Array(repeating: 0, count: Self.stateWords)
        position = Self.stateWords
        Self.initGenrand(&words, 19_650_218)
        let n = Self.stateWords
        var i = 1
        var j = 0
        for _ in 0..<max(n, key.count) {
            let previous = words[i - 1] ^ (words[i - 1] >> 30)
            words[i] = (words[i] ^ (previous &* 1_664_525)) &+ key[j] &+ UInt32(truncatingIfNeeded: j)
            i += 1
            j += 1
            if i >= n {
                words[0] = words[n - 1]
                i = 1
            }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<(n - 1) {
            let previous = words[i - 1] ^ (words[i - 1] >> 30)
            words[i] = (words[i] ^ (previous &* 1_566_083_941)) &- UInt32(truncatingIfNeeded: i)
            i += 1
            if i >= n {
                words[0] = words[n - 1]
                i = 1
            }
        }
        words[0] = 0x8000_0000
    }

    private static func initGenrand(_ words: inout [UInt32], _ seed: UInt32) {
        words[0] = seed
        for index in 1..<stateWords {
            let previous = words[index - 1] ^ (words[index - 1] >> 30)
            words[index] = 1_812_433_253 &* previous &+ UInt32(index)
        }
    }

    private mutating func regenerate() {
        let n = Self.stateWords
        let m = Self.shift
        for k in 0..<n {
            let y = (words[k] & 0x8000_0000) | (words[(k + 1) % n] & 0x7FFF_FFFF)
            var next = words[(k + m) % n] ^ (y >> 1)
            if y & 1 != 0 { next ^= 0x9908_B0DF }
            words[k] = next
        }
        position = 0
    }

    /// The next tempered 32-bit output (`genrand_uint32`, numpy's `mt19937_next32`).
    public mutating func nextUInt32() -> UInt32 {
        if position >= Self.stateWords { regenerate() }
        var y = words[position]
        position += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// A double in [0, 1) with 53 random bits: `(a >> 5, b >> 6)` of two outputs, as `random.random()` and numpy's
    /// `random_sample` make it.
    public mutating func nextDouble() -> Double {
        let a = Double(nextUInt32() >> 5)
        let b = Double(nextUInt32() >> 6)
        return (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
}
