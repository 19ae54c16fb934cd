import Testing

@testable import ABRSim

/// The `pensieve` profile's physics on tiny hand-built traces, and what it shows a policy.
@Suite("the Pensieve engine")
struct PensieveEngineTests {
    /// Pensieve's ladder at constant bitrate: variant 1 (750 kbit/s) is 375,000 bytes per 4 s chunk.
    static let content = try! Content.constantBitrate(
        ladderKbps: PensieveProfile.ladderKbps, segmentSeconds: 4, segmentCount: 49)

    /// Records what the engine shows it, and fetches `variant`.
    final class RecordingPolicy: ABRPolicy {
        let variant: Int
        var contexts: [ABRContext] = []
        var samples: [ThroughputSample] = []
        var historyCounts: [Int] = []  // the history is shared and grows, so its count is taken at each decision
        init(variant: Int) { self.variant = variant }
        func decide(_ context: ABRContext) -> ABRDecision {
            contexts.append(context)
            historyCounts.append(context.history.count)
            return .variant(variant)
        }
        func downloadFinished(_ sample: ThroughputSample, context: ABRContext) { samples.append(sample) }
    }

    // An 8 Mbit/s link that wraps every second ([0, 1] → pointer back to 1, time to 0): 10⁶ bytes/s, 0.95 of it
    // payload, so a 375,000-byte chunk takes 375000/10⁶/0.95 ≈ 0.394737 s + 80 ms whatever the wraps.
    // Chunk 0 rebuffers its whole delay and leaves 4 s; then the buffer grows by 4 − delay ≈ 3.525 s per chunk:
    // 4 + 16·3.525 = 60.4 > 60 at chunk 16, so it sleeps ⌈0.4/0.5⌉·0.5 = 0.5 s → 59.9; afterwards it stays in
    // (59.5, 60]. Reward: 0.75 per chunk, minus 4.3 × chunk 0's delay.
    @Test("on a constant link the Pensieve engine's delays, buffer, sleeps and reward match hand values chunk by chunk")
    func constantLinkMatchesTheHandComputedBufferAndDelays() throws {
        let trace = try PensieveCookedTrace(name: "flat", times: [0, 1], bandwidthsMbps: [8, 8])
        let run = PensieveProfile.simulate(trace: trace, content: Self.content, policy: FixedPolicy(variant: 1))
        let delaySeconds = 375_000 / 1e6 / 0.95 + 0.08
        #expect(run.chunks.count == 48)
        for row in run.chunks {
            #expect(abs(row.delayMs - delaySeconds * 1000) < 1e-9, "chunk \(row.chunk)")
            #expect(row.rebufferSeconds == (row.chunk == 0 ? row.delayMs / 1000 : 0), "chunk \(row.chunk)")
        }
        #expect(run.chunks[0].bufferSecondsAfter == 4)
        #expect(abs(run.chunks[15].bufferSecondsAfter - (4 + 15 * (4 - delaySeconds))) < 1e-9)
        #expect(abs(run.chunks[16].bufferSecondsAfter - (4 + 16 * (4 - delaySeconds) - 0.5)) < 1e-9)
        #expect(run.chunks[16].sleepMs > 0)
        for row in run.chunks[16...] {
            #expect(row.bufferSecondsAfter > 59.5 && row.bufferSecondsAfter <= 60, "chunk \(row.chunk)")
        }
        #expect(abs(run.totalReward - (48 * 0.75 - 4.3 * delaySeconds)) < 1e-9)
        #expect(run.switchCount == 0 && run.sumBitrateChangesKbps == 0)
    }

