#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// LoL+'s learning ABR controller (dash.js v5.1.1 `src/streaming/rules/abr/lolp/LearningAbrController.js`): a
/// self-organising map with one neuron per variant, its distance weights chosen by ``LoLpWeightSelector``.
///
/// - Set-up (first call): the ladder b (bit/s) and its magnitude ‖b‖; neuron i's state (b_i/‖b‖, 0, 0, 0); initial
///   weights from k-means++ centres of N² random points (throughput uniform in [0, max neuron throughput), the others
///   in [0, 1)): the centre least similar to the others, then the rest ordered by distance to it; the initial
///   weights are the last of them. dash.js draws with `Math.random`; ABRSim from the run's seeded ``RandomSource``.
/// - Per decision with throughput c (bit/s), latency L (s), buffer B (s), rate ρ and current variant: t = c/‖b‖
///   (the largest neuron throughput when above 1); download time d = b_current·D/c; rebuffer max(0, d − B). If
///   B − d < the minimum buffer, the highest variant below the current one that c exceeds (else the current one),
///   with no learning. Otherwise the weights are updated by the selector (kept when no vector qualifies); each
///   neuron's distance to (t, 0, 0, 0) uses the weights, its throughput weight raised to 100 when b_i > c − 10 000
///   or its next buffer is below the minimum (unless it is the lowest variant); the nearest neuron wins (first on
///   ties). Then the current neuron and its neighbours move towards (t, L/100, rebuffer, switch) and the winner and
///   its neighbours towards (t, 0, 0, switch), switch = |b_current − b_winner|/‖b‖, learning rate 0.01,
///   neighbourhood exp(−distance²/(2·0.1²)), neurons updated in ladder order.
/// Distances are sign(s)·√|s| of s = Σ wᵢ(aᵢ − bᵢ)². Owned by ``LoLpPolicy``.
public struct LoLpLearningController {
    /// dash.js's learning rate per state component.
    public static let learningRate = 0.01
    /// dash.js's neighbourhood width σ.
    public static let sigma = 0.1
    /// dash.js's `latencyNormalizationFactor`.
    public static let latencyNormalization = 100.0
    /// dash.js's `throughputDelta` (bit/s): "10K + video encoding is the recommended throughput".
    public static let throughputDelta = 10_000.0

    /// The neurons, in ladder order (empty before the first call).
    public private(set) var neurons: [LoLpNeuron] = []
    /// The distance weights (throughput, latency, buffer, switch) in use.
    public private(set) var weights: [Double]?
    /// The k-means++ centres, sorted (`sortedCenters`).
    public private(set) var sortedCenters: [[Double]] = []
    /// ‖b‖, the ladder's Euclidean magnitude (bit/s).
    public private(set) var bitrateNormalization = 1.0
    private var minBitrate = 0.0
    private let random: RandomSource

    /// A controller drawing its initial centres from `random`.
    public init(random: RandomSource) { self.random = random }

    /// `_getDistance`.
    public static func distance(_ a: [Double], _ b: [Double], _ w: [Double]) -> Double {
        var sum = 0.0
        for i in a.indices { sum = sum + w[i] * pow(a[i] - b[i], 2) }
        return (sum < 0 ? -1 : 1) * abs(sum).squareRoot()
    }

    /// The largest neuron throughput state.
    var maxThroughput: Double { neurons.reduce(0) { max($0, $1.throughput) } }

    /// `_setSomBitrateNeurons`: builds the neurons and the centres once, from `bitratesBps`.
    public mutating func prepare(bitratesBps: [Double]) {
        guard neurons.isEmpty else { return }
        minBitrate = bitratesBps.min() ?? 0
        bitrateNormalization = bitratesBps.reduce(0) { $0 + pow($1, 2) }.squareRoot()
        neurons = bitratesBps.enumerated().map { index, bitrate in
            LoLpNeuron(variant: index, bitrateBps: bitrate, throughput: bitrate / bitrateNormalization)
        }
        sortedCenters = initialCenters()
    }

