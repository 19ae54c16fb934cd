/// The resource-loader disk cache (DESIGN §2.4): fetched segments kept up to a byte budget, least recently
/// used evicted first. A request for a cached segment (same content, segment and variant) completes from disk
/// at ``diskBitsPerSecond`` without touching the network, is flagged in `segments.csv`, and is not a
/// throughput sample. One cache per player, or one shared by several players of a scenario.
public final class SegmentCache {
    struct Key: Hashable {
        var content: ObjectIdentifier
        var segment: Int
        var variant: Int
    }

    /// The budget in bytes.
    public let capacityBytes: Double
    /// How fast a cached segment is read (bit/s).
    public let diskBitsPerSecond: Double
    private var entries: [Key: (bytes: Double, lastUse: UInt64)] = [:]
    private var usedBytes = 0.0
    private var clock: UInt64 = 0

    /// A cache of `capacityBytes` read at `diskBitsPerSecond`.
    public init(capacityBytes: Double, diskBitsPerSecond: Double) {
        self.capacityBytes = capacityBytes
        self.diskBitsPerSecond = diskBitsPerSecond
    }

    /// Whether the segment is cached (and marks it used).
    func lookUp(content: Content, segment: Int, variant: Int) -> Bool {
        let key = Key(content: ObjectIdentifier(content), segment: segment, variant: variant)
        guard entries[key] != nil else { return false }
        clock &+= 1
        entries[key]?.lastUse = clock
        return true
    }

    /// Stores a fetched segment, evicting the least recently used ones to stay within the budget.
    func store(content: Content, segment: Int, variant: Int, bytes: Double) {
        guard bytes <= capacityBytes else { return }
        let key = Key(content: ObjectIdentifier(content), segment: segment, variant: variant)
        clock &+= 1
        if let existing = entries[key] {
            entries[key] = (existing.bytes, clock)
            return
        }
        while usedBytes + bytes > capacityBytes, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            usedBytes -= oldest.value.bytes
            entries[oldest.key] = nil
        }
        entries[key] = (bytes, clock)
        usedBytes += bytes
    }

    /// Bytes held.
    public var storedBytes: Double { usedBytes }
}
