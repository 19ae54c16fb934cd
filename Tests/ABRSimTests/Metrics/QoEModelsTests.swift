import Testing

@testable import ABRSim

/// QoE models scored on sessions computed by hand (reference-literature §6).
@Suite("the QoE models")
struct QoEModelsTests {
    let pensieveBps = PensieveProfile.ladderKbps.map { $0 * 1000 }

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test("the linear QoE model scores a hand-computed session −4.35, as the linear weights do")
    func linearModelIsTheExistingLinearQoE() {
        // q = Mbit/s: Σq = 0.3 + 0.75 + 0.75 + 4.3 = 6.1; Σ|Δq| = 0.45 + 0 + 3.55 = 4; 6.1 − 4.3·1.5 − 4 = −4.35.
        let bitrates = [300_000.0, 750_000, 750_000, 4_300_000]
        let qoe = QoEModel.linear.score(
            bitratesBps: bitrates, stallSeconds: 1.5, startupSeconds: 2, ladderBps: pensieveBps)
        #expect(close(qoe, -4.35))
        let existing = QoEWeights().linear(bitratesBps: bitrates, stallSeconds: 1.5, startupSeconds: 2)
        #expect(qoe == existing)
    }

    @Test("the log QoE model scores the natural log of bitrate over the lowest rung, matching a hand value")
    func logModelUsesLnOfBitrateOverTheLowestRung() {
        // Ladder 1000/2000/4000 kbit/s: q = 0, ln 2, 2 ln 2. Session 1000, 2000, 2000, 4000 with 0.5 s stalled:
        // Σq = 4 ln 2, Σ|Δq| = 2 ln 2, QoE = 2 ln 2 − 2.66·0.5 = 0.0562943611…
        let ladder = [1_000_000.0, 2_000_000, 4_000_000]
        let qoe = QoEModel.log.score(
            bitratesBps: [1_000_000, 2_000_000, 2_000_000, 4_000_000], stallSeconds: 0.5, startupSeconds: 3,
            ladderBps: ladder)
        #expect(close(qoe, 2 * 0.69314718055994531 - 1.33))
    }

    @Test("the HD QoE model scores a session on Pensieve's ladder by its reward table, 28 by hand")
    func hdModelUsesPensievesRewardTable() {
        // q = 1, 12, 15, 15, 20: Σq = 63; Σ|Δq| = 11 + 3 + 0 + 5 = 19; 63 − 8·2 − 19 = 28.
        let bitrates = [300_000.0, 1_850_000, 2_850_000, 2_850_000, 4_300_000]
        let qoe = QoEModel.hd.score(bitratesBps: bitrates, stallSeconds: 2, startupSeconds: 0, ladderBps: pensieveBps)
        #expect(close(qoe, 28))
    }

    @Test("the HD model on part of Pensieve's ladder keeps each bitrate's reward")
    func hdOnASubsetOfPensievesLadderKeepsTheTableByBitrate() {
        #expect(QoEModel.hd.qualities(ladderBps: [300_000, 1_200_000, 4_300_000]) == [1, 3, 20])
    }

    @Test("the HD model on another ladder interpolates the reward table by rung index, one rung getting 1")
    func hdOnAnotherLadderStretchesTheTableByRungIndex() {
        // Four rungs sit at table positions 0, 5/3, 10/3, 5: 1; 2 + (3 − 2)·2/3; 12 + (15 − 12)·1/3; 20.
        let q = QoEModel.hd.qualities(ladderBps: [500_000, 1_000_000, 2_000_000, 4_000_000])
        #expect(q.count == 4)
        #expect(close(q[0], 1) && close(q[1], 8.0 / 3) && close(q[2], 13) && close(q[3], 20))
        // Six rungs of any bitrates get the table itself; one rung gets 1.
        let six = QoEModel.hd.qualities(ladderBps: [1e5, 2e5, 3e5, 4e5, 5e5, 6e5])
        #expect(six.enumerated().allSatisfy { close($0.element, HDQoE.rewards[$0.offset]) })
        #expect(QoEModel.hd.qualities(ladderBps: [1e6]) == [1])
    }

    @Test("the HD model scores with an explicit reward table when given one")
    func hdAcceptsAnExplicitTable() {
        let scorer = QoEScorer(model: .hd, ladderBps: [1e6, 2e6], hdRewards: [5, 7])
        // 5 + 7 − |7 − 5| − 8·0 = 10.
        #expect(scorer.score(variants: [0, 1], stallSeconds: 0, startupSeconds: 0) == 10)
    }

    @Test("the HD model interpolates bitrates between rungs and gives 1 below the ladder")
    func hdInterpolatesOffLadderBitrates() {
        // 1525 kbit/s is halfway between 1200 (3) and 1850 (12): 7.5.
        let scorer = QoEScorer(model: .hd, ladderBps: pensieveBps)
        #expect(close(scorer.quality(bitrateBps: 1_525_000), 7.5))
        #expect(scorer.quality(bitrateBps: 100_000) == 1)
    }

    @Test("changed rebuffer, smoothness and startup weights give the hand-computed HD score −30")
    func weightsAreSettable() {
        var weights = QoEWeights()
        weights.rebufferPenalty = 10
        weights.smoothnessPenalty = 2
        weights.startupPenalty = 1
        // HD: q = 1, 20: Σq = 21, Σ|Δq| = 19; 21 − 10·1 − 2·19 − 1·3 = −30.
        let qoe = QoEModel.hd.score(
            bitratesBps: [300_000, 4_300_000], stallSeconds: 1, startupSeconds: 3, ladderBps: pensieveBps,
            weights: weights)
        #expect(close(qoe, -30))
    }

    @Test("the default rebuffer penalties are the published 4.3, 2.66 and 8, with smoothness 1")
    func defaultRebufferPenaltiesAreThePublishedOnes() {
        #expect(QoEModel.linear.defaultWeights.rebufferPenalty == 4.3)
        #expect(QoEModel.log.defaultWeights.rebufferPenalty == 2.66)
        #expect(QoEModel.hd.defaultWeights.rebufferPenalty == 8)
        #expect(QoEModel.allCases.allSatisfy { $0.defaultWeights.smoothnessPenalty == 1 })
    }

    @Test("per-segment rewards less the rebuffer penalty add up to the session score in every model")
    func segmentRewardsAddUpToTheSessionScore() {
        for model in QoEModel.allCases {
            let scorer = QoEScorer(model: model, ladderBps: pensieveBps)
            let plan = [0, 3, 3, 5, 1, 2]
            var total = 0.0
            var previous: Int?
            for v in plan {
                total += scorer.segmentReward(variant: v, previous: previous)
                previous = v
            }
            let expected = scorer.score(variants: plan, stallSeconds: 0.7, startupSeconds: 0)
            #expect(close(total - scorer.weights.rebufferPenalty * 0.7, expected))
        }
    }
}
