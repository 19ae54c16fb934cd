import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// A download of `bytes` taking `seconds` from first to last byte, after `latency` seconds of waiting.
private func download(bytes: Double, seconds: Double, latency: Double = 0, at start: Double = 0) -> ThroughputSample {
    ThroughputSample(
        bits: 8 * bytes, requestTime: start, firstByteTime: start + latency, doneTime: start + latency + seconds)
}

/// A download at `megabits` Mbit/s lasting one second.
private func rate(_ megabits: Double) -> ThroughputSample { download(bytes: megabits * 125_000, seconds: 1) }

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 * max(abs(a), abs(b)) }

@Suite("throughput samples")
struct ThroughputSampleTests {
    @Test("a sample's download and total seconds and its rate with and without latency follow from its timestamps")
    func timesAndRatesFollowFromTheTimestamps() {
        let sample = ThroughputSample(bits: 4_000_000, requestTime: 10, firstByteTime: 10.5, doneTime: 12.5)
        #expect(sample.downloadSeconds == 2)
        #expect(sample.totalSeconds == 2.5)
        #expect(sample.bitsPerSecond == 2_000_000)
        #expect(sample.bitsPerSecond(.excludingLatency) == 2_000_000)
        #expect(sample.bitsPerSecond(.includingLatency) == 1_600_000)
    }

    @Test("every estimator gives 1 Mbit/s excluding 1 s of latency and 0.5 Mbit/s including it")
    func everyEstimatorHonoursTheSampleTiming() {
        // 1 Mbit: 1 s of latency, then 1 s of transfer. 1 Mbit/s without latency, 0.5 Mbit/s with it.
        let sample = download(bytes: 125_000, seconds: 1, latency: 1)
        func estimates(_ timing: SampleTiming) -> [Double] {
            var estimators: [any ThroughputEstimator] = [
                LastSampleEstimator(timing: timing), HarmonicMeanEstimator(timing: timing),
                DualEWMAEstimator(fastHalfLife: 3, slowHalfLife: 9, defaultEstimate: 1, timing: timing),
                SlidingPercentileEstimator(secondsForEstimate: 0, timing: timing),
            ]
            for index in estimators.indices { estimators[index].add(sample) }
            return estimators.map(\.estimate)
        }
        #expect(estimates(.excludingLatency).allSatisfy { close($0, 1_000_000) })
        #expect(estimates(.includingLatency).allSatisfy { close($0, 500_000) })
    }
}

@Suite("the last-sample estimator")
struct LastSampleEstimatorTests {
    @Test("the last-sample estimator answers its 1 Mbit/s default, then the rate of the newest sample")
    func answersTheDefaultThenTheLatestSample() {
        var estimator = LastSampleEstimator()
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 1_000_000)
        estimator.add(rate(3))
        estimator.add(download(bytes: 250_000, seconds: 4))
        #expect(estimator.hasEnoughData)
        #expect(estimator.estimate == 500_000)
    }

    @Test("the last-sample estimator ignores zero-second downloads and returns to its default on reset")
    func ignoresInstantDownloadsAndForgetsOnReset() {
        var estimator = LastSampleEstimator(defaultEstimate: 42)
        estimator.add(download(bytes: 1000, seconds: 0))
        #expect(estimator.estimate == 42)
        estimator.add(rate(2))
        estimator.reset()
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 42)
    }
}

@Suite("the harmonic-mean estimator")
struct HarmonicMeanEstimatorTests {
    @Test("samples of 1, 2 and 4 Mbit/s give their harmonic mean, 3 / 1.75 Mbit/s")
    func isTheHarmonicMeanOfTheSamples() {
        var estimator = HarmonicMeanEstimator(window: 5)
        for megabits in [1.0, 2, 4] { estimator.add(rate(megabits)) }
        // 3 / (1/1 + 1/2 + 1/4) Mbit/s = 3 / 1.75 Mbit/s.
        #expect(close(estimator.estimate, 3 / 1.75 * 1_000_000))
    }

    @Test("the harmonic mean forgets samples older than its window")
    func keepsOnlyTheLastWindowOfSamples() {
        var estimator = HarmonicMeanEstimator(window: 2)
        for megabits in [0.1, 2, 4] { estimator.add(rate(megabits)) }
        // 0.1 is evicted: 2 / (1/2 + 1/4) Mbit/s = 8/3 Mbit/s.
        #expect(close(estimator.estimate, 8.0 / 3 * 1_000_000))
        for _ in 0..<10 { estimator.add(rate(5)) }
        #expect(close(estimator.estimate, 5_000_000))
    }

