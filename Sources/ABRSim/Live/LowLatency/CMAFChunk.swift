/// One CMAF chunk (a `moof` + `mdat` pair) of a live segment as the encoder produces it: its size and the moment
/// the origin can send it.
///
/// Made by whoever lays out live content (``CMAFChunk/evenlySplit(segmentBits:segmentStart:segmentDuration:count:)``
/// for constant-bitrate chunks); read by ``ChunkedTransfer``. Sizes in bits, times in simulation seconds.
public struct CMAFChunk: Sendable, Equatable {
    /// Payload bits of the chunk.
    public var bits: Double
    /// When the whole chunk is available at the origin (its encode time): no byte of it is sent earlier.
    public var availableTime: Double

    /// A chunk of `bits` bits available from `availableTime` seconds.
    public init(bits: Double, availableTime: Double) {
        self.bits = bits
        self.availableTime = availableTime
    }

    /// A segment of `segmentBits` bits whose media starts at `segmentStart` (simulation seconds of the live edge)
    /// and lasts `segmentDuration` seconds, cut into `count` chunks of equal size and duration: chunk k is available
    /// once its media is encoded, at `segmentStart + (k + 1) × segmentDuration / count`.
    public static func evenlySplit(segmentBits: Double, segmentStart: Double, segmentDuration: Double, count: Int)
        -> [CMAFChunk]
    {
        precondition(count > 0, "a segment has at least one chunk")
        let chunkBits = segmentBits / Double(count)
        let chunkSeconds = segmentDuration / Double(count)
        return (0..<count).map { k in
            CMAFChunk(bits: chunkBits, availableTime: segmentStart + Double(k + 1) * chunkSeconds)
        }
    }
}
