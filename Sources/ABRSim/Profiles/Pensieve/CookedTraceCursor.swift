/// A position in a Pensieve-style cooked trace (``PensieveCookedTrace``: interval (time[i−1], time[i]] carries
/// bandwidth[i] Mbit/s) as Pensieve's `fixed_env.py` and the MM'22 challenge's `network_module.py` both replay it:
/// the pointer names the interval, `lastTime` (trace seconds) is how far into it the clock is, and at the end of
/// the trace the pointer wraps to 1 with the clock at 0. ``transferSeconds(bytes:payloadFraction:)`` is their
/// shared download loop, operation for operation. Owned by ``PensieveEngine`` and ``MMGC22Network``.
struct CookedTraceCursor: Sendable {
    /// The trace's times, seconds.
    let times: [Double]
    /// The trace's bandwidths, Mbit/s.
    let bandwidthsMbps: [Double]
    /// `mahimahi_ptr` / `trace_ptr`.
    private(set) var pointer: Int
    /// `last_mahimahi_time` / `last_trace_time`, seconds.
    var lastTime: Double
    /// How many times the pointer has wrapped to the trace's start.
    private(set) var wraps = 0

    /// A cursor at interval `pointer` with the clock at the time before it.
    init(trace: PensieveCookedTrace, pointer: Int = 1) {
        times = trace.times
        bandwidthsMbps = trace.bandwidthsMbps
        self.pointer = pointer
        lastTime = trace.times[pointer - 1]
    }

    /// Moves the pointer to the next interval, wrapping to 1 with the time at 0 at the end of the trace.
    @inline(__always)
    mutating func advancePointer() {
        lastTime = times[pointer]
        pointer += 1
        if pointer >= bandwidthsMbps.count {
            pointer = 1
            lastTime = 0
            wraps += 1
        }
    }

    /// The trace seconds `bytes` take when each interval carries `bandwidth · 10⁶ / 8 · payloadFraction` bytes per
    /// second; the last interval is left partway through.
    @inline(__always)
    mutating func transferSeconds(bytes: Double, payloadFraction: Double) -> Double {
        var delay = 0.0
        var sent = 0.0
        while true {
            let throughput = bandwidthsMbps[pointer] * 1_000_000 / 8
            let duration = times[pointer] - lastTime
            let payload = throughput * duration * payloadFraction
            if sent + payload > bytes {
                let fraction = (bytes - sent) / throughput / payloadFraction
                delay += fraction
                lastTime += fraction
                return delay
            }
            sent += payload
            delay += duration
            advancePointer()
        }
    }
}
