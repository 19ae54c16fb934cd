import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

// Ladder 1000/2000/4000 kbit/s, N = 3: bufferTime = max(18, 10 + 2·3) = 18 s, u = (1, 1 + ln2, 1 + 2 ln2),
// gp = 2 ln2 / (18/10 − 1) = 2.5 ln2, Vp = 10/gp = 4/ln2 s. Thresholds (no placeholder):
// Q01 = Vp(gp + (2·1 − 1·(1 + ln2))/1) = 10 + Vp(1 − ln2) = 6 + 4/ln2 ≈ 11.771 s,
// Q12 = Vp(gp + (4(1 + ln2) − 2(1 + 2 ln2))/2) = 10 + 4/ln2 ≈ 15.771 s;
// maxBufferLevel(q) = Vp(u_q + gp): 10 + 4/ln2, 14 + 4/ln2, 18 + 4/ln2.
private let vp = 4 / log(2.0)
private let q01 = 6 + vp
private let q12 = 10 + vp

@Suite("the BOLA-E policy")
struct BolaEPolicyTests {
    let content = PolicyBench.content([1000, 2000, 4000])

    func context(
        _ buffer: Double, time: Double, segment: Int, last: Int? = nil, maxVariant: Int? = nil,
        state: PlaybackState = .playing, afterSeek: Bool = false
    ) -> ABRContext {
        PolicyBench.context(
            content, buffer: buffer, time: time, segment: segment, maxVariant: maxVariant, lastVariant: last,
            state: state, afterSeek: afterSeek)
    }

    @Test("the gp, Vp and thresholds of BOLA-E are dash.js's for three and eight rungs, and one rung is always chosen")
    func parametersFollowDashjs() {
        let rule = BolaERule()
        rule.prepare(context(0, time: 0, segment: 0))
        #expect(abs(rule.gp - 2.5 * log(2.0)) < 1e-12)
        #expect(abs(rule.vp - vp) < 1e-12)
        #expect(abs(rule.minBufferLevel(for: 1) - q01) < 1e-9)
        #expect(abs(rule.minBufferLevel(for: 2) - q12) < 1e-9)  // max(Q02 = 10 + 4/ln2 − 8/3, Q12)
        #expect(abs(rule.maxBufferLevel(for: 2) - (18 + vp)) < 1e-9)
        // Eight variants: bufferTime = max(18, 10 + 16) = 26 s, so gp = (u_max − 1)/1.6.
        let wide = PolicyBench.content([100, 200, 400, 800, 1600, 3200, 6400, 12800])
        let eight = BolaERule()
        eight.prepare(PolicyBench.context(wide, buffer: 0))
        #expect(abs(eight.gp - 7 * log(2.0) / 1.6) < 1e-12)
        // One variant: ONE_BITRATE, always it.
        let single = BolaEPolicy()
        #expect(single.decide(PolicyBench.context(PolicyBench.content([800]), buffer: 50)) == .variant(0))
        #expect(single.rule.state == .oneBitrate)
    }

    @Test("the BOLA-E policy switches rung just either side of the hand-computed buffer thresholds, within the cap")
    func bolaSwitchesAtTheHandComputedThresholds() {
        let rule = BolaERule()
        rule.prepare(context(0, time: 0, segment: 0))
        #expect(rule.qualityFromBuffer(q01 - 0.01, upTo: 2) == 0)
        #expect(rule.qualityFromBuffer(q01 + 0.01, upTo: 2) == 1)
        #expect(rule.qualityFromBuffer(q12 - 0.01, upTo: 2) == 1)
        #expect(rule.qualityFromBuffer(q12 + 0.01, upTo: 2) == 2)
        #expect(rule.qualityFromBuffer(q12 + 0.01, upTo: 1) == 1)
    }

