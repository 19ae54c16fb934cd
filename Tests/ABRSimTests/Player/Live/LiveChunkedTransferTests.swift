import Testing

@testable import ABRSim

/// LL-DASH chunked transfer in the live player, by hand: 2 s segments in four 0.5 s CMAF chunks, a constant
/// 1500 kbit/s link without RTT, a stream whose availability began 10 s before the run (the live edge at t is
/// 10 + t), a player starting at t = 0. Segment k holds media [2k, 2k + 2], encoded from 2k − 10 s; its chunk j is
/// available at 2k − 10 + 0.5(j + 1). At 1000 kbit/s a chunk is 0.5 Mbit and crosses the link in 1/3 s, faster
/// than the encoder's 0.5 s.
@Suite("live chunked transfer physics by hand")
struct LiveChunkedTransferTests {
    static let start = -10.0
    static let linkBps = 1_500_000.0

    func run(
        ladderKbps: [Double] = [1000], chunk: Double? = 0.5, offset: Double = 1.5, policy: String = "fixed",
        startSeconds: Double = 0
    ) throws -> SimulationResult {
        let curve = try CapacityCurve(starts: [0], ratesBps: [Self.linkBps], duration: 1000)
        let stream = LiveStream(
            availabilityStartSeconds: Self.start, targetDurationSeconds: 2, refresh: .template,
            chunkDurationSeconds: chunk)
        let content = try Content.constantBitrate(ladderKbps: ladderKbps, segmentSeconds: 2, segmentCount: 30)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.startSeconds = startSeconds
        var live = LivePlaybackSettings()
        live.configuredTimeOffsetFromLive = offset
        settings.live = live
        let abr: any ABRPolicy =
            policy == "fixed"
            ? FixedPolicy(variant: 0)
            : try PolicyRegistry.builtIn.makePolicy(
                try PolicySpec.parse(policy), environment: PolicyEnvironment(seed: 1, playerIndex: 0, content: content))
        let player = PlayerConfiguration(
            id: "ll", content: content, policy: abr, policyLabel: policy, settings: settings,
            estimator: LastSampleEstimator())
        return Simulation(curve: curve, players: [player]).run()
    }

    /// The samples the player handed its estimator: one per completed request, with its chunk timings.
    func samples(_ result: SimulationResult) -> [ThroughputSample] {
        result.segments[0].filter { !$0.abandoned }.map { row in
            ChunkedTransfer.sample(
                requestTime: row.requestTime, timings: result.totals[0].chunks.filter { $0.segment == row.segment })
        }
    }

    @Test("a chunked request near the edge ends 1/3 s after its last chunk is encoded, idling before each chunk")
    func aChunkedRequestNearTheEdgeEndsAtTheLastChunkPlusItsTransfer() throws {
        let result = try run()
        let rows = result.segments[0]
        #expect(rows.count > 10)
        for row in rows where row.segment >= 7 {
            // Requested when its first chunk is encoded (2k − 9.5 s); the last is encoded at 2k − 8 s.
            let k = Double(row.segment)
            #expect(abs(row.requestTime - (2 * k - 9.5)) < 1e-9)
            #expect(abs(row.doneTime - (2 * k - 8 + 1.0 / 3)) < 1e-9)
        }
        let chunks = result.totals[0].chunks
        #expect(chunks.count == 4 * rows.count)
        for timing in chunks where timing.segment >= 7 {
            // Each chunk starts the instant it is encoded (the previous one arrived 1/6 s earlier).
            #expect(abs(timing.firstByteTime - timing.availableTime) < 1e-9)
            #expect(abs(timing.transferSeconds - 1.0 / 3) < 1e-9)
            #expect(timing.bits == 500_000)
        }
    }

    @Test("the naive whole-request rate is 12/11 of the encoder's while dash.js's moof estimate is the link's")
    func theNaiveEstimateMeasuresTheEncoderAndTheLowLatencyOneTheLink() throws {
        let near = samples(try run()).dropFirst(3)
        #expect(near.count > 10)
        // 2 Mbit over 1.5 s of encoding after the first chunk plus the last chunk's 1/3 s: 12/11 × 1000 kbit/s.
        for sample in near {
            var naive = LastSampleEstimator(timing: .includingLatency)
            naive.add(sample)
            #expect(abs(naive.estimate - 12.0 / 11 * 1_000_000) < 1e-3)
        }
        var dash = DashLowLatencyEstimator()
        for sample in samples(try run()) { dash.add(sample) }
        #expect(abs(dash.estimate - Self.linkBps) <= 0.1 * Self.linkBps)
    }

    @Test("throughput with dash.js's estimator holds 1300 kbit/s under a 1500 kbit/s link; the naive one drops")
    func theLowLatencyEstimatorKeepsTheRungTheLinkAffords() throws {
        // 1300 kbit/s needs an estimate of 1300 / 0.9 = 1444 kbit/s: the link's, never the naive 1345 it measures.
        let ladder = [1000.0, 1300, 2000]
        let lowLatency = try run(ladderKbps: ladder, policy: "throughput(estimator=dashjs-ll)")
        let naive = try run(ladderKbps: ladder, policy: "throughput(estimator=last)")
        let late = { (result: SimulationResult) in result.segments[0].filter { $0.segment >= 10 }.map(\.variant) }
        #expect(!late(lowLatency).isEmpty)
        #expect(late(lowLatency).allSatisfy { $0 == 1 })
        #expect(late(naive).allSatisfy { $0 == 0 })
    }

    @Test("with chunks appended as they arrive no row buffers past the live edge")
    func theBufferNeverPassesTheLiveEdge() throws {
        for chunk in [0.5, 1, 2] {
            let result = try run(
                ladderKbps: [1000, 1300, 2000], chunk: chunk, policy: "throughput(estimator=dashjs-ll)")
            for row in result.timeline[0] {
                #expect(row.playheadSeconds + row.bufferSeconds <= row.time - Self.start + 1e-9, "\(chunk)")
            }
        }
    }

    @Test("latency stays at 0.5 + 1/3 s with chunks and 2 + 4/3 s with whole segments: 2.5 s lower")
    func chunksLowerLatencyByASegmentLessAChunk() throws {
        // Started at 0.5 s, 0.5 s behind the edge (media 10 s, the start of segment 5), the player waits for media
        // and then never stalls. Whole segments arrive 4/3 s after their 2 s of media is encoded: latency d + S/C.
        // Chunks arrive 1/3 s after their 0.5 s: c + S_c/C. The gap (d − c)(1 + 1000/1500) = 2.5 s is a segment
        // less a chunk, stretched by the transfer of the rest of the segment.
        let chunked = try run(chunk: 0.5, offset: 0.5, startSeconds: 0.5)
        let whole = try run(chunk: nil, offset: 0.5, startSeconds: 0.5)
        func settled(_ result: SimulationResult) -> [Double] {
            result.timeline[0].filter { $0.state == .playing }.compactMap(\.latencySeconds)
        }
        #expect(!settled(chunked).isEmpty && !settled(whole).isEmpty)
        for latency in settled(chunked) { #expect(abs(latency - (0.5 + 1.0 / 3)) < 1e-6) }
        for latency in settled(whole) { #expect(abs(latency - (2 + 4.0 / 3)) < 1e-6) }
        #expect(whole.totals[0].chunks.isEmpty)
    }
}
