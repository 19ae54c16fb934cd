import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// Hand-built contexts and short simulations shared by the BOLA, BOLA-E, DYNAMIC and FESTIVE tests.
enum PolicyBench {
    /// Constant-bitrate content: `ladderKbps`, 4 s segments.
    static func content(_ ladderKbps: [Double], segments: Int = 20) -> Content {
        try! Content.constantBitrate(ladderKbps: ladderKbps, segmentSeconds: 4, segmentCount: segments)
    }

    /// A decision context at `time` with `buffer` seconds buffered (target `target` s, playing at rate 1).
    static func context(
        _ content: Content, buffer: Double, time: Double = 0, segment: Int = 0, target: Double = 30,
        maxVariant: Int? = nil, lastVariant: Int? = nil, state: PlaybackState = .playing, afterSeek: Bool = false,
        history: ThroughputHistory = ThroughputHistory()
    ) -> ABRContext {
        ABRContext(
            time: time, segmentIndex: segment, content: content, bufferSeconds: buffer, bufferTargetSeconds: target,
            playbackState: state, playbackRate: 1, lastVariant: lastVariant,
            maxVariant: maxVariant ?? content.variantCount - 1, startVariant: 0, history: history,
            isAfterSeek: afterSeek)
    }

    /// A download of `bits` at `bitsPerSecond` that finished at `done` (no latency).
    static func sample(bits: Double, bitsPerSecond: Double, done: Double) -> ThroughputSample {
        ThroughputSample(
            bits: bits, requestTime: done - bits / bitsPerSecond, firstByteTime: done - bits / bitsPerSecond,
            doneTime: done)
    }

    /// Runs one player with `policy` over `curve` (no RTT unless the curve has one) and returns its records.
    static func run(_ policy: any ABRPolicy, content: Content, curve: CapacityCurve, target: Double = 30)
        -> (segments: [SegmentRecord], totals: PlayerTotals)
    {
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = target
        let player = PlayerConfiguration(
            id: "p", content: content, policy: policy, policyLabel: "test", settings: settings,
            estimator: LastSampleEstimator())
        let result = Simulation(curve: curve, players: [player]).run()
        return (result.segments[0], result.totals[0])
    }

    /// Plays a 10-segment title of 4 s segments on the cap tests' ladder over a steady 3 Mbit/s link, for the cap
    /// tests (a policy that only ever waited would play nothing): the segments downloaded whole, the seconds
    /// played and the stalls.
    static func steadyTitle(_ policy: any ABRPolicy) throws -> (
        segments: Set<Int>, playedSeconds: Double, stallCount: Int
    ) {
        let (segments, totals) = run(
            policy, content: content([300, 750, 1200, 1850, 2850, 4300], segments: 10),
            curve: try CapacityCurve(starts: [0], ratesBps: [3_000_000], duration: 1000))
        return (Set(segments.filter { !$0.abandoned }.map(\.segment)), totals.playedSeconds, totals.stallCount)
    }

    /// Random contexts with `maxVariant` below the top, for the cap tests.
    static func cappedContexts(_ content: Content, count: Int, seed: UInt64) -> [ABRContext] {
        let random = RandomSource(seed: seed)
        return (0..<count).map { index in
            context(
                content, buffer: 40 * random.uniform(), time: Double(index), segment: index % content.segmentCount,
                maxVariant: random.integer(below: content.variantCount - 1),
                lastVariant: random.integer(below: content.variantCount))
        }
    }
}

@Suite("the BOLA policy")
struct BolaPolicyTests {
    // Ladder 1000/2000/4000 kbit/s, p = 4 s, Bmin = 10 s, Bmax = 30 s. v = (0, ln 2, 2 ln 2),
    // v_1·b_0/(b_1 − b_0) = ln 2, Vp = (30 − 4 − 10)/(2 ln 2 + ln 2) = 16/(3 ln 2) s,
    // γp = 10/Vp + ln 2 = ln 2 · 46/16. Thresholds: Q01 = 10 s, Q12 = Vp(γp + (4 ln2 − 2·2 ln2)/2) = Vp·γp = 46/3 s,
    // top objective zero at Vp(2 ln 2 + γp) = 16/3 · 78/16 = 26 s.
    let content = PolicyBench.content([1000, 2000, 4000])
    let policy = BolaPolicy(minimumBuffer: 10, maximumBuffer: 30)