    @Test("the BOLA-E policy starts by throughput, carries idle time in its placeholder, and a stall or seek resets it")
    func startupUsesThroughputThenThePlaceholderCarriesOffTime() {
        let policy = BolaEPolicy(abandon: false)
        // No sample yet: dash.js's initial bitrate, the highest ≤ 1000 kbit/s.
        #expect(policy.decide(context(0, time: 0, segment: 0)) == .variant(0))
        policy.downloadFinished(
            PolicyBench.sample(bits: 4e6, bitsPerSecond: 3e6, done: 4.0 / 3),
            context: context(4, time: 4.0 / 3, segment: 1, last: 0))
        // STARTUP: 0.9 × 3 Mbit/s → variant 1; placeholder = Q01 − 4; buffer ≥ one segment → STEADY.
        #expect(policy.decide(context(4, time: 4.0 / 3, segment: 1)) == .variant(1))
        #expect(abs(policy.rule.placeholder - (q01 - 4)) < 1e-9)
        #expect(policy.rule.state == .steady)
        // Segment 1 (8 Mbit at 3 Mbit/s) lands at 4 s with 4 − 8/3 + 4 s buffered: placeholder × 0.99.
        policy.downloadFinished(
            PolicyBench.sample(bits: 8e6, bitsPerSecond: 3e6, done: 4),
            context: context(16.0 / 3, time: 4, segment: 2, last: 1))
        #expect(abs(policy.rule.placeholder - 0.99 * (q01 - 4)) < 1e-9)
        // Asked 2 s later (buffer 10/3 s): the 2 s join the placeholder, effective 10/3 + 0.99(Q01 − 4) + 2 ≈ 13.03 s
        // lies between Q01 and Q12 → variant 1 (the real buffer alone would give variant 0).
        #expect(policy.decide(context(10.0 / 3, time: 6, segment: 2)) == .variant(1))
        #expect(abs(policy.rule.placeholder - (0.99 * (q01 - 4) + 2)) < 1e-9)
        // An empty buffer (a stall) clears the placeholder.
        _ = policy.downloadProgress(
            DownloadProgress(
                segment: 2, variant: 1, totalBits: 8e6, receivedBits: 1e6, requestTime: 6, firstByteTime: 6, time: 7),
            context: context(0, time: 7, segment: 3, state: .buffering))
        #expect(policy.rule.placeholder == 0)
        // A seek sends it back to STARTUP: throughput choice, placeholder = Q01 − buffer.
        #expect(policy.decide(context(0, time: 10, segment: 9, afterSeek: true)) == .variant(1))
        #expect(policy.rule.state == .startup)
        #expect(abs(policy.rule.placeholder - q01) < 1e-9)
    }

    /// A policy in STEADY at variant 0 with a 1.5 Mbit/s estimate, its last download finished at 16/3 s.
    func steadyAtLowest(maxVariant: Int? = nil) -> BolaEPolicy {
        let policy = BolaEPolicy(abandon: false)
        _ = policy.decide(context(0, time: 0, segment: 0))
        policy.downloadFinished(
            PolicyBench.sample(bits: 4e6, bitsPerSecond: 1.5e6, done: 8.0 / 3),
            context: context(4, time: 8.0 / 3, segment: 1, last: 0))
        #expect(policy.decide(context(4, time: 8.0 / 3, segment: 1)) == .variant(0))  // 1.35 Mbit/s → 0, placeholder 0
        policy.downloadFinished(
            PolicyBench.sample(bits: 4e6, bitsPerSecond: 1.5e6, done: 16.0 / 3),
            context: context(20, time: 16.0 / 3, segment: 2, last: 0))
        return policy
    }

    @Test("the BOLA-O policy keeps the sustainable rung and delays the request by the hand-computed wait")
    func bolaOHoldsTheSustainableVariantAndDelaysTheRequest() {
        let policy = steadyAtLowest()
        // Buffer 20 s: BOLA alone says 2, but 2 is above both the last (0) and the sustainable (0) variant, so
        // BOLA-O keeps 0; delay = 20 − maxBufferLevel(0) = 20 − (10 + 4/ln2) ≈ 4.229 s.
        let first = policy.decide(context(20, time: 16.0 / 3, segment: 2))
        guard case .wait(let delay) = first else {
            Issue.record("expected a download delay, got \(first)")
            return
        }
        #expect(abs(delay - (10 - vp)) < 1e-9)
        // After the delay the placeholder holds the waited time, absorbs the same delay, and the request goes out.
        #expect(policy.decide(context(20 - delay, time: 16.0 / 3 + delay, segment: 2)) == .variant(0))
        #expect(abs(policy.rule.placeholder) < 1e-9)
    }

    @Test("the BOLA-E policy requests at once when the cap makes the current rung the top allowed one")
    func noDelayAtTheTopAllowedVariant() {
        let policy = steadyAtLowest()
        #expect(policy.decide(context(20, time: 16.0 / 3, segment: 2, maxVariant: 0)) == .variant(0))
    }

