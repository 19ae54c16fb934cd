import Testing

@testable import ABRSim

/// The challenge's model on links and clips small enough to follow by hand. An 8 Mbit/s link carries
/// 8·10⁶/8 · 0.95 = 950 000 payload bytes per second, so a 95 000-byte chunk takes 100 ms + 80 ms RTT = 180 ms and
/// a 150 000-byte one 157.9 + 80 → 238 ms (whole ms, rounded half up).
@Suite("the mmgc22 model by hand on an 8 Mbit/s link")
struct MMGC22HandComputedTests {
    static func constantLink(mbps: Double = 8) throws -> PensieveCookedTrace {
        try PensieveCookedTrace(
            name: "constant", times: (0...100).map(Double.init), bandwidthsMbps: Array(repeating: mbps, count: 101))
    }

    /// A clip of `chunks` at three levels; the retention curve is not used when watch times are given.
    static func clip(_ name: String, level0: [Double], level1: [Double]? = nil) -> MMGC22Clip {
        let count = level0.count
        return MMGC22Clip(
            name: name, chunkBytes: [level0, level1 ?? level0.map({ $0 * 2 }), level0.map({ $0 * 3 })],
            retentionTimesMs: (0...count + 1).map({ Double($0) * 1000 }),
            retentionText: (0...count + 1).map({ $0 <= count ? "1" : "0" }),
            retention: (0...count + 1).map({ $0 <= count ? 1 : 0 }))
    }

    /// A policy that plays back a list of decisions, then sleeps 500 ms forever.
    struct Scripted: MMGC22PreloadPolicy {
        var decisions: [MMGC22Decision]
        var next = 0
        mutating func step() -> MMGC22Decision {
            defer { next += 1 }
            return next < decisions.count ? decisions[next] : MMGC22Decision(video: 0, level: 0, sleepMilliseconds: 500)
        }
        mutating func firstDecision(players: [MMGC22ClipPlayer]) -> MMGC22Decision { step() }
        mutating func decide(after outcome: MMGC22StepOutcome, players: [MMGC22ClipPlayer]) -> MMGC22Decision {
            var decision = step()
            if decision.sleepMilliseconds > 0 { decision.video = outcome.playVideoId }
            return decision
        }
    }

    static func download(_ video: Int, level: Int = 0) -> MMGC22Decision {
        MMGC22Decision(video: video, level: level, sleepMilliseconds: 0)
    }

    /// One clip (3 chunks: 95 000, 95 000, 150 000 bytes as fixed_preload picks levels 0, 0, 1) watched for
    /// 1500 ms: the first chunk is a 180 ms startup stall, the third (never played) is wasted.
    @Test(
        "one clip watched 1.5 s at 8 Mbit/s stalls 180 ms at startup, uses 340 000 bytes and wastes chunk 2's 150 000")
    func oneClipOnAConstantLinkHasExactStartupAndWaste() throws {
        let clip = Self.clip("a", level0: [95_000, 95_000, 95_000], level1: [150_000, 150_000, 150_000])
        let session = MMGC22Session(
            clips: [clip], watchTimes: [MMGC22Retention(watchMilliseconds: 1500)], trace: try Self.constantLink())
        var policy = MMGC22FixedPreload()
        let result = try session.run(policy: &policy, lastChunkLevels: [-1], recordSteps: true)
        let steps = result.stepRecords
        // download, download, download, then 500-ms sleeps until the user leaves at 1500 ms.
        #expect(steps.map({ $0.outcome.delayMilliseconds }) == [180, 180, 238, 500, 500, 500])
        #expect(steps.map({ $0.decision.level }).prefix(3) == [0, 0, 1])
        #expect(steps[0].outcome.rebufferMilliseconds == 180, "startup: nothing buffered while chunk 0 downloads")
        #expect(result.rebufferMilliseconds == 180)
        #expect(result.bandwidthUsageBytes == 340_000)
        #expect(result.wastedBytes == 150_000, "chunk 2 (from ⌈1.5⌉) was downloaded and never played")
        #expect(result.downloadWatchRatio == 3000.0 / 1500.0)
        // QoE: chunks 0 and 1 count (⌊1.5⌋ = 1), 750 kbit/s each, no switch; 180 ms of rebuffering.
        let qoe = (0.75 - 1.85 * 180 / 1000) + 0.75
        #expect(abs(result.qoe - qoe) < 1e-12)
        #expect(abs(result.score - (qoe - 0.5 * 340_000 * 8 / 1e6)) < 1e-12)
        #expect(result.lastChunkLevels == [0])
    }

