/// The challenge's `network_module.Network`: one Pensieve-style cooked trace replayed chunk by chunk. The
/// pointer starts at 1 with the clock at `time[0]`; interval (time[i−1], time[i]] carries
/// `bw[i] · 10⁶ / 8 · 0.95` payload bytes per second; a chunk ends partway through its last interval; at the end
/// the pointer wraps to 1 and the clock to 0. The trace clock moves only while bytes move (sleeping and the
/// 80 ms RTT do not advance it). Owned by ``MMGC22Environment``.
struct MMGC22Network: Sendable {
    private let times: [Double]
    private let bandwidthsMbps: [Double]
    private var pointer = 1
    private var lastTime: Double

    init(trace: PensieveCookedTrace) {
        times = trace.times
        bandwidthsMbps = trace.bandwidthsMbps
        lastTime = trace.times[0]
    }

    /// `network_simu(size)`: the download time of `bytes`, ms, including the RTT (not yet rounded).
    mutating func download(bytes: Double) -> Double {
        var delay = 0.0
        var sent = 0.0
        while true {
            let throughput = bandwidthsMbps[pointer] * 1_000_000.0 / 8.0
            let duration = times[pointer] - lastTime
            let payload = throughput * duration * MMGC22Model.payloadFraction
            if sent + payload > bytes {
                let fractional = (bytes - sent) / throughput / MMGC22Model.payloadFraction
                delay += fractional
                lastTime += fractional
                break
            }
            sent += payload
            delay += duration
            lastTime = times[pointer]
            pointer += 1
            if pointer >= bandwidthsMbps.count {
                pointer = 1
                lastTime = 0
            }
        }
        delay *= 1000.0
        delay += MMGC22Model.rttMilliseconds
        return delay
    }
}
