import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// LoL+ on the challenge's ladder (200/600/1000 kbit/s, 1 s segments), following dash.js's `lolp/` code by hand.
@Suite("LoL+'s QoE, weight selector and learning map on a 200/600/1000 kbit/s ladder")
struct LoLpPolicyTests {
    let ladder: [Double] = [200_000, 600_000, 1_000_000]
    var selector: LoLpWeightSelector {
        LoLpWeightSelector(
            targetLatency: 1.5, bufferMin: 0.3, segmentDuration: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
    }

    @Test("a 1000 kbit/s segment with 0.2 s rebuffer, 2 s latency and rate 1.05 scores 590, a zero-length one 0")
    func theSingleUseQoEIsOneLoggedSegment() {
        // 1 s, 1000 kbit/s segment, 0.2 s rebuffer, 2 s latency (above 1.1 s: 1000 × 0.1 per s), rate 1.05:
        // 1000 − 1000·0.2 − 100·2 − 200·0.05 = 590.
        let qoe = LiveNQoE.singleUseQoe(
            segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200, bitrateKbps: 1000,
            rebufferSeconds: 0.2, latencySeconds: 2, playbackSpeed: 1.05)
        #expect(abs(qoe - 590) < 1e-9)
        #expect(
            LiveNQoE.singleUseQoe(
                segmentDurationSeconds: 0, maxBitrateKbps: 1000, minBitrateKbps: 200, bitrateKbps: 1000,
                rebufferSeconds: 0, latencySeconds: 0, playbackSpeed: 1) == 0)
    }