    @Test("abandoning a crawling download to the lowest rung shrinks BOLA-E's placeholder to 10 s less the buffer")
    func abandonmentShrinksThePlaceholder() {
        let policy = BolaEPolicy()
        _ = policy.decide(context(0, time: 0, segment: 0))
        policy.downloadFinished(
            PolicyBench.sample(bits: 4e6, bitsPerSecond: 3e6, done: 4.0 / 3),
            context: context(4, time: 4.0 / 3, segment: 1, last: 0))
        _ = policy.decide(context(4, time: 4.0 / 3, segment: 1))  // placeholder Q01 − 4 ≈ 7.77
        // Segment 1 at variant 1 (8 Mbit) crawls at 0.5 Mbit/s: at 0.6 s after its first byte, six reports, 8/0.5 =
        // 16 s ≥ 1.8 × 4 s, target ≤ 0.45 Mbit/s → 0, 7.7 Mbit left > 8 × 1000/2000 → abandon to 0, and the
        // placeholder shrinks to 10 s (MINIMUM_BUFFER_S, the target being the lowest) − buffer 3.4 s = 6.6 s.
        var decision = ProgressDecision.keepGoing
        for k in 1...6 {
            let time = 4.0 / 3 + 0.1 * Double(k)
            decision = policy.downloadProgress(
                DownloadProgress(
                    segment: 1, variant: 1, totalBits: 8e6, receivedBits: 0.5e6 * 0.1 * Double(k),
                    requestTime: 4.0 / 3, firstByteTime: 4.0 / 3, time: time),
                context: context(4 - 0.1 * Double(k), time: time, segment: 2))
        }
        #expect(decision == .abandon(switchTo: 0))
        #expect(abs(policy.rule.placeholder - 6.6) < 1e-9)
    }

    @Test("the BOLA-E policy never chooses above the cap over 300 random capped contexts, yet downloads and plays")
    func neverExceedsTheCapYetDownloadsAndPlays() throws {
        var downloads = 0
        var atCap = 0
        let ladder = PolicyBench.content([300, 750, 1200, 1850, 2850, 4300])
        let policy = BolaEPolicy()
        let random = RandomSource(seed: 11)
        for (index, context) in PolicyBench.cappedContexts(ladder, count: 300, seed: 3).enumerated() {
            if case .variant(let v) = policy.decide(context) {
                #expect(v <= context.maxVariant)
                downloads += 1
                if v == context.maxVariant { atCap += 1 }
            }
            let rate = 5e5 + 6e6 * random.uniform()
            policy.downloadFinished(
                PolicyBench.sample(bits: 4 * rate, bitsPerSecond: rate, done: Double(index) + 0.5), context: context)
        }
        // A policy that always waited would pass the cap check: it must download (279 of these seeded 300
        // contexts, 192 of them at the cap), and play a 10-segment title of 4 s segments through on a steady
        // 3 Mbit/s link: 40 s played, no stall.
        #expect(downloads == 279)
        #expect(atCap == 192)
        let title = try PolicyBench.steadyTitle(BolaEPolicy())
        #expect(title.segments == Set(0..<10) && title.playedSeconds == 40 && title.stallCount == 0)
    }

    @Test(
        "when the link collapses BOLA-E abandons the segment in flight, refetches it lower and stalls less than without"
    )
    func abandonsWhenTheLinkCollapsesMidDownload() throws {
        // 5 Mbit/s for 30 s, then 0.4 Mbit/s: the segment in flight at the collapse (or the next) is abandoned and
        // fetched again lower; without the rule nothing is abandoned and the stalls are longer.
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 20)
        let curve = try CapacityCurve(starts: [0, 30], ratesBps: [5_000_000, 400_000], duration: 1000)
        let (segments, totals) = PolicyBench.run(BolaEPolicy(), content: ladder, curve: curve)
        let abandoned = try #require(segments.firstIndex { $0.abandoned })
        #expect(segments[abandoned].requestTime < 31 && segments[abandoned].doneTime > 30)
        let retry = segments[abandoned + 1]
        #expect(retry.segment == segments[abandoned].segment && retry.variant < segments[abandoned].variant)
        let (plain, plainTotals) = PolicyBench.run(BolaEPolicy(abandon: false), content: ladder, curve: curve)
        #expect(!plain.contains { $0.abandoned })
        #expect(totals.stallSeconds < plainTotals.stallSeconds)
    }

    @Test("the BOLA-E policy on a steady 5 Mbit/s link never stalls and plays the last 20 segments at the top")
    func reachesTheTopOnASteadyLinkWithoutStalls() throws {
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 40)
        let curve = try CapacityCurve(starts: [0], ratesBps: [5_000_000], duration: 1000)
        let (segments, totals) = PolicyBench.run(BolaEPolicy(), content: ladder, curve: curve)
        #expect(totals.stallCount == 0)
        #expect(segments.suffix(20).allSatisfy { $0.variant == 3 })
    }
}

