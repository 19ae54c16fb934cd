/// What a session summary needs of a player's segment records, accumulated one record at a time, so that a run
/// that does not write `segments.csv` (a `--no-segments` sweep, `check`, `tune`) holds no record per segment.
///
/// ``SessionSummary`` is always computed through a tally: from the kept records (``init(ladderBps:records:)``) or
/// from the one the player fed as it went (``add(_:)``); both add the same terms in the same order, so the
/// summaries are bit for bit the same either way. Sums of bitrates, durations and QoE terms; counts; the last
/// variant and qualities, for switches and smoothness.
public struct SegmentTally: Sendable {
    /// Every request, abandoned ones included.
    public private(set) var requestCount = 0
    /// Requests abandoned because they timed out.
    public private(set) var timedOutCount = 0
    /// Requests cancelled by a seek (their partial bytes were transferred).
    public private(set) var cancelledCount = 0
    /// Segments downloaded (not abandoned).
    public private(set) var segmentCount = 0
    /// Σ bitrate × duration over downloaded segments (bit).
    public private(set) var weightedBitrate = 0.0
    /// Σ duration over downloaded segments (s).
    public private(set) var durationSeconds = 0.0
    /// Variant changes between consecutive downloaded segments.
    public private(set) var switchCount = 0
    /// Media seconds downloaded at the top rung.
    public private(set) var topQualitySeconds = 0.0
    /// Σ q and Σ |Δq| over downloaded segments of each of ``reportedModels``, in that order.
    public private(set) var qoe: [QoETally]
    /// Σ measured throughput / available capacity, and how many downloads it sums (downloaded from the network,
    /// with a capacity view): the mean is `summary.csv`'s `throughput_capacity_ratio`.
    public private(set) var throughputCapacityRatioSum = 0.0
    public private(set) var throughputCapacityRatioCount = 0
    private var previousVariant: Int?
    private let topVariant: Int
    /// One scorer per reported model, on the content's ladder (default weights: the summary applies its own).
    public let scorers: [QoEScorer]

    /// The models whose QoE `summary.csv` reports (`qoe_lin`, `qoe_log`, `qoe_hd`), in column order.
    public static let reportedModels: [QoEModel] = [.linear, .log, .hd]

    /// An empty tally for content with `ladderBps`.
    public init(ladderBps: [Double]) {
        topVariant = ladderBps.count - 1
        scorers = Self.reportedModels.map { QoEScorer(model: $0, ladderBps: ladderBps) }
        qoe = Array(repeating: QoETally(), count: scorers.count)
    }

    /// The tally of `records`, in order.
    public init(ladderBps: [Double], records: [SegmentRecord]) {
        self.init(ladderBps: ladderBps)
        for record in records { add(record) }
    }

    /// Adds one record (in request order).
    public mutating func add(_ record: SegmentRecord) {
        requestCount += 1
        if record.timedOut { timedOutCount += 1 }
        if record.cancelled { cancelledCount += 1 }
        guard !record.abandoned else { return }
        segmentCount += 1
        if !record.cacheHit, let available = record.availableBps, available > 0, record.throughputBps.isFinite {
            throughputCapacityRatioSum += record.throughputBps / available
            throughputCapacityRatioCount += 1
        }
        weightedBitrate += record.bitrateBps * record.durationSeconds
        durationSeconds += record.durationSeconds
        if let previousVariant, previousVariant != record.variant { switchCount += 1 }
        if record.variant == topVariant { topQualitySeconds += record.durationSeconds }
        previousVariant = record.variant
        for index in scorers.indices {
            qoe[index].add(quality: scorers[index].quality(bitrateBps: record.bitrateBps))
        }
    }

    /// The mean ratio of measured throughput to available capacity over the downloads, `nil` without any.
    public var meanThroughputCapacityRatio: Double? {
        throughputCapacityRatioCount > 0 ? throughputCapacityRatioSum / Double(throughputCapacityRatioCount) : nil
    }
}
