import Testing

@testable import ABRSim

struct KeepUpPredictorTests {
    /// The verdict by brute force: the worst lateness over every remaining segment, no early exit.
    static func naiveVerdict(_ c: KeepUpContext, minimumBuffer: Double) -> KeepUpVerdict {
        if c.isFullyLoaded || c.isBufferFull { return .likely }
        guard let estimate = c.throughputEstimate, estimate > 0, c.rate > 0 else { return .unlikely(recheckAt: nil) }
        var download = c.inFlightRemainingBits / estimate
        var worst = -Double.infinity
        if let inFlight = c.inFlightSegment {
            worst = download - max((c.content.segmentStarts[inFlight] - c.playhead) / c.rate, 0)
        }
        for segment in c.nextSegment..<c.content.segmentCount {
            download += c.rttSeconds + c.content.sizeBits(segment: segment, variant: c.variant) / estimate
            worst = max(worst, download - (c.content.segmentStarts[segment] - c.playhead) / c.rate)
        }
        let short = c.bufferSeconds < minimumBuffer - SimulationTime.tolerance
        if worst <= SimulationTime.tolerance && !short { return .likely }
        if short { return .unlikely(recheckAt: nil) }
        return .unlikely(recheckAt: c.time + worst)
    }

    @Test func playThroughMatchesABruteForceScanOnVariableBitrateContent() throws {
        let random = RandomSource(seed: 11)
        var checked = 0
        for _ in 0..<300 {
            let count = 2 + random.integer(below: 40)
            let durations = (0..<count).map { _ in 1 + random.uniform() * 5 }
            let ladder = [300_000.0, 1_000_000, 3_000_000]
            let sizes = durations.map { d in ladder.map { $0 * d * (0.3 + 1.4 * random.uniform()) } }
            let content = try Content(
                variants: ladder.map { Variant(bitrateBps: $0) }, segmentDurations: durations, sizesBits: sizes)
            let next = random.integer(below: count)
            let inFlight = next > 0 && random.uniform() < 0.5 ? next - 1 : nil
            let playhead = content.segmentStarts[max(0, next - 2)] * random.uniform()
            let context = KeepUpContext(
                time: 100, bufferSeconds: content.segmentStarts[next] - playhead, isBufferFull: false,
                isFullyLoaded: false, isRecoveringFromStall: false,
                throughputEstimate: 200_000 + random.uniform() * 5_000_000,
                rate: [0.5, 1, 2][random.integer(below: 3)],
                playhead: playhead, nextSegment: next,
                inFlightRemainingBits: inFlight.map { sizes[$0][1] * random.uniform() } ?? 0, inFlightSegment: inFlight,
                variant: random.integer(below: 3), rttSeconds: random.uniform() * 0.3, content: content)
            let fast = PlayThroughPredictor().evaluate(context)
            let slow = Self.naiveVerdict(context, minimumBuffer: 1)
            switch (fast, slow) {
            case (.likely, .likely), (.unlikely(nil), .unlikely(nil)): break
            case (.unlikely(let a?), .unlikely(let b?)): #expect(abs(a - b) < 1e-9)
            default: Issue.record("predictor \(fast) but brute force \(slow)")
            }
            checked += 1
        }
        #expect(checked == 300)
    }

    /// Constant sizes and durations (the last segment shorter) make every later segment add the same lateness, so
    /// the predictor jumps to the last segment when the rate is below the bitrate: the verdicts must still be
    /// the brute force's, with as many "unlikely until …" verdicts as "likely" ones.
    @Test func playThroughMatchesABruteForceScanOnConstantBitrateContent() throws {
        let random = RandomSource(seed: 12)
        var rechecks = 0
        var likely = 0
        for _ in 0..<300 {
            let count = 2 + random.integer(below: 200)
            let segmentSeconds = [2.0, 4, 6][random.integer(below: 3)]
            var durations = Array(repeating: segmentSeconds, count: count)
            durations[count - 1] = segmentSeconds * (0.1 + 0.9 * random.uniform())
            let ladder = [300_000.0, 1_000_000, 3_000_000]
            let sizes = durations.map { d in ladder.map { $0 * d } }
            let content = try Content(
                variants: ladder.map { Variant(bitrateBps: $0) }, segmentDurations: durations, sizesBits: sizes)
            let next = random.integer(below: count)
            let inFlight = next > 0 && random.uniform() < 0.5 ? next - 1 : nil
            let playhead = max(0, content.segmentStarts[next] - 1 - random.uniform() * 20)
            let variant = random.integer(below: 3)
            let context = KeepUpContext(
                time: 50, bufferSeconds: content.segmentStarts[next] - playhead, isBufferFull: false,
                isFullyLoaded: false, isRecoveringFromStall: false,
                throughputEstimate: ladder[variant] * (0.3 + 2 * random.uniform()),
                rate: [0.5, 1, 2][random.integer(below: 3)],
                playhead: playhead, nextSegment: next,
                inFlightRemainingBits: inFlight.map { sizes[$0][variant] * random.uniform() } ?? 0,
                inFlightSegment: inFlight, variant: variant, rttSeconds: random.uniform() * 0.2, content: content)
            let fast = PlayThroughPredictor().evaluate(context)
            let slow = Self.naiveVerdict(context, minimumBuffer: 1)
            switch (fast, slow) {
            case (.likely, .likely): likely += 1
            case (.unlikely(nil), .unlikely(nil)): break
            case (.unlikely(let a?), .unlikely(let b?)):
                #expect(abs(a - b) < 1e-9)
                rechecks += 1
            default: Issue.record("predictor \(fast) but brute force \(slow)")
            }
        }
        #expect(rechecks > 60 && likely > 60)
    }

    @Test func fixedThresholdsAfterAStallAskForMore() {
        let content = try! Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 4, segmentCount: 10)
        var context = KeepUpContext(
            time: 0, bufferSeconds: 1.5, isBufferFull: false, isFullyLoaded: false, isRecoveringFromStall: false,
            throughputEstimate: nil, rate: 1, playhead: 0, nextSegment: 1, inFlightRemainingBits: 0,
            inFlightSegment: nil, variant: 0, rttSeconds: 0, content: content)
        let predictor = FixedThresholdPredictor()
        #expect(predictor.evaluate(context) == .likely)
        context.isRecoveringFromStall = true
        #expect(predictor.evaluate(context) == .unlikely(recheckAt: nil))
        context.bufferSeconds = 2
        #expect(predictor.evaluate(context) == .likely)
    }
}