    @Test("the harmonic mean answers its default before any sample and after a reset, then the new samples")
    func answersTheDefaultBeforeSamplesAndAfterReset() {
        var estimator = HarmonicMeanEstimator(defaultEstimate: 300_000)
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 300_000)
        estimator.add(rate(1))
        #expect(estimator.hasEnoughData)
        estimator.reset()
        #expect(estimator.estimate == 300_000)
        estimator.add(rate(2))
        #expect(close(estimator.estimate, 2_000_000))
    }
}

@Suite("the dual EWMA estimator of hls.js, dash.js and Shaka")
struct DualEWMAEstimatorTests {
    @Test("after bias correction one sample gives exactly its rate in the hls.js, dash.js and Shaka presets")
    func oneSampleGivesExactlyItsValueAfterBiasCorrection() {
        for preset in [DualEWMAEstimator.hlsjs, .dashjs, .shaka] {
            var estimator = preset
            estimator.add(download(bytes: 1_000_000, seconds: 2.5))
            #expect(close(estimator.fastEstimate, 3_200_000))
            #expect(close(estimator.slowEstimate, 3_200_000))
            #expect(close(estimator.estimate, 3_200_000))
        }
    }

    @Test("two samples give the hand-computed fast and slow averages, and the estimate is the smaller slow one")
    func twoSamplesFollowTheFormula() {
        var estimator = DualEWMAEstimator.hlsjs
        estimator.add(download(bytes: 250_000, seconds: 2))  // 1 Mbit/s, weight 2
        estimator.add(download(bytes: 500_000, seconds: 1))  // 4 Mbit/s, weight 1
        func expected(halfLife: Double) -> Double {
            let alpha = pow(0.5, 1 / halfLife)
            let afterFirst = 1e6 * (1 - pow(alpha, 2))
            let afterSecond = 4e6 * (1 - alpha) + alpha * afterFirst
            return afterSecond / (1 - pow(alpha, 3))
        }
        // Fast (3 s): total weight 3 is one half-life, so the correction is ×2: 2·(4e6·(1−α) + α·1e6·(1−α²))
        // with α = 0.5^(1/3) ≈ 0.7937 gives about 2.2378 Mbit/s; the slow (9 s) average about 2.0779 Mbit/s.
        #expect(abs(expected(halfLife: 3) - 2_237_797) < 1)
        #expect(abs(expected(halfLife: 9) - 2_077_927) < 1)
        #expect(close(estimator.fastEstimate, expected(halfLife: 3)))
        #expect(close(estimator.slowEstimate, expected(halfLife: 9)))
        // The rise is followed more slowly by the slow average, which the minimum then picks.
        #expect(estimator.slowEstimate < estimator.fastEstimate)
        #expect(estimator.estimate == estimator.slowEstimate)
    }

    @Test("dash.js weighs each second of download as 1.5 in its fast average")
    func dashjsWeighsOneAndAHalfPerSecondOfDownload() {
        var estimator = DualEWMAEstimator.dashjs
        estimator.add(download(bytes: 250_000, seconds: 2))  // 1 Mbit/s, weight 3: a = 0.5^(3/3) = 0.5
        estimator.add(download(bytes: 500_000, seconds: 1))  // 4 Mbit/s, weight 1.5: a = 0.5^(1.5/3) = √0.5
        let root = 0.5.squareRoot()
        let raw = 4e6 * (1 - root) + root * (1e6 * 0.5)
        #expect(close(estimator.fastEstimate, raw / (1 - pow(0.5, 4.5 / 3))))
    }

    @Test("hls.js answers its 500 kbit/s default until the fast average has weight 0.001")
    func hlsjsAnswersItsDefaultUntilTheFastAverageHasWeight() {
        var estimator = DualEWMAEstimator.hlsjs
        #expect(estimator.estimate == 500_000)
        // 1000 bytes in no time: floored at min(50 ms, 1000/100000 ms) = 0.01 ms, so weight 1e-5 < 0.001.
        estimator.add(download(bytes: 1000, seconds: 0))
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 500_000)
        #expect(close(estimator.fastEstimate, 8000 / 1e-5))
    }

    @Test("hls.js counts a 10 ms download of 10 MB as lasting 50 ms")
    func hlsjsFloorsShortDownloadsAtFiftyMilliseconds() {
        var estimator = DualEWMAEstimator.hlsjs
        // 10 MB in 10 ms: the floor is min(50 ms, 100 ms) = 50 ms, so 8e7 bits / 0.05 s.
        estimator.add(download(bytes: 10_000_000, seconds: 0.01))
        #expect(estimator.hasEnoughData)
        #expect(close(estimator.estimate, 1.6e9))
    }

    @Test("the Shaka estimator skips downloads under 16 kB and publishes only after 128 kB, and a reset empties it")
    func shakaSkipsSmallDownloadsAndWaitsFor128Kilobytes() {
        var estimator = DualEWMAEstimator.shaka
        estimator.add(download(bytes: 15_999, seconds: 0.001))
        estimator.add(download(bytes: 100_000, seconds: 1))
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 1_000_000)
        estimator.add(download(bytes: 28_000, seconds: 0.28))
        #expect(estimator.hasEnoughData)
        #expect(close(estimator.estimate, 800_000))
        estimator.reset()
        #expect(!estimator.hasEnoughData)
        #expect(estimator.fastEstimate == 0)
    }
}

