import Testing

@testable import ABRSim

@Suite("the FESTIVE policy")
struct FestivePolicyTests {
    // Ladder 1000/2000/3000 kbit/s, α = 12, safety 0.85; window 1 so the estimate is the last sample.
    let content = PolicyBench.content([1000, 2000, 3000], segments: 40)

    func festive(seed: UInt64 = 1) -> FestivePolicy {
        FestivePolicy(window: 1, random: RandomSource(seed: seed))
    }

    /// Decides at `time` with an empty buffer (never above the drawn target), after a sample at `rate` if given.
    func step(_ policy: FestivePolicy, at time: Double, segment: Int, rate: Double?) -> ABRDecision {
        if let rate {
            policy.downloadFinished(
                PolicyBench.sample(bits: 4e6, bitsPerSecond: rate, done: time),
                context: PolicyBench.context(content, buffer: 0, time: time, segment: segment))
        }
        return policy.decide(PolicyBench.context(content, buffer: 0, time: time, segment: segment))
    }

    @Test(
        "the FESTIVE policy moves one rung at a time, only after enough segments want it, as its hand-computed costs say"
    )
    func gradualSwitchingAndDelayedUpdateByHand() {
        let policy = festive()
        // t 0: no sample → lowest.
        #expect(step(policy, at: 0, segment: 0, rate: nil) == .variant(0))
        // t 1, w 2.5: target ≤ 2.125 → 1; count 1 > 0 → ref 1; n = 0: stay 1 + 12|1/2 − 1| = 7, move 2 + 0 = 2 → 1.
        #expect(step(policy, at: 1, segment: 1, rate: 2.5e6) == .variant(1))
        // t 2, w 5: target 2 (4.25 ≥ 3); count 1, not > 1 → stay 1.
        #expect(step(policy, at: 2, segment: 2, rate: 5e6) == .variant(1))
        // t 3: count 2 > 1 → ref 2; n = 1: stay 2 + 12|2/3 − 1| = 6, move 4 + 0 = 4 → 2.
        #expect(step(policy, at: 3, segment: 3, rate: 5e6) == .variant(2))
        // t 4, w 3: target ≤ 2.55 → 1, ref 1 at once; n = 2: stay 4 + 12|3/2 − 1| = 10, move 8 + 0 = 8 → 1.
        #expect(step(policy, at: 4, segment: 4, rate: 3e6) == .variant(1))
        // t 5, w 5: count restarts at 1 → stay. t 6, 7: ref 2 but n = 3: stay 8 + 4 = 12 < move 16 → stay.
        #expect(step(policy, at: 5, segment: 5, rate: 5e6) == .variant(1))
        #expect(step(policy, at: 6, segment: 6, rate: 5e6) == .variant(1))
        #expect(step(policy, at: 7, segment: 7, rate: 5e6) == .variant(1))
        // t 30: the switches at 1, 3, 4 s are older than 20 s, n = 0: stay 1 + 4 = 5 > move 2 → 2.
        #expect(step(policy, at: 30, segment: 8, rate: 5e6) == .variant(2))
    }

    @Test("the stability cost of recent switches holds FESTIVE at its rung when the scores tie")
    func stabilityCostCanHoldADownSwitch() {
        // From 2 with w = 3 Mbit/s (target 1): stay 2^n + 6 versus move 2^(n+1): down for n ≤ 2, held for n = 3.
        let policy = festive()
        _ = step(policy, at: 0, segment: 0, rate: nil)  // 0
        _ = step(policy, at: 1, segment: 1, rate: 2.5e6)  // 1
        _ = step(policy, at: 2, segment: 2, rate: 5e6)  // 1
        _ = step(policy, at: 3, segment: 3, rate: 5e6)  // 2 (n was 1)
        _ = step(policy, at: 4, segment: 4, rate: 3e6)  // 1 (n was 2)
        _ = step(policy, at: 50, segment: 5, rate: 5e6)  // 1, count 1
        #expect(step(policy, at: 51, segment: 6, rate: 5e6) == .variant(2))  // n = 0 within 20 s of 51: 5 > 2
        // n = 1 (1→2 at 51): 2 + 6 = 8 > 4 → down.
        #expect(step(policy, at: 52, segment: 7, rate: 3e6) == .variant(1))
        _ = step(policy, at: 53, segment: 8, rate: 5e6)  // count 1
        // n = 2: stay 4 + 4 = 8 ≤ move 8 → held at 1 (ties keep the current variant).
        #expect(step(policy, at: 54, segment: 9, rate: 5e6) == .variant(1))
    }

