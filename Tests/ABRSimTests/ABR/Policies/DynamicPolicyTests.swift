import Testing

@testable import ABRSim

@Suite("the DYNAMIC policy")
struct DynamicPolicyTests {
    let content = PolicyBench.content([1000, 2000, 4000])

    func context(_ buffer: Double, segment: Int, afterSeek: Bool = false, maxVariant: Int? = nil) -> ABRContext {
        PolicyBench.context(
            content, buffer: buffer, time: Double(segment), segment: segment, maxVariant: maxVariant,
            afterSeek: afterSeek)
    }

    /// Feeds one 4 Mbit download at 4 Mbit/s (the dual EWMA then estimates exactly 4 Mbit/s).
    func finish(_ policy: DynamicPolicy, segment: Int) {
        policy.downloadFinished(
            PolicyBench.sample(bits: 4e6, bitsPerSecond: 4e6, done: Double(segment) + 1),
            context: PolicyBench.context(content, buffer: 30, time: Double(segment) + 1, segment: segment + 1))
    }

    @Test("the DYNAMIC policy switches to BOLA at 18 s of buffer and back to throughput below 9 s")
    func switchesToBolaAtBufferTimeDefaultAndBackBelowHalf() {
        let policy = DynamicPolicy()
        for (buffer, expected) in [(17.9, false), (18, true), (9.1, true), (8.9, false), (17, false), (18.5, true)] {
            policy.observeBuffer(buffer)
            #expect(policy.usingBola == expected, "buffer \(buffer)")
        }
    }

    @Test("the insufficient-buffer rule caps DYNAMIC's throughput choice, except at the start and after a seek")
    func throughputRuleCappedByInsufficientBufferRule() {
        let policy = DynamicPolicy(abandon: false)
        // No sample, empty buffer: no rule has an opinion → dash.js's initial bitrate, highest ≤ 1000 kbit/s.
        #expect(policy.decide(context(0, segment: 0)) == .variant(0))
        finish(policy, segment: 0)
        // Throughput: 0.9 × 4 = 3.6 Mbit/s → 1; InsufficientBufferRule still ignored (one segment loaded).
        #expect(policy.decide(context(2, segment: 1)) == .variant(1))
        finish(policy, segment: 1)
        // Now the cap 4 Mbit/s × 0.7 × buffer / 4 s reaches 2 Mbit/s at buffer 2/0.7 ≈ 2.857 s.
        #expect(policy.decide(context(2.85, segment: 2)) == .variant(0))
        #expect(policy.decide(context(2.86, segment: 2)) == .variant(1))
        // Empty buffer (< 0.3 s): ThroughputRule abstains, InsufficientBufferRule says lowest.
        #expect(policy.decide(context(0.2, segment: 2)) == .variant(0))
        // After a seek the InsufficientBufferRule is ignored again: buffer 1 s would cap at 0.7 Mbit/s → 0.
        #expect(policy.decide(context(1, segment: 8, afterSeek: true)) == .variant(1))
    }

    @Test("above 18 s DYNAMIC follows BOLA, and an 8 s buffer before the next download returns it to throughput")
    func bolaTakesOverAboveEighteenSeconds() {
        let policy = DynamicPolicy(abandon: false)
        _ = policy.decide(context(0, segment: 0))
        finish(policy, segment: 0)
        _ = policy.decide(context(4, segment: 1))
        finish(policy, segment: 1)
        // Buffer 18 s: BOLA (STARTUP: throughput choice 1); InsufficientBufferRule allows 4 × 0.7 × 18/4 = 12.6 → 2.
        #expect(policy.decide(context(18, segment: 2)) == .variant(1))
        #expect(policy.usingBola)
        #expect(policy.bola.state == .steady)
        // The pre-append buffer of the next download is what DYNAMIC sees last: 8 s → back to the ThroughputRule.
        policy.downloadFinished(
            PolicyBench.sample(bits: 8e6, bitsPerSecond: 4e6, done: 20),
            context: PolicyBench.context(content, buffer: 12, time: 20, segment: 3, lastVariant: 1))
        #expect(!policy.usingBola)
    }

    @Test("the DYNAMIC policy never chooses above the cap over 300 random capped contexts, yet downloads and plays")
    func neverExceedsTheCapYetDownloadsAndPlays() throws {
        var downloads = 0
        var atCap = 0
        let ladder = PolicyBench.content([300, 750, 1200, 1850, 2850, 4300])
        let policy = DynamicPolicy()
        let random = RandomSource(seed: 5)
        for (index, context) in PolicyBench.cappedContexts(ladder, count: 300, seed: 9).enumerated() {
            if case .variant(let v) = policy.decide(context) {
                #expect(v <= context.maxVariant)
                downloads += 1
                if v == context.maxVariant { atCap += 1 }
            }
            let rate = 5e5 + 6e6 * random.uniform()
            policy.downloadFinished(
                PolicyBench.sample(bits: 4 * rate, bitsPerSecond: rate, done: Double(index) + 0.5), context: context)
        }
        // A policy that always waited would pass the cap check: it must download (288 of these seeded 300
        // contexts, 232 of them at the cap), and play a 10-segment title of 4 s segments through on a steady
        // 3 Mbit/s link: 40 s played, no stall.
        #expect(downloads == 288)
        #expect(atCap == 232)
        let title = try PolicyBench.steadyTitle(DynamicPolicy())
        #expect(title.segments == Set(0..<10) && title.playedSeconds == 40 && title.stallCount == 0)
    }

    @Test("the DYNAMIC policy on a steady 5 Mbit/s link never stalls, passes 18 s of buffer and ends at the top")
    func reachesTheTopOnASteadyLinkWithoutStalls() throws {
        // 5 Mbit/s: 0.9 × 5 = 4.5 Mbit/s carries 4000 kbit/s; the buffer passes 18 s and BOLA keeps the top.
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 40)
        let curve = try CapacityCurve(starts: [0], ratesBps: [5_000_000], duration: 1000)
        let policy = DynamicPolicy()
        let (segments, totals) = PolicyBench.run(policy, content: ladder, curve: curve)
        #expect(totals.stallCount == 0)
        #expect(segments.suffix(30).allSatisfy { $0.variant == 3 })
        #expect(segments.contains { $0.bufferBeforeSeconds >= 18 })
    }

    @Test("when the link collapses DYNAMIC abandons the download in flight and refetches it at a lower rung")
    func abandonsWhenTheLinkCollapsesMidDownload() throws {
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 20)
        let curve = try CapacityCurve(starts: [0, 30], ratesBps: [5_000_000, 400_000], duration: 1000)
        let (segments, _) = PolicyBench.run(DynamicPolicy(), content: ladder, curve: curve)
        let abandoned = try #require(segments.firstIndex { $0.abandoned })
        #expect(segments[abandoned].doneTime > 30)
        #expect(segments[abandoned + 1].variant < segments[abandoned].variant)
    }

    @Test("the registry builds dynamic with its buffer time, safety and abandon switch, and refuses abandon=2")
    func registryBuildsItWithParameters() throws {
        let spec = try PolicySpec.parse("dynamic(bufferTimeDefault=12,safety=0.8,abandon=0)")
        let made = try PolicyRegistry.builtIn.makePolicy(spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        let policy = try #require(made as? DynamicPolicy)
        #expect(policy.bufferTimeDefault == 12 && policy.safety == 0.8 && policy.progressCheckInterval == nil)
        #expect(throws: InputError.self) {
            try PolicyRegistry.builtIn.makePolicy(
                PolicySpec.parse("bola-e(abandon=2)"), environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        }
    }
}
