/// numpy's legacy global generator (`numpy.random.RandomState`, numpy 1.x `mtrand.pyx`), for the draws the
/// MM'22 challenge makes: `seed(n)`, `randint(high, size)` (masked rejection sampling on 32-bit outputs, as the
/// legacy API always uses), `random_sample()` and `choice(a, p=…)` (inverse CDF by `searchsorted(side='right')`).
/// Used by ``MMGC22Users`` and ``MMGC22Retention``.
public struct NumpyLegacyRandomState: Sendable {
    private var generator: MersenneTwister

    /// `np.random.seed(seed)` for an integer seed in 0 … 2³²−1 (`_legacy_seeding` calls `mt19937_seed`).
    public init(seed: UInt32) { generator = MersenneTwister(seed: seed) }

    /// `np.random.randint(high)`: an integer in 0 ..< `high` (`high` ≤ 2³²), drawn by masking 32-bit outputs with
    /// the smallest all-ones mask covering `high − 1` and rejecting values above it.
    public mutating func randint(_ high: UInt32) -> Int {
        precondition(high >= 1, "randint needs high ≥ 1")
        let range = high - 1
        if range == 0 { return 0 }
        var mask = range
        mask |= mask >> 1
        mask |= mask >> 2
        mask |= mask >> 4
        mask |= mask >> 8
        mask |= mask >> 16
        while true {
            let value = generator.nextUInt32() & mask
            if value <= range { return Int(value) }
        }
    }

    /// `np.random.randint(high, size=count)`, in C order.
    public mutating func randint(_ high: UInt32, count: Int) -> [Int] {
        (0..<count).map({ _ in randint(high) })
    }

    /// `np.random.random_sample()`: a double in [0, 1).
    public mutating func randomSample() -> Double { generator.nextDouble() }

    /// The index `np.random.choice(a, p=probabilities)` picks (size `None`): one uniform draw, located in the
    /// normalised running sum of `probabilities` by `searchsorted(…, side='right')`. The caller checks the
    /// probabilities as numpy does (``numpyChoiceProblem(_:)``).
    public mutating func choiceIndex(probabilities: [Double]) -> Int {
        var cdf: [Double] = []
        cdf.reserveCapacity(probabilities.count)
        var running = 0.0
        for p in probabilities {
            running += p
            cdf.append(running)
        }
        let last = cdf[cdf.count - 1]
        for index in cdf.indices { cdf[index] /= last }
        let uniform = randomSample()
        // searchsorted(side='right'): the first index whose value is > uniform.
        var low = 0
        var high = cdf.count
        while low < high {
            let middle = (low + high) / 2
            if cdf[middle] <= uniform { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Why `np.random.choice` would refuse these probabilities, or `nil`: numpy raises when one is negative or
    /// NaN, or when their (Kahan) sum is further than √ε from 1.
    public static func numpyChoiceProblem(_ probabilities: [Double]) -> InputProblem? {
        if probabilities.isEmpty { return .noneGiven("probability") }
        if probabilities.contains(where: { $0.isNaN }) {
            return .mustBe("the probabilities", rule: "numbers", found: "NaN")
        }
        if let negative = probabilities.first(where: { $0 < 0 }) {
            return .mustBe("the probabilities", rule: "≥ 0", found: "\(negative)")
        }
        let sum = kahanSum(probabilities)
        if abs(sum - 1) > Double.ulpOfOne.squareRoot() {
            return .mustBe("the sum of the probabilities", rule: "1", found: "\(sum)")
        }
        return nil
    }

    /// numpy's `kahan_sum` (`mtrand.pyx`): compensated summation in the order given.
    static func kahanSum(_ values: [Double]) -> Double {
        guard var sum = values.first else { return 0 }
        var compensation = 0.0
        for value in values.dropFirst() {
            let y = value - compensation
            let t = sum + y
            compensation = (t - sum) - y
            sum = t
        }
        return sum
    }
}
