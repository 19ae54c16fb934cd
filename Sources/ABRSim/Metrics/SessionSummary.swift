/// The numbers of one player's session: a row of `summary.csv`.
///
/// Made from a player's ``SegmentRecord``s and ``PlayerTotals`` by ``SessionSummary/init(segments:totals:qoe:)``;
/// read by the CSV writer, the command line's table and (later) scenario checks.
public struct SessionSummary: Sendable, Equatable {
    /// Segments downloaded (abandoned requests not counted).
    public var segments: Int
    /// Requests abandoned before they finished.
    public var abandonedCount: Int
    /// Play request to first frame (seconds); `nil` if playback never started.
    public var startupSeconds: Double?
    /// Stalls after startup.
    public var stallCount: Int
    /// Seconds stalled after startup.
    public var stallSeconds: Double
    /// stall / (played + stall): the share of the time the viewer wanted to watch that was spent stalled.
    public var rebufferRatio: Double
    /// Mean declared bitrate of the downloaded segments, weighted by their media duration (kbit/s).
    public var averageBitrateKbps: Double
    /// Variant changes between consecutive downloaded segments.
    public var switchCount: Int
    /// Bytes transferred.
    public var bytes: Double
    /// Media seconds played.
    public var playedSeconds: Double
    /// Seconds waiting for the buffer to refill after seeks and resumes (not stalls).
    public var seekWaitSeconds: Double
    /// Media seconds downloaded at the top variant.
    public var topQualitySeconds: Double
    /// Linear QoE with the scenario's weights.
    public var qoeLinear: Double
    /// The player's state when the run stopped.
    public var finalState: PlaybackState
    /// When the player ended or failed (`nil` if still going at the end of the run).
    public var endTime: Double?

    /// The summary of one player.
    public init(segments allRecords: [SegmentRecord], totals: PlayerTotals, topVariant: Int, qoe: QoEWeights) {
        let records = allRecords.filter { !$0.abandoned }
        segments = records.count
        abandonedCount = allRecords.count - records.count
        startupSeconds = totals.startupSeconds
        stallCount = totals.stallCount
        stallSeconds = totals.stallSeconds
        let wanted = totals.playedSeconds + totals.stallSeconds
        rebufferRatio = wanted > 0 ? totals.stallSeconds / wanted : 0
        var weighted = 0.0
        var duration = 0.0
        var switches = 0
        var top = 0.0
        var previous: Int?
        for record in records {
            weighted += record.bitrateBps * record.durationSeconds
            duration += record.durationSeconds
            if let previous, previous != record.variant { switches += 1 }
            if record.variant == topVariant { top += record.durationSeconds }
            previous = record.variant
        }
        averageBitrateKbps = duration > 0 ? weighted / duration / 1000 : 0
        switchCount = switches
        bytes = totals.bytes
        playedSeconds = totals.playedSeconds
        seekWaitSeconds = totals.seekWaitSeconds
        topQualitySeconds = top
        qoeLinear = qoe.linear(
            bitratesBps: records.map(\.bitrateBps), stallSeconds: totals.stallSeconds,
            startupSeconds: totals.startupSeconds ?? 0)
        finalState = totals.finalState
        endTime = totals.endTime
    }
}
