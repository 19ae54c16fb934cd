/// The download model's view in the records (issue 19): how far the throughput a player measured falls below the
/// capacity it had. Read by ``RunTables`` for `summary.csv`.
public enum DownloadModelView {
    /// The mean over completed network downloads of measured throughput ÷ capacity available at the first byte
    /// (`nil` when there is none): 1 for a lone player under the fluid model on any trace, below 1 where a window holds the
    /// downloads back.
    public static func meanThroughputCapacityRatio(_ segments: [SegmentRecord]) -> Double? {
        var sum = 0.0
        var count = 0
        for r in segments where !r.abandoned && !r.cacheHit {
            guard let available = r.availableBps, available > 0, r.throughputBps.isFinite else { continue }
            sum += r.throughputBps / available
            count += 1
        }
        return count > 0 ? sum / Double(count) : nil
    }
}