    // (0, 1] runs at 0 and is crossed; (1, 2] at 8 Mbit/s delivers 950,000 bytes. Chunk 0 (375,000 bytes) takes
    // 1 + 0.394737 s + 80 ms. Chunk 1 then has 0.605263 s of (1, 2] (575,000 bytes: enough), so 0.394737 s again.
    @Test("the Pensieve engine crosses zero-rate intervals and wraps the trace, with hand-computed delays")
    func zeroRateIntervalsAreCrossed() throws {
        let trace = try PensieveCookedTrace(name: "gap", times: [0, 1, 2], bandwidthsMbps: [5, 0, 8])
        let run = PensieveProfile.simulate(trace: trace, content: Self.content, policy: FixedPolicy(variant: 1))
        let transfer = 375_000 / 1e6 / 0.95
        #expect(abs(run.chunks[0].delayMs - (1 + transfer + 0.08) * 1000) < 1e-9)
        #expect(abs(run.chunks[1].delayMs - (transfer + 0.08) * 1000) < 1e-9)
        // Chunk 2 needs 375,000 bytes but only 0.210526 s (200,000 bytes) of (1, 2] remain; the trace wraps to
        // (0, 1] at rate 0 (a whole second), then 175,000 bytes of (1, 2]: 0.210526 + 1 + 0.184211 s.
        #expect(abs(run.chunks[2].delayMs - (1 - 2 * transfer + 1 + 175_000 / 1e6 / 0.95 + 0.08) * 1000) < 1e-6)
    }

    @Test(
        "under the Pensieve engine a policy sees the previous chunk's buffer and samples that rebuild its delays exactly"
    )
    func policiesSeeThePreviousBufferAndExactPensieveSamples() throws {
        let trace = try PensieveCookedTrace(name: "flat", times: [0, 1, 2.5], bandwidthsMbps: [8, 3, 6])
        let policy = RecordingPolicy(variant: 3)
        let run = PensieveProfile.simulate(trace: trace, content: Self.content, policy: policy)
        // Chunk 0 is fetched at variant 1 without asking; then one decision per chunk.
        #expect(run.variants == [1] + Array(repeating: 3, count: 47))
        #expect(policy.contexts.count == 47)
        for (index, context) in policy.contexts.enumerated() {
            #expect(context.segmentIndex == index + 1)
            #expect(context.bufferSeconds == run.chunks[index].bufferSecondsAfter)
            #expect(context.lastVariant == run.chunks[index].variant)
            #expect(context.maxVariant == 5)
            #expect(policy.historyCounts[index] == index + 1)
        }
        // Samples: the chunk's bits, and a delay that rebuilds Pensieve's milliseconds exactly.
        #expect(policy.samples.count == 47)
        for (index, sample) in policy.samples.enumerated() {
            let row = run.chunks[index]
            #expect(sample.bits == row.chunkSizeBytes * 8)
            #expect(sample.downloadSeconds * 1000 + (sample.firstByteTime - sample.requestTime) * 1000 == row.delayMs)
        }
    }

    @Test("the Pensieve profile's policy defaults fill only the parameters the user left out")
    func policySpecDefaultsFillOnlyWhatTheUserLeftOut() throws {
        let bba = PensieveProfile.policySpecDefaults(try PolicySpec.parse("bba(cushion=12)"))
        #expect(bba.label == "bba(cushion=12,reservoir=5)")
        let mpc = PensieveProfile.policySpecDefaults(try PolicySpec.parse("robust-mpc"))
        #expect(mpc.parameters.first { $0.name == "planningSizeOffset" }?.value == .number(1))
        #expect(mpc.parameters.first { $0.name == "timing" }?.value == .text("total"))
        #expect(PensieveProfile.policySpecDefaults(try PolicySpec.parse("fixed")) == (try PolicySpec.parse("fixed")))
    }

    @Test("a cooked trace of one point, of no bandwidth after the start, or going back in time is refused")
    func cookedTraceErrorsNameTheProblem() {
        #expect(throws: InputError(.file(nil), .expected("at least two lines `time_s Mbit/s`", found: "1"))) {
            try PensieveCookedTrace(name: "one", times: [0], bandwidthsMbps: [1])
        }
        #expect(throws: InputError(.file(nil), .noneGiven("interval of throughput above 0", in: "the trace"))) {
            try PensieveCookedTrace(name: "still", times: [0, 1, 2], bandwidthsMbps: [5, 0, 0])
        }
        let back = InputError(
            .line("back", 3), .mustBe("the time", rule: "> 2.0, the time before it", found: "1.0", unit: "s"))
        #expect(throws: back) {
            try PensieveCookedTrace(name: "back", times: [0, 2, 1], bandwidthsMbps: [1, 1, 1])
        }
    }
}