@Suite("dash.js's abandon rule")
struct DashAbandonRuleTests {
    let content = PolicyBench.content([1000, 2000, 4000])

    /// Reports k = 1…`checks` every 0.1 s of a download of `totalBits` at `variant` arriving at `rate` bit/s.
    func reports(
        rate: Double, checks: Int, variant: Int = 2, totalBits: Double = 16e6, buffer: Double = 10,
        ladder: Content? = nil, rule: inout DashAbandonRule
    ) -> [ProgressDecision] {
        (1...checks).map { k in
            let t = 0.1 * Double(k)
            return rule.evaluate(
                DownloadProgress(
                    segment: 3, variant: variant, totalBits: totalBits, receivedBits: min(rate * t, totalBits),
                    requestTime: 0, firstByteTime: 0, time: t),
                context: PolicyBench.context(ladder ?? content, buffer: buffer, time: t, segment: 4))
        }
    }

    @Test("dash.js's abandon rule fires once, at the sixth report after the grace time, when the download is too slow")
    func abandonsAfterGraceAndSixSamplesWhenTooSlow() {
        // 16 Mbit at 2.2 Mbit/s: 7.27 s ≥ 1.8 × 4 s. At 0.6 s: six samples, > 0.5 s; target ≤ 1.98 Mbit/s → 0;
        // left 16 − 1.32 = 14.68 Mbit > 16 × 1000/4000 = 4 Mbit → abandon to 0. Once per segment.
        var rule = DashAbandonRule()
        let decisions = reports(rate: 2.2e6, checks: 8, rule: &rule)
        #expect(decisions.prefix(5).allSatisfy { $0 == .keepGoing })
        #expect(decisions[5] == .abandon(switchTo: 0))
        #expect(decisions.dropFirst(6).allSatisfy { $0 == .keepGoing })
    }

    @Test("dash.js's abandon rule keeps a download that will finish within 1.8 segment durations")
    func keepsGoingWhenTheDownloadFitsInOnePointEightSegments() {
        var rule = DashAbandonRule()
        // 16 Mbit at 2.3 Mbit/s: 6.96 s < 7.2 s.
        #expect(reports(rate: 2.3e6, checks: 30, rule: &rule).allSatisfy { $0 == .keepGoing })
    }

    @Test("dash.js's abandon rule never fires above 18 s of buffer or for the lowest rung")
    func staysIdleAboveBufferTimeDefaultAndAtTheLowestVariant() {
        var high = DashAbandonRule()
        #expect(reports(rate: 1e6, checks: 20, buffer: 18.5, rule: &high).allSatisfy { $0 == .keepGoing })
        var lowest = DashAbandonRule()
        #expect(
            reports(rate: 1e5, checks: 20, variant: 0, totalBits: 4e6, rule: &lowest).allSatisfy { $0 == .keepGoing })
    }

    @Test("dash.js's abandon rule switches to the rung the measured throughput carries")
    func targetsTheVariantTheMeasuredThroughputCarries() {
        // Ladder 1000/2000/3000/6000, variant 3 = 24 Mbit at 3 Mbit/s: 8 s ≥ 7.2 s; target ≤ 2.7 Mbit/s → 1;
        // left 24 − 1.8 = 22.2 Mbit > 24 × 2000/6000 = 8 Mbit → abandon to 1.
        var rule = DashAbandonRule()
        let ladder = PolicyBench.content([1000, 2000, 3000, 6000])
        let decisions = reports(rate: 3e6, checks: 6, variant: 3, totalBits: 24e6, ladder: ladder, rule: &rule)
        #expect(decisions.last == .abandon(switchTo: 1))
    }

    @Test("dash.js's abandon rule keeps a download when fewer bits are left than the lower rung would cost")
    func keepsGoingWhenLessIsLeftThanTheTargetWouldCost() {
        // 13 of 16 Mbit in after 9 s (1.444 Mbit/s): 11.1 s ≥ 7.2 s, target 0 costs 4 Mbit > 3 Mbit left.
        var rule = DashAbandonRule()
        let rate = 13e6 / 9
        let decisions = (85...90).map { k in
            let t = 0.1 * Double(k)
            return rule.evaluate(
                DownloadProgress(
                    segment: 3, variant: 2, totalBits: 16e6, receivedBits: rate * t, requestTime: 0, firstByteTime: 0,
                    time: t),
                context: PolicyBench.context(content, buffer: 10, time: t, segment: 4))
        }
        #expect(decisions.allSatisfy { $0 == .keepGoing })
    }
}
