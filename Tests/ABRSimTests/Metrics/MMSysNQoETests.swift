import Testing

@testable import ABRSim

/// The MMSys'20 NQoE registered as the QoE model `nqoe`.
@Suite("the MMSys'20 NQoE as the QoE model nqoe")
struct MMSysNQoETests {
    @Test("the nqoe model scores three segments as LoL+'s evaluator does: 1800 − 1200 − 500 − 428 − 20")
    func theRegisteredModelEqualsTheEvaluator() throws {
        // Ladder 200/600/1000 kbit/s, 1 s segments: weights 1, 1, 1000, 10 (≤ 1.1 s) / 100, 200.
        // 600 (lat 0.8, rate 1) → 1000 (lat 1.2, rate 1.05) → 200 (rebuffer 0.5, lat 3, rate 0.95):
        // bitrate 1800; switches 400 + 800; rebuffer 500; latency 8 + 120 + 300; speed 10 + 10 (to rounding).
        let model = try #require(QoEModel(rawValue: "nqoe"))
        #expect(model == .nqoe)
        let ladder = [200_000.0, 600_000, 1_000_000]
        let segments = [
            QoESegment(bitrateBps: 600_000, durationSeconds: 1, latencySeconds: 0.8),
            QoESegment(bitrateBps: 1_000_000, durationSeconds: 1, latencySeconds: 1.2, playbackRate: 1.05),
            QoESegment(
                bitrateBps: 200_000, durationSeconds: 1, rebufferSeconds: 0.5, latencySeconds: 3, playbackRate: 0.95),
        ]
        let scored = QoEScorer(model: model, ladderBps: ladder).score(segments: segments, startupSeconds: 0)
        var evaluator = LiveNQoE(segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
        evaluator.logSegmentMetrics(bitrateKbps: 600, rebufferSeconds: 0, latencySeconds: 0.8, playbackSpeed: 1)
        evaluator.logSegmentMetrics(bitrateKbps: 1000, rebufferSeconds: 0, latencySeconds: 1.2, playbackSpeed: 1.05)
        evaluator.logSegmentMetrics(bitrateKbps: 200, rebufferSeconds: 0.5, latencySeconds: 3, playbackSpeed: 0.95)
        #expect(scored == evaluator.totalQoe)
        #expect(abs(scored - (1800 - 1200 - 500 - 428 - 20)) < 1e-9)
    }

    @Test(
        "the nqoe tally of four segments with a 0.25 s stall is 950, the per-segment score at zero latency and rate 1")
    func theTallyPathIsTheChallengeSetUpWithoutLatency() throws {
        // Through the tally (what summaries and the offline optimum use): q = kbit/s, μ = 1000, λ = 1, which is the
        // per-segment NQoE of 1 s segments on 200/600/1000 kbit/s at zero latency and rate 1.
        let ladder = [200_000.0, 600_000, 1_000_000]
        let bitrates = [200_000.0, 1_000_000, 600_000, 600_000]
        let tally = QoEModel.nqoe.score(bitratesBps: bitrates, stallSeconds: 0.25, startupSeconds: 3, ladderBps: ladder)
        let segments = bitrates.enumerated().map { index, bitrate in
            QoESegment(
                bitrateBps: bitrate, durationSeconds: 1, rebufferSeconds: index == 2 ? 0.25 : 0, latencySeconds: 0)
        }
        let perSegment = QoEScorer(model: .nqoe, ladderBps: ladder).score(segments: segments, startupSeconds: 3)
        // 2400 − (800 + 400) − 1000·0.25 = 950.
        #expect(tally == 950)
        #expect(perSegment == tally)
    }

    @Test("the linear model scores segments through its tally, ignoring latency and rate: 3 − 4.3 − 1")
    func otherModelsScoreSegmentsThroughTheirTally() {
        let ladder = [1_000_000.0, 2_000_000]
        let segments = [
            QoESegment(bitrateBps: 1_000_000, durationSeconds: 4),
            QoESegment(bitrateBps: 2_000_000, durationSeconds: 4, rebufferSeconds: 1, latencySeconds: 5),
        ]
        // Linear: 1 + 2 − 4.3·1 − 1·1; latency and rate are not its terms.
        let score = QoEScorer(model: .linear, ladderBps: ladder).score(segments: segments, startupSeconds: 0)
        #expect(abs(score - (3 - 4.3 - 1)) < 1e-12)
    }

    @Test("the offline optimum accepts the QoE model by name in optimal(qoe=nqoe)")
    func theOptimumAcceptsTheModelByName() throws {
        let spec = try PolicySpec.parse("optimal(qoe=nqoe)")
        #expect(throws: Never.self) { try PolicyRegistry.builtIn.validate(spec) }
    }
}
