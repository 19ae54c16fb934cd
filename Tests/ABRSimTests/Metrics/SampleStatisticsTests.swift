import Testing

@testable import ABRSim

@Suite("sample statistics")
struct SampleStatisticsTests {
    @Test("five values give the hand-computed mean, deviation, 95 % interval and interpolated percentiles")
    func handComputedExample() {
        let stats = SampleStatistics([5, 1, 4, 2, 3])
        #expect(stats.count == 5)
        #expect(stats.mean == 3)
        // Sample variance (1+1+0+4+4... of deviations 2,1,0,1,2 squared = 10) / 4 = 2.5.
        #expect(abs(stats.standardDeviation - 2.5.squareRoot()) < 1e-12)
        // Student t, 4 degrees of freedom, 97.5 %: 2.7764451051977987 (tables give 2.776).
        let t = 2.7764451051977987
        #expect(abs(stats.confidenceHalfWidth95 - t * 2.5.squareRoot() / 5.0.squareRoot()) < 1e-9)
        // Linear interpolation between order statistics: position q·(n − 1).
        #expect(abs(stats.p5 - 1.2) < 1e-12)
        #expect(stats.p25 == 2)
        #expect(stats.p50 == 3)
        #expect(stats.p75 == 4)
        #expect(abs(stats.p95 - 4.8) < 1e-12)
    }

    @Test("one value has zero deviation and interval and is every percentile")
    func oneValueHasNoSpread() {
        let stats = SampleStatistics([7])
        #expect(stats.mean == 7)
        #expect(stats.standardDeviation == 0)
        #expect(stats.confidenceHalfWidth95 == 0)
        #expect(stats.p95 == 7)
    }
}
