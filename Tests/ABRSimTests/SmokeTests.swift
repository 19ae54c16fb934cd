import Testing

@testable import ABRSim

struct RandomSourceTests {
    @Test func sameSeedGivesSameSequence() {
        let a = RandomSource(seed: 42)
        let b = RandomSource(seed: 42)
        for _ in 0..<100 { #expect(a.uniform() == b.uniform()) }
    }

    @Test func exponentialDrawsHaveTheirMean() {
        let source = RandomSource(seed: 7)
        let n = 200_000
        var sum = 0.0
        for _ in 0..<n { sum += source.exponential(mean: 3) }
        // Standard error of the mean is 3/sqrt(n) ≈ 0.0067; allow five of them.
        #expect(abs(sum / Double(n) - 3) < 5 * 3 / Double(n).squareRoot())
    }
}