    /// `_getInitialKmeansPlusPlusCenters`.
    private func initialCenters() -> [[Double]] {
        let count = neurons.count
        let top = maxThroughput
        let data = (0..<(count * count)).map { _ in
            [random.uniform() * top, random.uniform(), random.uniform(), random.uniform()]
        }
        let unit = [1.0, 1, 1, 1]
        var centers = [data[0]]
        for _ in 1..<max(count, 1) {
            var next: [Double]?
            var maxDistance: Double?
            for point in data {
                var minDistance: Double?
                for center in centers {
                    let d = Self.distance(point, center, unit)
                    if minDistance.map({ d < $0 }) ?? true { minDistance = d }
                }
                if maxDistance.map({ minDistance! > $0 }) ?? true {
                    next = point
                    maxDistance = minDistance
                }
            }
            centers.append(next!)
        }
        var leastSimilar = 0
        var maxDistance: Double?
        for i in centers.indices {
            var total = 0.0
            for j in centers.indices where i != j { total += Self.distance(centers[i], centers[j], unit) }
            if maxDistance.map({ total > $0 }) ?? true {
                maxDistance = total
                leastSimilar = i
            }
        }
        var sorted = [centers.remove(at: leastSimilar)]
        while !centers.isEmpty {
            var minIndex = 0
            var minDistance: Double?
            for i in centers.indices {
                let d = Self.distance(sorted[0], centers[i], unit)
                if minDistance.map({ d < $0 }) ?? true {
                    minDistance = d
                    minIndex = i
                }
            }
            sorted.append(centers.remove(at: minIndex))
        }
        return sorted
    }

    /// `getNextQuality`: the variant to fetch next, learning from this decision.
    public mutating func nextVariant(
        throughputBps: Double, latency: Double, buffer: Double, playbackRate: Double, current: Int,
        selector: inout LoLpWeightSelector
    ) -> Int {
        var throughputNormalized = throughputBps / bitrateNormalization
        if throughputNormalized > 1 { throughputNormalized = maxThroughput }
        let latencyNormalized = latency / Self.latencyNormalization
        let currentIndex = min(current, neurons.count - 1)
        let currentBitrate = neurons[currentIndex].bitrateBps
        let downloadTime = currentBitrate * selector.segmentDuration / throughputBps
        let rebuffer = max(0, downloadTime - buffer)
        if buffer - downloadTime < selector.bufferMin { return downShift(from: currentIndex, throughputBps) }
        if weights == nil { weights = sortedCenters.last }
        if let found = selector.findWeightVector(
            neurons: neurons, latency: latency, buffer: buffer, throughputBps: throughputBps,
            playbackRate: playbackRate)
        {
            weights = found
        }
        var minDistance: Double?
        var winner = 0
        let target = [throughputNormalized, 0, 0, 0]
        for (index, neuron) in neurons.enumerated() {
            var distanceWeights = weights!
            let next = selector.nextBuffer(bitrateBps: neuron.bitrateBps, buffer: buffer, throughputBps: throughputBps)
            if neuron.bitrateBps > throughputBps - Self.throughputDelta || next < selector.bufferMin,
                neuron.bitrateBps != minBitrate
            {
                distanceWeights[0] = 100
            }
            let d = Self.distance(neuron.state, target, distanceWeights)
            if minDistance.map({ d < $0 }) ?? true {
                minDistance = d
                winner = index
            }
        }
        let bitrateSwitch = abs(currentBitrate - neurons[winner].bitrateBps) / bitrateNormalization
        updateNeurons(around: currentIndex, [throughputNormalized, latencyNormalized, rebuffer, bitrateSwitch])
        updateNeurons(around: winner, [throughputNormalized, 0, 0, bitrateSwitch])
        return neurons[winner].variant
    }

    /// `_getDownShiftNeuron`: the highest variant below `current` that the throughput exceeds, else `current`.
    private func downShift(from current: Int, _ throughputBps: Double) -> Int {
        var best = 0.0
        var result = current
        for neuron in neurons
        where neuron.bitrateBps < neurons[current].bitrateBps && neuron.bitrateBps > best
            && throughputBps > neuron.bitrateBps
        {
            best = neuron.bitrateBps
            result = neuron.variant
        }
        return result
    }

    /// `_updateNeurons`: every neuron moves towards `x` by its neighbourhood to the winner, in order (a neuron
    /// updated earlier, the winner included, is measured with its new state).
    private mutating func updateNeurons(around winner: Int, _ x: [Double]) {
        for index in neurons.indices {
            let d = Self.distance(neurons[index].state, neurons[winner].state, [1, 1, 1, 1])
            let neighbourhood = exp(-1 * pow(d, 2) / (2 * pow(Self.sigma, 2)))
            let rate = Self.learningRate
            var neuron = neurons[index]
            neuron.throughput = neuron.throughput + (x[0] - neuron.throughput) * rate * neighbourhood
            neuron.latency = neuron.latency + (x[1] - neuron.latency) * rate * neighbourhood
            neuron.rebuffer = neuron.rebuffer + (x[2] - neuron.rebuffer) * rate * neighbourhood
            neuron.bitrateSwitch = neuron.bitrateSwitch + (x[3] - neuron.bitrateSwitch) * rate * neighbourhood
            neurons[index] = neuron
        }
    }
}
