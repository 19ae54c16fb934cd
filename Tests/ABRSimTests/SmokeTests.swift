import Testing

@testable import ABRSim

@Suite("the random source")
struct RandomSourceTests {
    @Test("two random sources with the same seed draw the same sequence")
    func sameSeedGivesSameSequence() {
        let a = RandomSource(seed: 42)
        let b = RandomSource(seed: 42)
        for _ in 0..<100 { #expect(a.uniform() == b.uniform()) }
    }

    @Test("200 000 exponential draws have their mean within five standard errors")
    func exponentialDrawsHaveTheirMean() {
        let source = RandomSource(seed: 7)
        let n = 200_000
        var sum = 0.0
        for _ in 0..<n { sum += source.exponential(mean: 3) }
        // Standard error of the mean is 3/sqrt(n) ≈ 0.0067; allow five of them.
        #expect(abs(sum / Double(n) - 3) < 5 * 3 / Double(n).squareRoot())
    }
}
