#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sabre's throughput and latency estimators (`ThroughputHistory`): fed each completed download (its transfer
/// time after the first bit in ms, its throughput in kbit/s, its latency in ms) by ``SabreSimulation``, they
/// return the new conservative estimates: the lowest throughput and the highest latency over their settings.
protocol SabreThroughputHistory: AnyObject {
    /// Adds a download; returns (throughput kbit/s, latency ms).
    func push(time: Double, throughput: Double, latency: Double) -> (throughput: Double, latency: Double)
}

/// Sabre's `Ewma` (`-ma ewma`, the default): per half-life h (`-hl`, s, default 3 and 8), a throughput EWMA
/// weighted by download time (α = 0.5^(time/h)) and a latency EWMA weighted per download (half-life h / segment
/// time downloads), each divided by its zero-bias factor 1 − 0.5^(total weight/h).
final class SabreEWMA: SabreThroughputHistory {
    let halfLife: [Double]
    let latencyHalfLife: [Double]
    @exclusivity(unchecked) var throughput: [Double]
    @exclusivity(unchecked) var latency: [Double]
    @exclusivity(unchecked) var weightThroughput = 0.0
    @exclusivity(unchecked) var weightLatency = 0.0

    /// Half-lives in seconds; `segmentTime` in ms.
    init(halfLifeSeconds: [Double], segmentTime: Double) {
        halfLife = halfLifeSeconds.map { $0 * 1000 }
        latencyHalfLife = halfLife.map { $0 / segmentTime }
        throughput = Array(repeating: 0, count: halfLife.count)
        latency = Array(repeating: 0, count: halfLife.count)
    }

    func push(time: Double, throughput tput: Double, latency lat: Double) -> (throughput: Double, latency: Double) {
        for i in halfLife.indices {
            var alpha = pow(0.5, time / halfLife[i])
            throughput[i] = alpha * throughput[i] + (1 - alpha) * tput
            alpha = pow(0.5, 1 / latencyHalfLife[i])
            latency[i] = alpha * latency[i] + (1 - alpha) * lat
        }
        weightThroughput += time
        weightLatency += 1
        var estimate: Double? = nil
        var latencyEstimate: Double? = nil
        for i in halfLife.indices {
            var zeroFactor = 1 - pow(0.5, weightThroughput / halfLife[i])
            let t = throughput[i] / zeroFactor
            estimate = estimate.map { t < $0 ? t : $0 } ?? t
            zeroFactor = 1 - pow(0.5, weightLatency / latencyHalfLife[i])
            let l = latency[i] / zeroFactor
            latencyEstimate = latencyEstimate.map { l > $0 ? l : $0 } ?? l
        }
        return (estimate!, latencyEstimate!)
    }
}

/// Sabre's `SlidingWindow` (`-ma sliding`): per window size w (`-ws`, default 3), the plain means of the last w
/// throughputs and latencies (20 kept).
final class SabreSlidingWindow: SabreThroughputHistory {
    /// `SlidingWindow.max_store`.
    static let maxStore = 20
    let windowSize: [Int]
    @exclusivity(unchecked) var lastThroughputs: [Double] = []
    @exclusivity(unchecked) var lastLatencies: [Double] = []

    init(windowSize: [Int]) { self.windowSize = windowSize }

    func push(time: Double, throughput tput: Double, latency lat: Double) -> (throughput: Double, latency: Double) {
        lastThroughputs.append(tput)
        if lastThroughputs.count > Self.maxStore { lastThroughputs.removeFirst() }
        lastLatencies.append(lat)
        if lastLatencies.count > Self.maxStore { lastLatencies.removeFirst() }
        var estimate: Double? = nil
        var latencyEstimate: Double? = nil
        for ws in windowSize {
            let t = Self.mean(lastThroughputs, last: ws)
            estimate = estimate.map { t < $0 ? t : $0 } ?? t
            let l = Self.mean(lastLatencies, last: ws)
            latencyEstimate = latencyEstimate.map { l > $0 ? l : $0 } ?? l
        }
        return (estimate!, latencyEstimate!)
    }

    /// `sum(values[-count:]) / len(values[-count:])`, summed left to right.
    static func mean(_ values: [Double], last count: Int) -> Double {
        let start = max(0, values.count - count)
        var sum = 0.0
        for i in start..<values.count { sum += values[i] }
        return sum / Double(values.count - start)
    }
}
