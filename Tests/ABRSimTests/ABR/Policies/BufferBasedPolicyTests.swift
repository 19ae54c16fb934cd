import Testing

@testable import ABRSim

/// BBA-0's reservoir/cushion map, computed by hand at the buffers where its choice changes.
@Suite("the BBA-0 buffer-based policy")
struct BufferBasedPolicyTests {
    static let pensieveLadder: [Double] = [300, 750, 1200, 1850, 2850, 4300]

    static func context(buffer: Double, ladderKbps: [Double] = pensieveLadder, maxVariant: Int? = nil) -> ABRContext {
        let content = try! Content.constantBitrate(ladderKbps: ladderKbps, segmentSeconds: 4, segmentCount: 10)
        return ABRContext(
            time: 0, segmentIndex: 1, content: content, bufferSeconds: buffer, bufferTargetSeconds: 60,
            playbackState: .playing, playbackRate: 1, lastVariant: 0, maxVariant: maxVariant ?? ladderKbps.count - 1,
            startVariant: 0, history: ThroughputHistory(), isAfterSeek: false)
    }

    func choice(_ policy: BufferBasedPolicy, _ context: ABRContext) -> Int? {
        if case .variant(let v) = policy.decide(context) { return v }
        return nil
    }

    @Test("the default BBA map on the Pensieve ladder changes rung at the hand-computed buffers from 5 s to 15 s")
    func pensieveMapChangesAtTheHandComputedBuffers() {
        let policy = BufferBasedPolicy()
        // 6 rungs, reservoir 5, cushion 10: ⌊5·(b − 5)/10⌋ = ⌊(b − 5)/2⌋ for 5 ≤ b < 15.
        let expected: [(Double, Int)] = [
            (0, 0), (4.999, 0),  // below the reservoir
            (5, 0), (6.999, 0),  // ⌊0.4995·2⌋ = 0 just below 7
            (7, 1), (8.999, 1), (9, 2), (11, 3), (12.999, 3), (13, 4),
            (14.999, 4),  // ⌊4.9995⌋ = 4: still below the top
            (15, 5), (60, 5),  // reservoir + cushion and above → top
        ]
        for (buffer, variant) in expected {
            #expect(choice(policy, Self.context(buffer: buffer)) == variant, "buffer \(buffer)")
        }
    }

    @Test("a reservoir of 8 s and a cushion of 4 s move BBA's thresholds to the hand-computed buffers")
    func customReservoirAndCushionMoveTheThresholds() {
        // reservoir 8, cushion 4: ⌊5·(b − 8)/4⌋: b = 8.79 → ⌊0.9875⌋ = 0, 8.8 → 1, 10 → 2, 11.99 → 4, 12 → 5.
        let policy = BufferBasedPolicy(reservoir: 8, cushion: 4)
        let expected: [(Double, Int)] = [(7.99, 0), (8.79, 0), (8.8, 1), (10, 2), (11.99, 4), (12, 5)]
        for (buffer, variant) in expected {
            #expect(choice(policy, Self.context(buffer: buffer)) == variant, "buffer \(buffer)")
        }
    }

    @Test("on a three-rung ladder BBA's map is scaled by the rung count")
    func shorterLaddersScaleTheMapByTheirRungCount() {
        // 3 rungs: ⌊2·(b − 5)/10⌋: 9.99 → 0, 10 → 1, 14.99 → 1, 15 → 2.
        let ladder: [Double] = [500, 1000, 2000]
        let policy = BufferBasedPolicy()
        for (buffer, variant) in [(9.99, 0), (10.0, 1), (14.99, 1), (15.0, 2)] {
            #expect(choice(policy, Self.context(buffer: buffer, ladderKbps: ladder)) == variant, "buffer \(buffer)")
        }
    }

    @Test("under a cap the BBA choice is the uncapped choice clipped to the cap")
    func neverAboveMaxVariant() {
        let policy = BufferBasedPolicy()
        for cap in 0...5 {
            for step in 0...80 {
                let buffer = Double(step) * 0.25
                let chosen = choice(policy, Self.context(buffer: buffer, maxVariant: cap))!
                #expect(chosen <= cap && chosen >= 0)
                // The cap clips the uncapped map rather than stretching it.
                let uncapped = choice(policy, Self.context(buffer: buffer))!
                #expect(chosen == min(uncapped, cap))
            }
        }
    }

    @Test("the registry builds bba with its reservoir and cushion, and refuses a zero cushion")
    func registryBuildsItWithParameters() throws {
        let made = try PolicyRegistry.builtIn.makePolicy(
            try PolicySpec.parse("bba(reservoir=8,cushion=4)"), environment: PolicyEnvironment(seed: 0, playerIndex: 0))
        let policy = try #require(made as? BufferBasedPolicy)
        #expect(policy.reservoir == 8 && policy.cushion == 4)
        #expect(throws: InputError.self) {
            try PolicyRegistry.builtIn.makePolicy(
                try PolicySpec.parse("bba(cushion=0)"), environment: PolicyEnvironment(seed: 0, playerIndex: 0))
        }
    }
}
