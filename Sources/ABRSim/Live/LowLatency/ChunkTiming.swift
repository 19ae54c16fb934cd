/// When one CMAF chunk of a segment request arrived: the per-chunk timing a live player records for each chunked
/// (low-latency) download, and what the low-latency throughput estimators read.
///
/// Written by ``ChunkedTransfer`` (and, through it, by the live player into its records); read by
/// ``DashLowLatencyThroughput``, ``HlsJsTTFBEstimator`` and ``ThroughputSample/chunks``. Times in simulation seconds,
/// sizes in bits.
public struct ChunkTiming: Sendable, Equatable {
    /// Index (0-based) of the segment the chunk belongs to.
    public var segment: Int
    /// Index (0-based) of the chunk within its segment.
    public var chunk: Int
    /// Payload bits of the chunk.
    public var bits: Double
    /// When the chunk was available at the origin (its encode time).
    public var availableTime: Double
    /// When its first byte arrived (dash.js's `moof` start time).
    public var firstByteTime: Double
    /// When its last byte arrived (dash.js's `mdat` end time).
    public var lastByteTime: Double

    /// A chunk's timing; times must not decrease from availability to first byte to last byte.
    public init(
        segment: Int, chunk: Int, bits: Double, availableTime: Double, firstByteTime: Double, lastByteTime: Double
    ) {
        self.segment = segment
        self.chunk = chunk
        self.bits = bits
        self.availableTime = availableTime
        self.firstByteTime = firstByteTime
        self.lastByteTime = lastByteTime
    }

    /// Seconds from the chunk's first byte to its last byte.
    public var transferSeconds: Double { lastByteTime - firstByteTime }
}
