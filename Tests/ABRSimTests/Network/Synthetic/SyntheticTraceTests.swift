import CGSL
import Testing

@testable import ABRSim

extension NetworkTests {
    /// The synthetic generators: their sample moments match their parameters, within tolerances derived from the
    /// sample size (a normal approximation at a two-sided false-alarm probability of 10⁻⁶ per check), and the
    /// same seed gives the same trace.
    @Suite("the synthetic trace generators")
    struct SyntheticTraceTests {
        /// The two-sided normal quantile for a 10⁻⁶ false-alarm probability (≈ 4.89), from GSL.
        static let z = gsl_cdf_ugaussian_Qinv(0.5e-6)

        /// Mean and sample standard deviation with GSL.
        static func moments(_ values: [Double]) -> (mean: Double, sd: Double) {
            let statistics = SampleStatistics(values)
            return (statistics.mean, statistics.standardDeviation)
        }

        /// Checks the sample mean and standard deviation of `values` against a distribution with `mean`, `sd` and
        /// excess kurtosis `excessKurtosis` (the standard error of a sample SD is sd·√((κ − 1)/(4n)),
        /// κ = 3 + excess).
        static func checkMoments(
            _ values: [Double], mean: Double, sd: Double, excessKurtosis: Double, _ label: String
        ) {
            let n = Double(values.count)
            let sample = moments(values)
            let meanTolerance = z * sd / n.squareRoot()
            let sdTolerance = z * sd * ((2 + excessKurtosis) / (4 * n)).squareRoot()
            #expect(
                abs(sample.mean - mean) <= meanTolerance, "\(label) mean \(sample.mean) vs \(mean) ± \(meanTolerance)")
            #expect(abs(sample.sd - sd) <= sdTolerance, "\(label) sd \(sample.sd) vs \(sd) ± \(sdTolerance)")
        }

        @Test(
            "lognormal rates have the model's log mean and log spread, and the rates its mean and spread, within 10⁻⁶ bounds"
        )
        func lognormalDrawsHaveTheModelsLogMeanAndLogSpread() throws {
            let rate = LognormalRate(meanBps: 3e6, spread: 0.6)
            let model = SyntheticTraceModel(base: .lognormal(rate))
            let trace = try SyntheticTraceGenerator.generate(model, seconds: 20_000, seed: 11)
            #expect(trace.pieceCount == 20_000)  // one piece per 1-s sample
            // ln(rate) is normal with μ and σ (excess kurtosis 0).
            Self.checkMoments(
                trace.ratesBps.map { log($0) }, mean: rate.mu, sd: rate.sigma, excessKurtosis: 0, "log rate")
            // σ² = ln(1 + cv²), μ = ln(mean) − σ²/2, computed by hand.
            #expect(abs(rate.sigma - 0.554513029376) < 1e-9)
            #expect(abs(rate.mu - (log(3e6) - 0.153742)) < 1e-6)
            // The rates themselves: mean 3 Mbit/s, sd 0.6 × mean (lognormal kurtosis from σ).
            let s2 = rate.sigma * rate.sigma
            let excess = exp(4 * s2) + 2 * exp(3 * s2) + 3 * exp(2 * s2) - 6
            let n = Double(trace.pieceCount)
            let sample = Self.moments(trace.ratesBps)
            #expect(abs(sample.mean - 3e6) <= Self.z * 0.6 * 3e6 / n.squareRoot())
            #expect(abs(sample.sd - 1.8e6) <= Self.z * 1.8e6 * ((2 + excess) / (4 * n)).squareRoot())
        }

