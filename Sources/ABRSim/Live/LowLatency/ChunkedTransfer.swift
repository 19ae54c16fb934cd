/// The timing of one chunked-transfer (CMAF, HTTP/1.1 chunked encoding) segment request on a link of known capacity:
/// the per-chunk first-byte and last-byte times.
///
/// Model: the request is sent at `requestTime`; no byte arrives before `requestTime + rtt` (the link's latency at
/// the request, 0 if the curve has none). The chunks go out in order, each only once it is available (its encode
/// time; availability is at the link's far end, as for an edge cache beside it) and once the previous chunk has
/// arrived in full. While a chunk flows it has the whole link: its last byte is when `bits` more bits have been
/// delivered after its first byte (``CapacityCurve/timeToDeliver(_:after:)``). So chunk k of bits bₖ, available at
/// aₖ, has
///
///     firstₖ = max(aₖ, lastₖ₋₁)   (first₀ = max(a₀, requestTime + rtt)),   lastₖ = first byte + bₖ at c(t).
///
/// Near the live edge aₖ > lastₖ₋₁, the request idles between chunks, and bits / (last byte − request) measures the
/// encoder, not the link; far behind the edge every chunk is available and the request is one continuous transfer.
/// A pure function of its inputs; called by tests and by the live player for each chunked request. Times in
/// simulation seconds, sizes in bits.
public enum ChunkedTransfer {
    /// The timing of every chunk of `segment`'s request sent at `requestTime` over `curve`, in chunk order.
    /// A chunk the curve never delivers (a link that ends) has an infinite last byte, as do the chunks after it.
    public static func timings(
        segment: Int, chunks: [CMAFChunk], requestTime: Double, curve: CapacityCurve
    ) -> [ChunkTiming] {
        let rtt = curve.latency(at: requestTime) ?? 0
        var previousLast = requestTime + rtt
        var result: [ChunkTiming] = []
        result.reserveCapacity(chunks.count)
        for (index, chunk) in chunks.enumerated() {
            let first = max(chunk.availableTime, previousLast)
            let last = first.isFinite ? curve.timeToDeliver(chunk.bits, after: first) : first
            result.append(
                ChunkTiming(
                    segment: segment, chunk: index, bits: chunk.bits, availableTime: chunk.availableTime,
                    firstByteTime: first, lastByteTime: last))
            previousLast = last
        }
        return result
    }

    /// The whole request as one throughput sample: all the chunks' bits, from `requestTime` to the first chunk's
    /// first byte and the last chunk's last byte, with the chunk timings attached (what a player hands its
    /// estimator for a chunked download). `timings` must not be empty.
    public static func sample(requestTime: Double, timings: [ChunkTiming]) -> ThroughputSample {
        precondition(!timings.isEmpty, "a chunked request has at least one chunk")
        return ThroughputSample(
            bits: timings.reduce(0) { $0 + $1.bits }, requestTime: requestTime,
            firstByteTime: timings[0].firstByteTime, doneTime: timings[timings.count - 1].lastByteTime,
            chunks: timings)
    }
}
