/// The challenge's `network_module.Network`: one Pensieve-style cooked trace replayed chunk by chunk. The
/// pointer starts at 1 with the clock at `time[0]`; interval (time[i−1], time[i]] carries
/// `bw[i] · 10⁶ / 8 · 0.95` payload bytes per second; a chunk ends partway through its last interval; at the end
/// the pointer wraps to 1 and the clock to 0. The trace clock moves only while bytes move (sleeping and the
/// 80 ms RTT do not advance it). Owned by ``MMGC22Environment``.
struct MMGC22Network: Sendable {
    private var cursor: CookedTraceCursor

    init(trace: PensieveCookedTrace) { cursor = CookedTraceCursor(trace: trace) }

    /// `network_simu(size)`: the download time of `bytes`, ms, including the RTT (not yet rounded).
    mutating func download(bytes: Double) -> Double {
        var delay = cursor.transferSeconds(bytes: bytes, payloadFraction: MMGC22Model.payloadFraction)
        delay *= 1000.0
        delay += MMGC22Model.rttMilliseconds
        return delay
    }
}
