import Testing

@testable import ABRSim

@Suite("the keep-up predictors' verdicts")
struct KeepUpPredictorTests {
    /// The verdict by brute force: for each variant judged, the worst lateness over every remaining segment (no
    /// early exit); likely when one variant's is ≤ 0, else recheck after the least of them.
    static func naiveVerdict(_ c: KeepUpContext, minimumBuffer: Double, adaptive: Bool) -> KeepUpVerdict {
        if c.isFullyLoaded || c.isBufferFull { return .likely }
        guard let estimate = c.throughputEstimate, estimate > 0, c.rate > 0 else { return .unlikely(recheckAt: nil) }
        if c.bufferSeconds < minimumBuffer - SimulationTime.tolerance { return .unlikely(recheckAt: nil) }
        var least = Double.infinity
        for variant in (adaptive ? c.lowestVariant : c.variant)...c.variant {
            var download = c.inFlightRemainingBits / estimate
            var worst = -Double.infinity
            if let inFlight = c.inFlightSegment {
                worst = download - max((c.content.segmentStarts[inFlight] - c.playhead) / c.rate, 0)
            }
            for segment in c.nextSegment..<c.content.segmentCount {
                // After a stall the default rule looks 8 s of media ahead; the old one to the end.
                if adaptive, c.isRecoveringFromStall, c.content.segmentStarts[segment] >= c.playhead + 8 { break }
                download += c.rttSeconds + c.content.sizeBits(segment: segment, variant: variant) / estimate
                worst = max(worst, download - (c.content.segmentStarts[segment] - c.playhead) / c.rate)
            }
            least = min(least, worst)
        }
        return least <= SimulationTime.tolerance ? .likely : .unlikely(recheckAt: c.time + least)
    }

    /// Both variant rules, with a random lowest variant for the adaptive one.
    static func predictors(_ random: RandomSource, variant: Int) -> [(PlayThroughPredictor, lowest: Int)] {
        [(PlayThroughPredictor.lastVariant, variant), (PlayThroughPredictor(), random.integer(below: variant + 1))]
    }