    func choice(_ buffer: Double, maxVariant: Int? = nil) -> ABRDecision {
        policy.decide(PolicyBench.context(content, buffer: buffer, maxVariant: maxVariant))
    }

    @Test("the Vp and γp of BOLA put the first threshold at the 10 s minimum buffer and the top's zero at 26 s")
    func parametersPutTheThresholdsAtTheBufferBounds() {
        let p = policy.parameters(for: PolicyBench.context(content, buffer: 0))
        #expect(abs(p.vp - 16 / (3 * log(2.0))) < 1e-12)
        #expect(abs(p.gammaP - log(2.0) * 46 / 16) < 1e-12)
        #expect(abs(p.threshold(0, 1, sizes: 1, 2) - 10) < 1e-9)
        #expect(abs(p.threshold(1, 2, sizes: 2, 4) - 46.0 / 3) < 1e-9)
        #expect(abs(p.zeroObjectiveBuffer(2) - 26) < 1e-9)
    }

    @Test("the BOLA policy changes rung just either side of the hand-computed 10 s and 46/3 s thresholds")
    func switchesAtTheHandComputedThresholds() {
        #expect(choice(0) == .variant(0))
        #expect(choice(9.99) == .variant(0))
        #expect(choice(10.01) == .variant(1))
        #expect(choice(46.0 / 3 - 0.01) == .variant(1))
        #expect(choice(46.0 / 3 + 0.01) == .variant(2))
        #expect(choice(25.99) == .variant(2))
    }

    @Test("above 26 s BOLA waits until the buffer drains to it, at the playback rate")
    func waitsUntilTheBufferDrainsToTheTopVariantsZero() {
        guard case .wait(let seconds) = choice(27) else {
            Issue.record("expected a wait above 26 s")
            return
        }
        #expect(abs(seconds - 1) < 1e-9)
        var fast = PolicyBench.context(content, buffer: 28)
        fast.playbackRate = 2
        guard case .wait(let drained) = policy.decide(fast) else {
            Issue.record("expected a wait")
            return
        }
        #expect(abs(drained - 1) < 1e-9)  // 2 s of media above 26 s drain in 1 s at rate 2
    }

    @Test("under a cap BOLA waits above the capped rung's zero at 62/3 s")
    func aCapStopsAtTheCappedVariantsZero() {
        // With maxVariant 1 the highest allowed objective is zero at Vp(ln 2 + γp) = 16/3 · 62/16 = 62/3 s.
        #expect(choice(20, maxVariant: 1) == .variant(1))
        guard case .wait(let seconds) = choice(21, maxVariant: 1) else {
            Issue.record("expected a wait above 62/3 s")
            return
        }
        #expect(abs(seconds - (21 - 62.0 / 3)) < 1e-9)
    }

    @Test("on variable-bitrate content BOLA chooses differently scoring actual segment sizes than declared bitrates")
    func segmentSizesChangeTheChoiceForVariableBitrateContent() throws {
        // Next segment: 4, 8, 8.8 Mbit. Zeros at 46/3, 62/3, 26 s. At Q = 12 s the declared bitrates score
        // 3.33/1, 8.67/2, 14/4 → variant 1; the actual sizes score 3.33/4, 8.67/8, 14/8.8 → variant 2.
        let vbr = try Content(
            variants: content.variants, segmentDurations: [4, 4], sizesBits: [[4e6, 8e6, 8.8e6], [4e6, 8e6, 16e6]])
        let declared = BolaPolicy(minimumBuffer: 10, maximumBuffer: 30, sizeSource: .bitrate)
        let actual = BolaPolicy(minimumBuffer: 10, maximumBuffer: 30, sizeSource: .segment)
        #expect(declared.decide(PolicyBench.context(vbr, buffer: 12)) == .variant(1))
        #expect(actual.decide(PolicyBench.context(vbr, buffer: 12)) == .variant(2))
        #expect(actual.decide(PolicyBench.context(vbr, buffer: 12, segment: 1)) == .variant(1))
    }

