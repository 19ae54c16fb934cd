/// Turns a throughput log back into the capacity that produced it, by inverting a ``DownloadModel``: for each
/// request, the capacity C at which the model, alone on a link of constant C, takes the time the request took.
///
/// Under the fluid model C is the measured throughput (plain replay). Under a window model a small request spent
/// part of its time ramping, so C lies above it. Where the request ended inside the ramp, any C above some value
/// gives the same time: the smallest such C is returned, and marked as a lower bound. Where the model cannot be as
/// fast as the request at any capacity (a log faster than the model allows), the measured throughput is kept.
/// Called by `abrsim trace infer` and the round-trip tests.
public enum CapacityInference {
    /// One request's inferred capacity.
    public struct Estimate: Sendable, Equatable {
        /// The capacity (bit/s).
        public var capacityBps: Double
        /// Whether the request only bounds the capacity from below (it ended before its window stopped limiting).
        public var isLowerBound: Bool
    }

    /// The highest capacity tried: 1 Tbit/s.
    public static let maximumBps = 1e12

    /// The capacity under `model` for `sample`, its RTT being `rttSeconds`.
    public static func capacity(for sample: RequestSample, model: any DownloadModel, rttSeconds: Double) -> Estimate {
        let bits = sample.bytes * 8
        let seconds = sample.endSeconds - sample.startSeconds
        let measured = bits / seconds
        if model is FluidModel { return Estimate(capacityBps: measured, isLowerBound: false) }
        func modelSeconds(_ capacity: Double) -> Double {
            model.plan(
                DownloadRequest(bits: bits, availableBps: capacity, peakBps: capacity, roundTripSeconds: rttSeconds)
            ).modelSeconds
        }
        // Every model takes at least bits/C, so C ≥ the measured throughput.
        var low = measured
        if modelSeconds(low) <= seconds { return Estimate(capacityBps: low, isLowerBound: false) }
        var high = maximumBps
        let fastest = modelSeconds(high)
        if !(fastest <= seconds) { return Estimate(capacityBps: measured, isLowerBound: false) }
        // Bisection on log C: modelSeconds(low) > seconds ≥ modelSeconds(high).
        for _ in 0..<200 {
            let middle = (low * high).squareRoot()
            if !(middle > low && middle < high) { break }
            if modelSeconds(middle) > seconds { low = middle } else { high = middle }
            if high / low - 1 < 1e-12 { break }
        }
        // A lower bound when a much larger capacity gives the same time (the ramp decided it).
        let plateau = abs(modelSeconds(high * 4) - modelSeconds(high)) <= 1e-9 * seconds
        return Estimate(capacityBps: high, isLowerBound: plateau)
    }

    /// The capacity trace of `log` under `model`: each request's capacity from its start to the next request's
    /// start (the first from time 0), the last held for its own length. `rttSeconds` overrides the log's RTTs.
    public static func trace(
        _ log: ThroughputLog, model: any DownloadModel, rttSeconds: Double? = nil, name: String
    ) throws -> (trace: Trace, estimates: [Estimate]) {
        var starts: [Double] = []
        var rates: [Double] = []
        var estimates: [Estimate] = []
        let origin = log.samples[0].startSeconds
        for logged in log.samples {
            let rtt = rttSeconds ?? model.roundTripSeconds ?? logged.rttSeconds
            let sample = logged.fromFirstByte(rttSeconds: rtt)
            if model.needsRoundTrip && !(rtt > 0) {
                throw InputError(
                    .line(log.file, sample.line),
                    .mustBe(
                        "this request's RTT",
                        rule: "> 0 for download model '\(model.name)', which counts round trips"
                            + " (give --rtt-ms)", found: "\(rtt)", unit: "s"))
            }
            let estimate = capacity(for: sample, model: model, rttSeconds: rtt)
            estimates.append(estimate)
            let start = starts.isEmpty ? 0 : logged.startSeconds - origin
            if let last = starts.last, !(start > last) {
                rates[rates.count - 1] = estimate.capacityBps  // a request within rounding of the previous one
                continue
            }
            starts.append(start)
            rates.append(estimate.capacityBps)
        }
        let last = log.samples[log.samples.count - 1]
        let duration = max(last.endSeconds - origin, starts[starts.count - 1] + 1e-3)
        return (Trace(name: name, starts: starts, ratesBps: rates, duration: duration), estimates)
    }
}