    @Test("the play-through verdicts on random variable-bitrate content are those of a brute-force scan")
    func playThroughMatchesABruteForceScanOnVariableBitrateContent() throws {
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
                isFullyLoaded: false, isRecoveringFromStall: random.uniform() < 0.5,
                throughputEstimate: 200_000 + random.uniform() * 5_000_000,
                rate: [0.5, 1, 2][random.integer(below: 3)],
                playhead: playhead, nextSegment: next,
                inFlightRemainingBits: inFlight.map { sizes[$0][1] * random.uniform() } ?? 0, inFlightSegment: inFlight,
                variant: random.integer(below: 3), rttSeconds: random.uniform() * 0.3, content: content)
            for (predictor, lowest) in Self.predictors(random, variant: context.variant) {
                var judged = context
                judged.lowestVariant = lowest
                let fast = predictor.evaluate(judged)
                let slow = Self.naiveVerdict(judged, minimumBuffer: 1, adaptive: predictor.variants == .adaptive)
                switch (fast, slow) {
                case (.likely, .likely), (.unlikely(nil), .unlikely(nil)): break
                case (.unlikely(let a?), .unlikely(let b?)): #expect(abs(a - b) < 1e-9)
                default: Issue.record("predictor \(fast) but brute force \(slow)")
                }
                checked += 1
            }
        }
        #expect(checked == 600)
    }

    /// Constant sizes and durations (the last segment shorter) make every later segment add the same lateness, so
    /// the predictor jumps to the last segment when the rate is below the bitrate: the verdicts must still be
    /// the brute force's, with as many "unlikely until …" verdicts as "likely" ones.
    @Test("the play-through verdicts on random constant-bitrate content are a brute-force scan's, both kinds common")
    func playThroughMatchesABruteForceScanOnConstantBitrateContent() throws {
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
            for (predictor, lowest) in Self.predictors(random, variant: variant) {
                var judged = context
                judged.lowestVariant = lowest
                let fast = predictor.evaluate(judged)
                let slow = Self.naiveVerdict(judged, minimumBuffer: 1, adaptive: predictor.variants == .adaptive)
                switch (fast, slow) {
                case (.likely, .likely): likely += 1
                case (.unlikely(nil), .unlikely(nil)): break
                case (.unlikely(let a?), .unlikely(let b?)):
                    #expect(abs(a - b) < 1e-9)
                    rechecks += 1
                default: Issue.record("predictor \(fast) but brute force \(slow)")
                }
            }
        }
        #expect(rechecks > 120 && likely > 120)
    }

    /// Pencil and paper: 500/2000 kbit/s, 4 s segments, 10 segments, segment 0 loaded and nothing in flight, the
    /// playhead at 0 (4 s buffered), no RTT, the last choice the 2000 kbit/s rung. At a 1 Mbit/s estimate segment j
    /// (1…9) arrives at 8j s at 2000 kbit/s against a deadline of 4j s (worst lateness 36 s, at j = 9), and at 2j s
    /// at 500 kbit/s (never late).
    static func handContext(estimate: Double, lowest: Int, recovering: Bool = false) throws -> KeepUpContext {
        let content = try Content.constantBitrate(ladderKbps: [500, 2000], segmentSeconds: 4, segmentCount: 10)
        return KeepUpContext(
            time: 10, bufferSeconds: 4, isBufferFull: false, isFullyLoaded: false, isRecoveringFromStall: recovering,
            throughputEstimate: estimate, rate: 1, playhead: 0, nextSegment: 1, inFlightRemainingBits: 0,
            inFlightSegment: nil, variant: 1, rttSeconds: 0, content: content, lowestVariant: lowest)
    }

    @Test("an adapting player is likely to keep up when a lower rung plays through, a last-variant one waits 36 s")
    func anAdaptingPlayerIsLikelyWhenALowerVariantPlaysThrough() throws {
        let adaptive = PlayThroughPredictor()
        let lastChosen = PlayThroughPredictor(variants: .lastChosen)
        // The policy may switch down: 500 kbit/s plays through, so likely now.
        #expect(adaptive.evaluate(try Self.handContext(estimate: 1e6, lowest: 0)) == .likely)
        // At the last variant only (the old rule, or a policy that keeps its variant): 36 s late, so wait 36 s.
        #expect(lastChosen.evaluate(try Self.handContext(estimate: 1e6, lowest: 0)) == .unlikely(recheckAt: 46))
        #expect(adaptive.evaluate(try Self.handContext(estimate: 1e6, lowest: 1)) == .unlikely(recheckAt: 46))
    }

    @Test("when no rung plays through the recheck is the earliest over the rungs, 9 s rather than 144 s")
    func whenNoVariantPlaysThroughTheRecheckIsTheEarliestOverTheVariants() throws {
        // At 0.4 Mbit/s: 500 kbit/s segments take 5 s each, so segment j lands at 5j against 4j (9 s late at j = 9);
        // 2000 kbit/s ones take 20 s (16j late: 144 s). The player asks again after the smaller, 9 s.
        let adaptive = PlayThroughPredictor()
        #expect(adaptive.evaluate(try Self.handContext(estimate: 0.4e6, lowest: 0)) == .unlikely(recheckAt: 19))
        #expect(
            PlayThroughPredictor(variants: .lastChosen).evaluate(try Self.handContext(estimate: 0.4e6, lowest: 0))
                == .unlikely(recheckAt: 154))
    }

    @Test("after a stall only the next 8 s of media are judged, while the last-variant rule looks to the end")
    func afterAStallOnlyTheNextEightSecondsOfMediaAreJudged() throws {
        // Recovering from a stall, only segment 1 starts within 8 s of the playhead (segment 2 starts at 8). At
        // 0.4 Mbit/s it lands at 5 s against 4 s at 500 kbit/s (1 s late), at 20 s at 2000 kbit/s: recheck at 11.
        #expect(
            PlayThroughPredictor().evaluate(try Self.handContext(estimate: 0.4e6, lowest: 0, recovering: true))
                == .unlikely(recheckAt: 11))
        // A policy that keeps 2000 kbit/s, at 1 Mbit/s: 8 s against 4 s, so 4 s late: recheck at 14 (to the end it
        // would be 36 s, which the old rule still waits).
        #expect(
            PlayThroughPredictor().evaluate(try Self.handContext(estimate: 1e6, lowest: 1, recovering: true))
                == .unlikely(recheckAt: 14))
        #expect(
            PlayThroughPredictor.lastVariant.evaluate(try Self.handContext(estimate: 1e6, lowest: 0, recovering: true))
                == .unlikely(recheckAt: 46))
    }

    @Test("the fixed-threshold predictor asks for 1.5 s to start but 2 s after a stall")
    func fixedThresholdsAfterAStallAskForMore() {
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