    @Test("the BOLA policy never chooses above the cap over 300 random capped contexts, yet downloads and plays")
    func neverExceedsTheCapYetDownloadsAndPlays() throws {
        var downloads = 0
        var atCap = 0
        let ladder = PolicyBench.content([300, 750, 1200, 1850, 2850, 4300])
        let bola = BolaPolicy()
        for context in PolicyBench.cappedContexts(ladder, count: 300, seed: 7) {
            if case .variant(let v) = bola.decide(context) {
                #expect(v <= context.maxVariant)
                downloads += 1
                if v == context.maxVariant { atCap += 1 }
            }
        }
        // A policy that always waited would pass the cap check: it must download (154 of these seeded 300
        // contexts, 69 of them at the cap), and play a 10-segment title of 4 s segments through on a steady
        // 3 Mbit/s link: 40 s played, no stall.
        #expect(downloads == 154)
        #expect(atCap == 69)
        let title = try PolicyBench.steadyTitle(BolaPolicy())
        #expect(title.segments == Set(0..<10) && title.playedSeconds == 40 && title.stallCount == 0)
    }

    @Test("the registry builds bola with its buffer bounds and size source, and refuses an unknown size source")
    func registryParsesParameters() throws {
        let spec = try PolicySpec.parse("bola(minimumBuffer=5,maximumBuffer=20,sizes=segment)")
        let made = try PolicyRegistry.builtIn.makePolicy(spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        let bola = try #require(made as? BolaPolicy)
        #expect(bola.minimumBuffer == 5 && bola.maximumBuffer == 20 && bola.sizeSource == .segment)
        #expect(throws: InputError.self) {
            try PolicyRegistry.builtIn.makePolicy(
                PolicySpec.parse("bola(sizes=frames)"), environment: PolicyEnvironment(seed: 1, playerIndex: 0))
        }
    }

    @Test(
        "the BOLA policy on a link that carries the top never stalls, ends at the top and keeps the buffer at most 30 s"
    )
    func convergesToTheTopOnALinkThatCarriesItWithoutStalls() throws {
        // 5 Mbit/s carries 4000 kbit/s: once the buffer passes Q23 every segment is the top and BOLA's wait keeps
        // the buffer at or below 30 s.
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 60)
        let curve = try CapacityCurve(starts: [0], ratesBps: [5_000_000], duration: 1000)
        let (segments, totals) = PolicyBench.run(BolaPolicy(), content: ladder, curve: curve)
        #expect(totals.stallCount == 0)
        #expect(segments.suffix(30).allSatisfy { $0.variant == 3 })
        #expect(segments.allSatisfy { $0.bufferAfterSeconds <= 30 + 1e-9 })
    }

    @Test(
        "on a link between two rungs BOLA alternates between them, while BOLA-E holds the lower one, neither stalling")
    func onALinkBetweenTwoVariantsOscillatesBetweenThemWithoutStalls() throws {
        // 3 Mbit/s lies between 2000 and 4000 kbit/s. BOLA-BASIC has no throughput check, so it alternates between
        // the two variants that bracket the link (the oscillation BOLA-O was designed to remove); bola-e, with
        // BOLA-O, holds the sustainable 2000 kbit/s.
        let ladder = PolicyBench.content([500, 1000, 2000, 4000], segments: 60)
        let curve = try CapacityCurve(starts: [0], ratesBps: [3_000_000], duration: 2000)
        let (segments, totals) = PolicyBench.run(BolaPolicy(), content: ladder, curve: curve)
        #expect(totals.stallCount == 0)
        let steady = segments.suffix(30)
        #expect(steady.allSatisfy { $0.variant == 2 || $0.variant == 3 })
        #expect(steady.contains { $0.variant == 2 } && steady.contains { $0.variant == 3 })
        let (withO, totalsO) = PolicyBench.run(BolaEPolicy(), content: ladder, curve: curve)
        #expect(totalsO.stallCount == 0)
        #expect(withO.suffix(30).allSatisfy { $0.variant == 2 })
    }
}
