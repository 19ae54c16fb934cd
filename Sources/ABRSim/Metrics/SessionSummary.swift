/// The numbers of one player's session: a row of `summary.csv`.
///
/// Made from a player's ``SegmentRecord``s and ``PlayerTotals`` by ``SessionSummary/init(segments:totals:qoe:)``;
/// read by the CSV writer, the command line's table and (later) scenario checks.
public struct SessionSummary: Sendable, Equatable {
    /// Segments downloaded (abandoned requests not counted).
    public var segments: Int
    /// Requests the policy abandoned before they finished (timeouts and seeks' cancellations not counted).
    public var abandonedCount: Int
    /// Requests abandoned because they received no data for the request timeout.
    public var timedOutCount: Int
    /// Requests sent again after a timeout.
    public var retryCount: Int
    /// Net media seconds jumped over by seeks (negative after seeking back).
    public var skippedSeconds: Double
    /// The mean over completed network downloads of measured throughput ÷ the capacity available to them (`nil`
    /// when there is none): 1 for a lone player under the fluid model on any trace, below 1 where a download
    /// model's window holds the downloads back (`summary.csv`'s `throughput_capacity_ratio`).
    public var throughputCapacityRatio: Double?
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
    /// Bytes transferred: the sum of the player's `segments.csv` bytes over the rows not served from the cache.
    public var bytes: Double
    /// Media seconds played.
    public var playedSeconds: Double
    /// Seconds waiting for the buffer to refill after seeks and resumes (not stalls).
    public var seekWaitSeconds: Double
    /// Segments served from the disk cache.
    public var cacheHits: Int
    /// Media seconds downloaded at the top variant.
    public var topQualitySeconds: Double
    /// Linear QoE with the scenario's weights (q(R) = R in Mbit/s).
    public var qoeLinear: Double
    /// Log QoE (q(R) = ln(R/R_min)).
    public var qoeLog: Double
    /// HD QoE (Pensieve's HD reward table, stretched over other ladders by rung).
    public var qoeHD: Double
    /// Bits received over the capacity the shared link offered during the player's session (start to end):
    /// its average share of the link. Set by the runner, which knows the network.
    public var averageLinkShare: Double?
    /// Bits received per second of the player's session.
    public var averageThroughputBps: Double?
    /// The player's state when the run stopped (a failed state carries its reason).
    public var finalState: PlaybackState
    /// When the player ended or failed (`nil` if still going at the end of the run).
    public var endTime: Double?
    /// A live player's latency figures (`nil` for video on demand).
    public var live: LiveSummary?

    /// The summary of one player.
    public init(segments allRecords: [SegmentRecord], totals: PlayerTotals, ladderBps: [Double], qoe: QoESettings) {
        self.init(tally: SegmentTally(ladderBps: ladderBps, records: allRecords), totals: totals, qoe: qoe)
    }

    /// The summary of one player from the tally of its records (see ``SegmentTally``).
    public init(tally: SegmentTally, totals: PlayerTotals, qoe: QoESettings) {
        segments = tally.segmentCount
        timedOutCount = totals.timedOutRequests
        retryCount = totals.retries
        skippedSeconds = totals.skippedSeconds
        throughputCapacityRatio = tally.meanThroughputCapacityRatio
        abandonedCount = tally.requestCount - tally.segmentCount - tally.timedOutCount - tally.cancelledCount
        startupSeconds = totals.startupSeconds
        stallCount = totals.stallCount
        stallSeconds = totals.stallSeconds
        let wanted = totals.playedSeconds + totals.stallSeconds
        rebufferRatio = wanted > 0 ? totals.stallSeconds / wanted : 0
        averageBitrateKbps = tally.durationSeconds > 0 ? tally.weightedBitrate / tally.durationSeconds / 1000 : 0
        switchCount = tally.switchCount
        bytes = totals.bytes
        playedSeconds = totals.playedSeconds
        seekWaitSeconds = totals.seekWaitSeconds
        topQualitySeconds = tally.topQualitySeconds
        let startup = totals.startupSeconds ?? 0
        let scores = tally.scorers.indices.map { index in
            var scorer = tally.scorers[index]
            scorer.weights = qoe.weights(for: scorer.model)
            return scorer.score(tally.qoe[index], stallSeconds: totals.stallSeconds, startupSeconds: startup)
        }
        qoeLinear = scores[0]
        qoeLog = scores[1]
        qoeHD = scores[2]
        cacheHits = totals.cacheHits
        averageLinkShare = nil
        averageThroughputBps = nil
        finalState = totals.finalState
        endTime = totals.endTime
        live = totals.live
    }
}