        @Test("a two-state chain alternates, and its exponential and gamma sojourns have their distributions' moments")
        func markovSojournsMatchTheirDistributions() throws {
            let chain = MarkovRateModel(states: [
                .init(rate: LognormalRate(meanBps: 8e6, spread: 0), sojourn: .exponential(meanSeconds: 20)),
                .init(rate: LognormalRate(meanBps: 5e5, spread: 0), sojourn: .gamma(shape: 4, meanSeconds: 5)),
            ])
            let visits = chain.visits(seconds: 200_000, RandomSource(seed: 3)).dropLast()  // the last is cut short
            // Two states and no matrix: the chain alternates.
            for (a, b) in zip(visits, visits.dropFirst()) { #expect(a.state != b.state) }
            let first = visits.filter { $0.state == 0 }.map(\.length)
            let second = visits.filter { $0.state == 1 }.map(\.length)
            #expect(first.count > 1000 && second.count > 1000)
            // Exponential: sd = mean, excess kurtosis 6. Gamma(k): sd = mean/√k, excess kurtosis 6/k.
            Self.checkMoments(first, mean: 20, sd: 20, excessKurtosis: 6, "exponential sojourn")
            Self.checkMoments(second, mean: 5, sd: 2.5, excessKurtosis: 1.5, "gamma sojourn")
        }

        @Test("the Markov transitions happen at the matrix's probabilities within 10⁻⁶ bounds")
        func markovTransitionsFollowTheMatrix() throws {
            let state = MarkovRateModel.State(
                rate: LognormalRate(meanBps: 1e6, spread: 0), sojourn: .exponential(meanSeconds: 1))
            let matrix = [[0, 0.25, 0.75], [0.5, 0, 0.5], [1, 0, 0]]
            let chain = MarkovRateModel(states: [state, state, state], transitions: matrix)
            try chain.validate()
            let visits = chain.visits(seconds: 100_000, RandomSource(seed: 5))
            var counts = [[Double]](repeating: [0, 0, 0], count: 3)
            for (a, b) in zip(visits, visits.dropFirst()) { counts[a.state][b.state] += 1 }
            for from in 0..<3 {
                let n = counts[from].reduce(0, +)
                for to in 0..<3 {
                    let p = matrix[from][to]
                    let tolerance = Self.z * (p * (1 - p) / n).squareRoot()
                    #expect(abs(counts[from][to] / n - p) <= tolerance, "\(from)→\(to)")
                }
            }
        }

        @Test("outage gaps and durations have their distributions' means and spreads")
        func outageGapsAndDurationsMatchTheirDistributions() throws {
            let model = OutageModel(perMinute: 2, duration: .gamma(shape: 2, meanSeconds: 4))
            let intervals = model.intervals(seconds: 1_000_000, RandomSource(seed: 9)).dropLast()
            let durations = intervals.map { $0.end - $0.start }
            var gaps = [intervals.first!.start]
            for (a, b) in zip(intervals, intervals.dropFirst()) { gaps.append(b.start - a.end) }
            Self.checkMoments(gaps, mean: 30, sd: 30, excessKurtosis: 6, "gap")
            Self.checkMoments(durations, mean: 4, sd: 4 / 2.0.squareRoot(), excessKurtosis: 3, "outage")
        }

        @Test("outages set the rate to zero about 5 s a minute and leave the base rate untouched elsewhere")
        func outagesZeroTheBaseWithoutChangingIt() throws {
            let base = SyntheticTraceModel(base: .lognormal(LognormalRate(meanBps: 2e6, spread: 0.3)))
            var withOutages = base
            withOutages.outages = OutageModel(perMinute: 1, duration: .exponential(meanSeconds: 5))
            let plain = try SyntheticTraceGenerator.generate(base, seconds: 3600, seed: 4)
            let cut = try SyntheticTraceGenerator.generate(withOutages, seconds: 3600, seed: 4)
            let a = try plain.curve(atEnd: .loop)
            let b = try cut.curve(atEnd: .loop)
            var zeroSeconds = 0.0
            for i in 0..<cut.pieceCount {
                let middle = (cut.starts[i] + cut.end(ofPiece: i)) / 2
                if cut.ratesBps[i] == 0 {
                    zeroSeconds += cut.end(ofPiece: i) - cut.starts[i]
                } else {
                    #expect(b.rate(at: middle) == a.rate(at: middle))
                }
            }
            // About one 5-s outage a minute: a share near 5/65 of the hour.
            #expect(zeroSeconds > 0.04 * 3600 && zeroSeconds < 0.12 * 3600)
        }

        @Test("a decoded synthetic model gives the same trace for the same seed and another for another seed")
        func theSameSeedGivesTheSameTrace() throws {
            let json = #"""
                {"model": "markov", "seconds": 600, "sampleSeconds": 0.5,
                 "states": [{"meanKbps": 6000, "spread": 0.3, "meanSojournSeconds": 30},
                            {"meanKbps": 700, "spread": 0.5, "meanSojournSeconds": 10, "sojournShape": 2}],
                 "outages": {"perMinute": 0.5, "meanSeconds": 3}}
                """#
            let decoded = try SyntheticModelDecoder().decode(
                JSONReader(JSONParser.parse(Array(json.utf8), file: "m.json"), file: "m.json"))
            #expect(decoded.seconds == 600)
            let one = try SyntheticTraceGenerator.generate(decoded.model, seconds: 600, seed: 8)
            let two = try SyntheticTraceGenerator.generate(decoded.model, seconds: 600, seed: 8)
            let other = try SyntheticTraceGenerator.generate(decoded.model, seconds: 600, seed: 9)
            #expect(one.starts == two.starts && one.ratesBps == two.ratesBps)
            #expect(one.ratesBps != other.ratesBps)
            #expect(try TraceWriter.write(one, format: .csv) == TraceWriter.write(two, format: .csv))
        }

        @Test("a synthetic model named after a preset takes the preset's mean, RTT and loss")
        func aPresetGivesTheMeanRttAndLoss() throws {
            let json = #"{"model": "lognormal", "preset": "3g-lossy", "spread": 0.2}"#
            let decoded = try SyntheticModelDecoder().decode(
                JSONReader(JSONParser.parse(Array(json.utf8), file: "m"), file: "m"))
            #expect(decoded.model.base == .lognormal(LognormalRate(meanBps: 780e3, spread: 0.2)))
            #expect(decoded.model.latencySeconds == 0.2 && decoded.model.lossRate == 0.01)
            let trace = try SyntheticTraceGenerator.generate(decoded.model, seconds: 10, seed: 1)
            #expect(trace.latencySeconds == Array(repeating: 0.2, count: 10))
        }

        @Test(
            "an invalid synthetic model is refused, naming the file and the JSON path at fault",
            arguments: [
                (#"{"model": "lognormal", "meanKbps": 100, "spread": -1}"#, "$.spread"),
                (#"{"model": "wavy", "meanKbps": 100}"#, "$.model"),
                (#"{"model": "lognormal"}"#, "$"),
                (
                    #"{"model": "markov", "states": [{"meanKbps": 1, "meanSojournSeconds": 1}, {"meanKbps": 2, "meanSojournSeconds": 1}], "transitions": [[1, 0], [1, 0]]}"#,
                    "$.transitions[0]"
                ),
                (
                    #"{"model": "lognormal", "meanKbps": 1, "outages": {"perMinute": 0, "meanSeconds": 1}}"#,
                    "$.outages.perMinute"
                ),
                (#"{"model": "lognormal", "meanKbps": 1, "jitter": 3}"#, "$"),
            ])
        func invalidModelsNameTheJSONPath(json: String, location: String) {
            do {
                _ = try SyntheticModelDecoder().decode(
                    JSONReader(JSONParser.parse(Array(json.utf8), file: "m.json"), file: "m.json"))
                Issue.record("no error for \(json)")
            } catch let error as InputError {
                #expect(error.file == "m.json")
                #expect(error.location == location, "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
