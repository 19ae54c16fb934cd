import Testing

@testable import ABRSim

/// The one additive QoE formula (``QoEWeights/score(quality:stallSeconds:changes:changeScale:rebufferPenalty:smoothnessPenalty:)``)
/// and the scores written on it: the tally's, MPC's kbit/s sums, the Pensieve gym's reward and the scenario gym's
/// segment reward.
@Suite("the QoE formula")
struct QoEFormulaTests {
    @Test("q − μ·stall − λ·changes/scale gives the hand-computed score, in Mbit/s and in kbit/s sums")
    func theFormulaScoresByHand() {
        // 3 Mbit/s, half a second stalled at μ = 4.3, 1 Mbit/s of change at λ = 1: 3 − 2.15 − 1 = −0.15.
        let weights = QoEWeights()
        #expect(abs(weights.score(quality: 3, stallSeconds: 0.5, changes: 1) - -0.15) < 1e-12)
        let kbps = LinearQoE.score(
            bitrateSumKbps: 3000, changeSumKbps: 1000, stallSeconds: 0.5, rebufferPenalty: 4.3, smoothnessPenalty: 1)
        #expect(abs(kbps - -0.15) < 1e-12)
        // λ = 2 divides after multiplying: 3 − 0 − 2·1500/1000 = 0.
        #expect(
            LinearQoE.score(
                bitrateSumKbps: 3000, changeSumKbps: 1500, stallSeconds: 0, rebufferPenalty: 4.3, smoothnessPenalty: 2)
                == 0)
    }

    @Test("a tally scores as the formula on its sums less the startup term")
    func theTallyScoresThroughTheFormula() {
        var tally = QoETally()
        for q in [1.0, 3.0, 2.0] { tally.add(quality: q) }
        var weights = QoEWeights()
        weights.startupPenalty = 2
        // Σq = 6, Σ|Δq| = 3; 6 − 4.3·1 − 3 − 2·0.5 = −2.3.
        let score = tally.score(weights: weights, stallSeconds: 1, startupSeconds: 0.5)
        #expect(abs(score - -2.3) < 1e-12)
        #expect(
            score == weights.score(quality: 6, stallSeconds: 1, changes: 3) - weights.cost(startupSeconds: 0.5))
    }

    @Test("a segment's reward is q, less λ·|Δq| after a previous segment, as the offline optimum scores it")
    func segmentRewards() {
        var weights = QoEWeights()
        weights.smoothnessPenalty = 0.5
        #expect(weights.segmentReward(quality: 3, previous: nil) == 3)
        #expect(weights.segmentReward(quality: 3, previous: 1) == 2)
        let scorer = QoEScorer(model: .linear, ladderBps: [1e6, 3e6], weights: weights)
        #expect(scorer.segmentReward(variant: 1, previous: 0) == 2)
        #expect(weights.cost(stallSeconds: 2) == 8.6)
    }
}