    /// The user leaves clip 0 at 600 ms while its 950 000-byte chunk 1 is in flight: the chunk is counted as
    /// waste when the user leaves (it is past ⌈0.6⌉) and again when it arrives for a clip already left, as the
    /// challenge counts it; clip 1, with nothing buffered, stalls for the rest of the download.
    @Test("a swipe at 600 ms in a 1080 ms download counts its 950 000 bytes as waste twice; clip 1 then stalls 480 ms")
    func aSwipeDuringADownloadCountsTheAbandonedChunkAsWasteTwice() throws {
        let clips = [
            Self.clip("a", level0: [95_000, 950_000]), Self.clip("b", level0: [95_000, 95_000]),
        ]
        let session = MMGC22Session(
            clips: clips,
            watchTimes: [MMGC22Retention(watchMilliseconds: 600), MMGC22Retention(watchMilliseconds: 2000)],
            trace: try Self.constantLink())
        var policy = Scripted(decisions: [Self.download(0), Self.download(0), Self.download(1), Self.download(1)])
        let result = try session.run(policy: &policy, lastChunkLevels: [-1, -1], recordSteps: true)
        let abandoned = result.stepRecords[1].outcome
        #expect(abandoned.delayMilliseconds == 1080)
        #expect(abandoned.extraChunk && abandoned.endOfVideo && abandoned.playVideoId == 1)
        #expect(abandoned.wastedBytes == 2 * 950_000)
        #expect(abandoned.rebufferMilliseconds == 1080 - 600, "clip 1 stalls from the swipe to the end of the download")
        #expect(result.stepRecords[1].qualityKbps == 0, "chunk 1 is past ⌊0.6⌋: no quality counted")
        #expect(result.wastedBytes == 1_900_000)
        #expect(result.bandwidthUsageBytes == 95_000 + 950_000 + 95_000 + 95_000)
        #expect(result.extraDownloads == 1 && result.downloads == 4)
        #expect(result.rebufferMilliseconds == 180 + 480 + 180)
        #expect(result.downloadWatchRatio == 4000.0 / 2600.0)
    }

    /// Clip 1's only chunk is preloaded while clip 0 plays: when the user moves on, it starts with no stall, and
    /// its bytes are counted once.
    @Test("a preloaded clip starts with no stall when the user moves on, its bytes counted once: 190 000, none wasted")
    func aPreloadedClipStartsInZeroTimeAndItsBytesCountOnce() throws {
        let clips = [Self.clip("a", level0: [95_000]), Self.clip("b", level0: [95_000])]
        let session = MMGC22Session(
            clips: clips,
            watchTimes: [MMGC22Retention(watchMilliseconds: 1000), MMGC22Retention(watchMilliseconds: 1000)],
            trace: try Self.constantLink())
        var policy = Scripted(decisions: [Self.download(0), Self.download(1)])
        let result = try session.run(policy: &policy, lastChunkLevels: [-1, -1], recordSteps: true)
        let steps = result.stepRecords
        #expect(steps[0].outcome.rebufferMilliseconds == 180, "clip 0 had nothing buffered")
        // Sleeps: 180 + 500 + 320 ms of clip 0, then clip 1 plays from its preloaded chunk at once.
        let switchStep = try #require(steps.firstIndex(where: { $0.outcome.playVideoId == 1 }))
        #expect(steps[switchStep].outcome.rebufferMilliseconds == 0)
        #expect(result.rebufferMilliseconds == 180)
        #expect(result.bandwidthUsageBytes == 190_000)
        #expect(result.wastedBytes == 0)
        #expect(result.qualitySumKbps == 1500 && result.smoothKbps == 0)
    }

    /// A policy naming a clip outside the window, or a chunk past the end, is refused as the challenge asserts.
    @Test("a decision naming a clip outside the window or a chunk past the end is refused with a policy error")
    func decisionsOutsideTheWindowAreRefused() throws {
        let clips = [Self.clip("a", level0: [95_000]), Self.clip("b", level0: [95_000])]
        let session = MMGC22Session(
            clips: clips,
            watchTimes: [MMGC22Retention(watchMilliseconds: 1000), MMGC22Retention(watchMilliseconds: 1000)],
            trace: try Self.constantLink())
        var outside = Scripted(decisions: [Self.download(0), Self.download(2)])
        #expect(
            throws: MMGC22PolicyError(
                .outOfRange(what: "a clip", bound: "in the recommendation window 0…1", found: "2"))
        ) { try session.run(policy: &outside, lastChunkLevels: [-1, -1]) }
        var pastEnd = Scripted(decisions: [Self.download(0), Self.download(0)])
        #expect(throws: MMGC22PolicyError(.outOfRange(what: "a chunk of clip 0", bound: "in 0…0", found: "1"))) {
            try session.run(policy: &pastEnd, lastChunkLevels: [-1, -1])
        }
    }
}