    @Test("the evaluator scores 600, 1000, 200 kbit/s segments as 1800 − 1200 − 500 − 428 − 20")
    func theEvaluatorScoresASegmentSequence() {
        // LoL+'s evaluator on 600, 1000, 200 kbit/s segments (1 s; rebuffer 0, 0, 0.5 s; latency 0.8, 1.2, 3 s;
        // rate 1, 1, 0.9): bitrate 1800; switches 400 + 800 = 1200; rebuffer 1000·0.5 = 500;
        // latency 10·0.8 + 100·1.2 + 100·3 = 428; speed 200·0.1 = 20 (to rounding). Total 1800 − 1200 − 500 − 428 − 20.
        var qoe = LiveNQoE(segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
        for (r, s, l, v) in [(600.0, 0.0, 0.8, 1.0), (1000, 0, 1.2, 1), (200, 0.5, 3, 0.9)] {
            qoe.logSegmentMetrics(bitrateKbps: r, rebufferSeconds: s, latencySeconds: l, playbackSpeed: v)
        }
        #expect(abs(qoe.totalQoe - (1800 - 1200 - 500 - 428 - 20)) < 1e-9)
    }

    @Test("the weight options are dash.js's 625 permutations of 0.2 to 1, in its order")
    func theWeightOptionsAreDashJsPermutations() {
        #expect(LoLpWeightSelector.weightOptions.count == 625)
        #expect(LoLpWeightSelector.weightOptions[0] == [0.2, 0.2, 0.2, 0.2])
        #expect(LoLpWeightSelector.weightOptions[1] == [0.2, 0.2, 0.2, 0.4])
        #expect(LoLpWeightSelector.weightOptions[5] == [0.2, 0.2, 0.4, 0.2])
        #expect(LoLpWeightSelector.weightOptions[624] == [1, 1, 1, 1])
    }

    @Test(
        "at 800 kbit/s with 2 s buffered the selector picks (0.2, 0.2, 1, 0.2); at 150 kbit/s with 0.1 s none qualifies"
    )
    func theSelectorPicksTheFirstVectorOfTheBestQoE() {
        // c = 800 kbit/s, B = 2 s, fresh neurons (latency 0). Download times 0.25, 0.75, 1.25 s; next buffers 2.75,
        // 2.25 and (1.25 > 1) 2 − 1 = 1 s; rebuffers 10⁻⁵, 10⁻⁵, 1.25 − 1 = 0.25 s. QoE (bit/s passed as kbit/s, as
        // dash.js passes them) = b − 1000·rebuffer/w_b: the top neuron wins, best at w_b = 1; the first such vector
        // in permutation order is (0.2, 0.2, 1, 0.2). Its next buffer 1 ≥ 0.3 meets the constraint.
        var controller = LoLpLearningController(random: RandomSource(seed: 1))
        controller.prepare(bitratesBps: ladder)
        var selector = selector
        let weights = selector.findWeightVector(
            neurons: controller.neurons, latency: 0, buffer: 2, throughputBps: 800_000, playbackRate: 1)
        #expect(weights == [0.2, 0.2, 1, 0.2])
        // With 0.1 s buffered and 150 kbit/s even the lowest rung takes 1.33 s > 1 s, leaving 0.1 − 1 < 0.3 s: no
        // candidate qualifies (dash.js's −1).
        let none = selector.findWeightVector(
            neurons: controller.neurons, latency: 0, buffer: 0.1, throughputBps: 150_000, playbackRate: 1)
        #expect(none == nil)
    }

    /// dash.js's `findWeightVector` as written: every neuron × all 625 vectors, the first strictly better QoE
    /// that meets the constraints.
    func everyVectorWinner(
        _ selector: LoLpWeightSelector, neurons: [LoLpNeuron], latency: Double, buffer: Double, throughput: Double,
        rate: Double
    ) -> [Double]? {
        var maxQoE: Double?
        var winner: [Double]?
        for neuron in neurons {
            for weights in LoLpWeightSelector.weightOptions {
                let downloadTime = neuron.bitrateBps * selector.segmentDuration / throughput
                let next = selector.nextBuffer(buffer, downloadTime: downloadTime)
                let rebuffer = max(0.00001, downloadTime - next)
                let qoe = LiveNQoE.singleUseQoe(
                    segmentDurationSeconds: selector.segmentDuration, maxBitrateKbps: selector.maxBitrateKbps,
                    minBitrateKbps: selector.minBitrateKbps, bitrateKbps: neuron.bitrateBps,
                    rebufferSeconds: (weights[2] == 0 ? 10 : 1 / weights[2]) * rebuffer,
                    latencySeconds: (weights[1] == 0 ? 10 : 1 / weights[1]) * neuron.latency,
                    playbackSpeed: rate)
                if maxQoE.map({ qoe > $0 }) ?? true, latency <= selector.targetLatency + abs(latency),
                    next >= selector.bufferMin
                {
                    maxQoE = qoe
                    winner = weights
                }
            }
        }
        return winner
    }

    @Test(
        "the selector's 25 vectors per neuron pick the vector the full 625-vector search picks, on 1,000 random cases")
    func theSelectorMatchesTheFullSearch() {
        let random = RandomSource(seed: 21)
        var chosen = Set<[Double]>()
        var none = 0
        for _ in 0..<1000 {
            var controller = LoLpLearningController(
                random: RandomSource(seed: UInt64(random.integer(below: 1_000_000))))
            controller.prepare(bitratesBps: ladder)
            var neurons = controller.neurons
            for index in neurons.indices { neurons[index].latency = random.uniform() < 0.3 ? 0 : 4 * random.uniform() }
            let latency = random.uniform() < 0.5 ? 0 : 3 * random.uniform()
            let buffer = 3 * random.uniform()
            let throughput = 100_000 + 1_500_000 * random.uniform()
            let rate = 0.9 + 0.2 * random.uniform()
            var fresh = selector
            let found = fresh.findWeightVector(
                neurons: neurons, latency: latency, buffer: buffer, throughputBps: throughput, playbackRate: rate)
            let expected = everyVectorWinner(
                selector, neurons: neurons, latency: latency, buffer: buffer, throughput: throughput, rate: rate)
            #expect(found == expected)
            if let found { chosen.insert(found) } else { none += 1 }
        }
        // The cases reach both winners a larger weight can give (w_b = 1 always lowers the rebuffer penalty; w_l
        // matters only for a neuron with latency) and the no-candidate answer.
        #expect(chosen == [[0.2, 0.2, 1, 0.2], [0.2, 1, 1, 0.2]])
        #expect(none > 0)
    }

    @Test("at 800 kbit/s the map picks the nearest neuron, 600 kbit/s, and moves it twice 1 % towards the throughput")
    func theMapPicksTheNearestNeuronAndLearns() {
        // ‖b‖ = √1.4 × 10⁶; t = 800 000/‖b‖. Neuron states b_i/‖b‖. Distances to (t, 0, 0, 0) with weights
        // (0.2, 0.2, 1, 0.2): √(0.2·(s_i − t)²) for the two lower neurons; the top one (10⁶ > 800 000 − 10 000) gets
        // throughput weight 100: 10·|s_2 − t|. Neuron 1 is nearest. Then neuron 1 moves twice towards t by 1 %
        // (neighbourhood 1 to itself): once as the current neuron, once as the winner.
        var controller = LoLpLearningController(random: RandomSource(seed: 1))
        controller.prepare(bitratesBps: ladder)
        let norm = (1.4).squareRoot() * 1_000_000
        #expect(abs(controller.bitrateNormalization - norm) < 1e-6)
        let t = 800_000 / norm
        let s = controller.neurons.map(\.throughput)
        var selector = selector
        let choice = controller.nextVariant(
            throughputBps: 800_000, latency: 0, buffer: 2, playbackRate: 1, current: 1, selector: &selector)
        #expect(choice == 1)
        #expect(controller.weights == [0.2, 0.2, 1, 0.2])
        #expect((0.2 * pow(s[1] - t, 2)).squareRoot() < (0.2 * pow(s[0] - t, 2)).squareRoot())
        #expect((0.2 * pow(s[1] - t, 2)).squareRoot() < 10 * abs(s[2] - t))
        let once = s[1] + (t - s[1]) * 0.01 * 1
        let twice = once + (t - once) * 0.01 * 1
        #expect(controller.neurons[1].throughput == twice)
    }

    @Test("with 1 s buffered at 800 kbit/s it shifts down from 1000 to 600 kbit/s and no neuron moves")
    func aLowBufferShiftsDownWithoutLearning() {
        // Current 1000 kbit/s at c = 800 kbit/s with 1 s buffered: download 1.25 s leaves −0.25 < 0.3 s: the highest
        // lower variant c exceeds, 600 kbit/s, and no neuron moves.
        var controller = LoLpLearningController(random: RandomSource(seed: 1))
        controller.prepare(bitratesBps: ladder)
        let before = controller.neurons
        var selector = selector
        let choice = controller.nextVariant(
            throughputBps: 800_000, latency: 0, buffer: 1, playbackRate: 1, current: 2, selector: &selector)
        #expect(choice == 1)
        #expect(controller.neurons == before)
    }

    @Test("two controllers with the same seed start from the same three neuron centres")
    func theInitialCentresDependOnlyOnTheSeed() {
        var a = LoLpLearningController(random: RandomSource(seed: 7))
        var b = LoLpLearningController(random: RandomSource(seed: 7))
        a.prepare(bitratesBps: ladder)
        b.prepare(bitratesBps: ladder)
        #expect(a.sortedCenters == b.sortedCenters)
        #expect(a.sortedCenters.count == 3)
    }

    @Test("a VOD context scores a latency of 0, and a live latency of 2 s adds 1000 × 0.1 × 2 = 200")
    func withoutLiveInputsTheLatencyIsZero() {
        // A VOD context (latency nil) scores as dash.js does for a stream without a live latency: 0.
        let content = try! Content.constantBitrate(ladderKbps: [200, 600, 1000], segmentSeconds: 1, segmentCount: 10)
        let policy = LoLpPolicy(random: RandomSource(seed: 1))
        #expect(policy.decide(PolicyBench.context(content, buffer: 0)) == .variant(2))
        let history = ThroughputHistory()
        let sample = ThroughputSample(bits: 1_000_000, requestTime: 0, firstByteTime: 0.1, doneTime: 1.1)
        history.append(sample, variant: 2)
        policy.downloadFinished(sample, context: PolicyBench.context(content, buffer: 1, history: history))
        var context = PolicyBench.context(content, buffer: 2, segment: 1, history: history)
        _ = policy.decide(context)
        #expect(policy.qoe?.latencyWeightedSum == 0)
        context.liveLatencySeconds = 2
        context.segmentIndex = 2
        _ = policy.decide(context)
        // Latency 2 s > 1.1 s: 1000 × 0.1 × 2 = 200.
        #expect(policy.qoe?.latencyWeightedSum == 200)
    }
}
