/// The network and buffer state of Pensieve's `fixed_env.py` `Environment`, and its `get_video_chunk`
/// arithmetic, operation for operation and in its units (trace seconds, bytes, buffer in ms). Used only by
/// ``PensieveProfile/simulate(trace:content:policy:)``; a value, one per run.
struct PensieveEngine {
    /// What one chunk's download did.
    struct Step {
        /// Seconds of trace the download took (before the RTT), Pensieve's `delay` before `*= 1000`.
        var downloadSeconds: Double
        /// `delay`: download ms + RTT.
        var delayMs: Double
        /// `rebuf`, ms.
        var rebufferMs: Double
        /// `sleep_time` as `get_video_chunk` returns it, ms.
        var sleepMs: Double
        /// `buffer_size` after the chunk and any sleep, ms.
        var bufferMsAfter: Double
    }

    /// The trace and the position in it (`mahimahi_ptr`, `last_mahimahi_time`).
    private var cursor: CookedTraceCursor
    /// `buffer_size`, ms.
    private(set) var bufferMs = 0.0
    /// The step the cap's sleep is rounded up to, ms: Pensieve's 500, or 0 for a sleep of exactly the excess
    /// (the relaxation ``PensieveOptimum/upperBound(trace:content:chunkCount:)`` solves).
    var sleepQuantumMs = PensieveProfile.sleepQuantumMilliseconds

    /// Trace seconds elapsed on an unwrapped time axis (each wrap adds the trace's last time, as the pointer
    /// restarts at time 0): nondecreasing as the environment runs, so it orders two environments on one trace.
    var traceSeconds: Double { Double(cursor.wraps) * cursor.times[cursor.times.count - 1] + cursor.lastTime }

    /// A fresh environment on `trace`: pointer `pointer` (1 by default; Pensieve's training mode draws it), clock
    /// at the time before it, empty buffer.
    init(trace: PensieveCookedTrace, pointer: Int = 1) {
        cursor = CookedTraceCursor(trace: trace, pointer: pointer)
    }

    /// `get_video_chunk` for a chunk of `bytes`; `noise` multiplies the delay (RTT included), as Pensieve's
    /// training environment does with its uniform(0.9, 1.1) draw (1 elsewhere: exact).
    mutating func download(bytes: Double, noise: Double = 1) -> Step {
        var delay = cursor.transferSeconds(bytes: bytes, payloadFraction: PensieveProfile.payloadFraction)
        let downloadSeconds = delay
        delay *= 1000
        delay += PensieveProfile.rttMilliseconds
        delay *= noise
        let rebuffer = max(delay - bufferMs, 0)
        bufferMs = max(bufferMs - delay, 0)
        bufferMs += PensieveProfile.chunkMilliseconds
        var sleep = 0.0
        if bufferMs > PensieveProfile.bufferCapMilliseconds {
            let drain = bufferMs - PensieveProfile.bufferCapMilliseconds
            sleep = sleepQuantumMs > 0 ? (drain / sleepQuantumMs).rounded(.up) * sleepQuantumMs : drain
            bufferMs -= sleep
            sleep = advance(sleepMs: sleep)
        }
        return Step(
            downloadSeconds: downloadSeconds, delayMs: delay, rebufferMs: rebuffer, sleepMs: sleep,
            bufferMsAfter: bufferMs)
    }

    /// `fixed_env.py`'s sleep loop: lets `sleepMs` of trace pass without downloading; returns what is left of the
    /// variable when the loop stops (what `get_video_chunk` returns as `sleep_time`).
    private mutating func advance(sleepMs start: Double) -> Double {
        var sleep = start
        while true {
            let duration = cursor.times[cursor.pointer] - cursor.lastTime
            if duration > sleep / 1000 {
                cursor.lastTime += sleep / 1000
                return sleep
            }
            sleep -= duration * 1000
            cursor.advancePointer()
        }
    }

    /// A policy's wait (not in Pensieve): the trace advances by `milliseconds` and the buffer drains; returns the
    /// part of the wait the buffer did not cover.
    mutating func wait(milliseconds: Double) -> Double {
        let stall = max(milliseconds - bufferMs, 0)
        bufferMs = max(bufferMs - milliseconds, 0)
        _ = advance(sleepMs: milliseconds)
        return stall
    }
}