@Suite("the sliding-percentile estimator of ExoPlayer")
struct SlidingPercentileEstimatorTests {
    @Test("the ExoPlayer estimate is the median weighted by the square root of bytes, published after 2 s")
    func isTheWeightedMedianBySquareRootOfBytes() {
        var estimator = SlidingPercentileEstimator()
        estimator.add(download(bytes: 10_000, seconds: 1))  // weight 100, 80 kbit/s
        #expect(!estimator.hasEnoughData)  // 1 s and 10 kB: too little yet
        #expect(estimator.estimate == 1_000_000)
        estimator.add(download(bytes: 40_000, seconds: 1))  // weight 200, 320 kbit/s
        // 2 s seen: published. Total 300, target 150: 80k reaches 100, 320k reaches 300.
        #expect(estimator.hasEnoughData)
        #expect(estimator.estimate == 320_000)
        estimator.add(download(bytes: 90_000, seconds: 4))  // weight 300, 180 kbit/s
        // Total 600, target 300: 80k reaches 100, 180k reaches 400.
        #expect(estimator.estimate == 180_000)
    }

    @Test("the oldest sample's weight shrinks so the window keeps its maximum weight")
    func theOldestSampleShrinksToKeepTheMaximumWeight() {
        var estimator = SlidingPercentileEstimator(maxWeight: 400)
        estimator.add(download(bytes: 90_000, seconds: 8))  // weight 300, 90 kbit/s; 8 s: published
        #expect(estimator.estimate == 90_000)
        estimator.add(download(bytes: 90_000, seconds: 1))  // weight 300, 720 kbit/s
        // Total 600 > 400: the oldest shrinks from 300 to 100. Target 200: 90k reaches 100, 720k reaches 400.
        // Without the shrink the target would be 300 and 90k would be the answer.
        #expect(estimator.estimate == 720_000)
    }

    @Test("whole old samples leave the window when their weight is no more than the excess")
    func wholeSamplesLeaveTheWindowWhenTheyAreTooLight() {
        var estimator = SlidingPercentileEstimator(maxWeight: 500, secondsForEstimate: 0)
        estimator.add(download(bytes: 10_000, seconds: 1))  // weight 100, 80 kbit/s
        estimator.add(download(bytes: 40_000, seconds: 0.5))  // weight 200, 640 kbit/s
        estimator.add(download(bytes: 90_000, seconds: 3))  // weight 300, 240 kbit/s
        // Total 600, excess 100: the first sample (weight 100) goes. Target 250: 240k reaches 300.
        #expect(estimator.estimate == 240_000)
        estimator.add(download(bytes: 40_000, seconds: 0.25))  // weight 200, 1.28 Mbit/s
        // Total 700, excess 200: the 640k sample (200) goes. Left 240k (300), 1.28M (200); target 250 → 240k.
        #expect(estimator.estimate == 240_000)
        estimator.add(download(bytes: 90_000, seconds: 0.5))  // weight 300, 1.44 Mbit/s
        // Total 800, excess 300: the 240k sample (300) goes. Left 1.28M (200), 1.44M (300); target 250 → 1.44M.
        #expect(estimator.estimate == 1_440_000)
    }

    @Test("512 KiB of samples publish an estimate before 2 s of downloading")
    func enoughBytesPublishBeforeTwoSeconds() {
        var estimator = SlidingPercentileEstimator(defaultEstimate: 2_400_000)
        #expect(estimator.estimate == 2_400_000)
        estimator.add(download(bytes: 524_288, seconds: 0.5))
        #expect(estimator.hasEnoughData)
        #expect(estimator.estimate == 8_388_608)
    }

    @Test("the bytes of a zero-second download are added to the next sample, and a reset forgets them")
    func bytesOfAnInstantDownloadAreCarriedIntoTheNext() {
        var estimator = SlidingPercentileEstimator(secondsForEstimate: 0)
        estimator.add(download(bytes: 30_000, seconds: 0))
        #expect(!estimator.hasEnoughData)
        estimator.add(download(bytes: 10_000, seconds: 1))
        #expect(estimator.estimate == 320_000)  // 40 000 bytes over 1 s
        estimator.reset()
        #expect(!estimator.hasEnoughData)
        #expect(estimator.estimate == 1_000_000)
    }
}