    @Test("the FESTIVE policy waits until the buffer drains to a target drawn once per segment within 4 s below 30 s")
    func randomisedTargetBufferDelaysTheRequest() {
        // Target drawn once per segment uniformly in [30 − 4, 30]: the same draw as a twin generator's first uniform.
        let policy = festive(seed: 42)
        let twin = RandomSource(seed: 42)
        let target = 30 - 4 * twin.uniform()
        let full = PolicyBench.context(content, buffer: 29.9, time: 0, segment: 5)
        let first = policy.decide(full)
        if 29.9 > target {
            #expect(first == .wait(seconds: 29.9 - target))
        } else {
            #expect(first == .variant(0))
        }
        #expect(policy.scheduledTarget(full) == target)
        guard case .wait(let seconds) = policy.decide(PolicyBench.context(content, buffer: 40, segment: 5)) else {
            Issue.record("a buffer above the player's target must wait")
            return
        }
        #expect(seconds == 40 - target)
        #expect(policy.decide(PolicyBench.context(content, buffer: 25.9, segment: 5)) == .variant(0))
        // The next segment draws again.
        let next = 30 - 4 * twin.uniform()
        #expect(policy.scheduledTarget(PolicyBench.context(content, buffer: 0, segment: 6)) == next)
    }

    @Test("policy random streams differ between players and seeds and repeat for the same pair")
    func playersGetDistinctRandomStreams() {
        func draws(seed: UInt64, player: Int) -> [Double] {
            let random = RandomSource(seed: seed, stream: .policy(0xFE57, player: player))
            return (0..<4).map { _ in random.uniform() }
        }
        let a = draws(seed: 1, player: 0)
        let b = draws(seed: 1, player: 1)
        let c = draws(seed: 2, player: 0)
        #expect(a != b && a != c && b != c)
        #expect(a == draws(seed: 1, player: 0))
    }

    @Test("the FESTIVE policy never chooses above the cap over 300 random capped contexts, yet downloads and plays")
    func neverExceedsTheCapYetDownloadsAndPlays() throws {
        var downloads = 0
        var atCap = 0
        let ladder = PolicyBench.content([300, 750, 1200, 1850, 2850, 4300])
        let policy = FestivePolicy(random: RandomSource(seed: 3))
        let random = RandomSource(seed: 8)
        for (index, context) in PolicyBench.cappedContexts(ladder, count: 300, seed: 4).enumerated() {
            if case .variant(let v) = policy.decide(context) {
                #expect(v <= context.maxVariant)
                downloads += 1
                if v == context.maxVariant { atCap += 1 }
            }
            let rate = 5e5 + 6e6 * random.uniform()
            policy.downloadFinished(
                PolicyBench.sample(bits: 4 * rate, bitsPerSecond: rate, done: Double(index) + 0.5), context: context)
        }
        // A policy that always waited would pass the cap check: it must download (207 of these seeded 300
        // contexts, 71 of them at the cap), and play a 10-segment title of 4 s segments through on a steady
        // 3 Mbit/s link: 40 s played, no stall.
        #expect(downloads == 207)
        #expect(atCap == 71)
        let title = try PolicyBench.steadyTitle(FestivePolicy(random: RandomSource(seed: 3)))
        #expect(title.segments == Set(0..<10) && title.playedSeconds == 40 && title.stallCount == 0)
    }

    @Test("on a 4 Mbit/s link FESTIVE climbs 0, 1, 1, 2, holds the top, never stalls and waits for varied targets")
    func climbsToTheSustainableTopOnASteadyLinkWithoutStalls() throws {
        // 4 Mbit/s: 0.85 × 4 = 3.4 Mbit/s carries 3000 kbit/s. Level i needs i + 1 segments wanting up, so the
        // climb 0 → 1 → 2 takes 1 + 2 segments after the first; then it holds the top.
        let curve = try CapacityCurve(starts: [0], ratesBps: [4_000_000], duration: 1000)
        let policy = FestivePolicy(random: RandomSource(seed: 9))
        let (segments, totals) = PolicyBench.run(policy, content: content, curve: curve)
        #expect(totals.stallCount == 0)
        #expect(segments.prefix(4).map(\.variant) == [0, 1, 1, 2])
        #expect(segments.dropFirst(3).allSatisfy { $0.variant == 2 })
        // Randomised scheduling: every request that waited went out at its drawn target, within one segment
        // (4 s) below the player's 30 s, and the targets differ.
        let delayed = zip(segments, segments.dropFirst()).filter { $1.requestTime > $0.doneTime + 1e-6 }.map(\.1)
        #expect(delayed.count > 10)
        #expect(delayed.allSatisfy { $0.bufferBeforeSeconds >= 26 - 1e-6 && $0.bufferBeforeSeconds <= 30 + 1e-6 })
        #expect(Set(delayed.map { ($0.bufferBeforeSeconds * 1000).rounded() }).count > 5)
    }

    @Test("the registry builds festive with its window, alpha, target buffer and spread")
    func registryBuildsItWithParameters() throws {
        let spec = try PolicySpec.parse("festive(window=20,alpha=6,targetBuffer=20,spread=2)")
        let made = try PolicyRegistry.builtIn.makePolicy(spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        let policy = try #require(made as? FestivePolicy)
        #expect(policy.window == 20 && policy.alpha == 6 && policy.targetBuffer == 20 && policy.spread == 2)
    }
}
