/// A feed run's metrics: one ``FeedItemSummary`` per item and the session's totals, as `items.csv` and `feed.csv`
/// show them. Sizes in bytes, times in seconds. Made by ``FeedRun`` from the items' records.
public struct FeedSummary: Sendable {
    /// The preload policy and swipe model as written.
    public var preload: String
    public var swipe: String
    /// The items, in feed order.
    public var items: [FeedItemSummary]
    /// Items that played (became the playing item).
    public var itemsPlayed: Int
    /// Media seconds watched, over the items.
    public var watchedSeconds: Double
    /// The mean startup delay of the items that started, s (`nil`: none started).
    public var startupMeanSeconds: Double?
    /// Stalls and their seconds, over the items.
    public var stallCount: Int
    public var stallSeconds: Double
    /// Bytes downloaded, and those never played (abandoned transfers, and segments wholly past the watched part).
    public var bytes: Double
    public var wastedBytes: Double
    /// Media seconds downloaded over media seconds watched (`nil` when nothing was watched).
    public var downloadWatchRatio: Double?
    /// The challenge's QoE (``ShortVideoQoE``) over the watched segments in play order.
    public var qoe: Double
    /// The challenge's bandwidth cost: 0.5 per megabit downloaded.
    public var bandwidthCost: Double
    /// QoE − bandwidth cost, the challenge's score.
    public var score: Double { qoe - bandwidthCost }

    /// The summary of `parts` (one per item, in feed order, with its segment records), each item's watch time and
    /// when it started playing.
    init(
        parts: [RunReport.PlayerReport], contents: [Content], playingSince: [Double?], preloadedSegments: [Int],
        preload: String, swipe: String
    ) {
        self.preload = preload
        self.swipe = swipe
        var items: [FeedItemSummary] = []
        var tally = QoETally()
        let model = ShortVideoQoE()
        var downloadedMedia = 0.0
        var startupSum = 0.0
        var startups = 0
        for (position, part) in parts.enumerated() {
            let content = contents[position]
            let watched = part.summary.playedSeconds
            var wasted = 0.0
            var played = Set<Int>()
            for record in part.segments where !record.cacheHit {
                let start = content.segmentStarts[record.segment]
                if record.abandoned {
                    wasted += record.bytes
                    continue
                }
                downloadedMedia += record.durationSeconds
                if start >= watched - SimulationTime.tolerance {
                    wasted += record.bytes
                } else if played.insert(record.segment).inserted {
                    tally.add(quality: model.quality(bitrateBps: record.bitrateBps, ladderBps: [], qualities: []))
                }
            }
            let summary = part.summary
            if let startup = summary.startupSeconds {
                startupSum += startup
                startups += 1
            }
            items.append(
                FeedItemSummary(
                    id: part.item ?? "", position: position, playingSince: playingSince[position],
                    durationSeconds: content.duration, watchedSeconds: watched, startupSeconds: summary.startupSeconds,
                    stallCount: summary.stallCount, stallSeconds: summary.stallSeconds,
                    averageBitrateKbps: summary.averageBitrateKbps, preloadedSegments: preloadedSegments[position],
                    bytes: summary.bytes, wastedBytes: wasted, finalState: summary.finalState))
        }
        self.items = items
        itemsPlayed = playingSince.compactMap { $0 }.count
        watchedSeconds = items.reduce(0) { $0 + $1.watchedSeconds }
        startupMeanSeconds = startups > 0 ? startupSum / Double(startups) : nil
        stallCount = items.reduce(0) { $0 + $1.stallCount }
        stallSeconds = items.reduce(0) { $0 + $1.stallSeconds }
        bytes = items.reduce(0) { $0 + $1.bytes }
        wastedBytes = items.reduce(0) { $0 + $1.wastedBytes }
        downloadWatchRatio = watchedSeconds > 0 ? downloadedMedia / watchedSeconds : nil
        qoe = model.score(
            tally, stallSeconds: stallSeconds, startupSeconds: startupSum, weights: model.defaultWeights)
        bandwidthCost = ShortVideoQoE.costPerMegabit * bytes * 8 / 1_000_000
    }
}

/// One item's metrics in a feed run (a row of `items.csv`).
public struct FeedItemSummary: Sendable {
    /// Its id and position in the feed.
    public var id: String
    public var position: Int
    /// When it became the playing item, s (`nil`: never).
    public var playingSince: Double?
    /// Its content's duration and the media seconds watched, s.
    public var durationSeconds: Double
    public var watchedSeconds: Double
    /// From becoming the playing item to its first frame, s (0 when preloaded media let it start at once; `nil` when
    /// it never started).
    public var startupSeconds: Double?
    /// Its stalls and their seconds.
    public var stallCount: Int
    public var stallSeconds: Double
    /// The mean declared bitrate of its segments, kbit/s.
    public var averageBitrateKbps: Double
    /// Segments requested for it before it played.
    public var preloadedSegments: Int
    /// Bytes downloaded for it, and those never played.
    public var bytes: Double
    public var wastedBytes: Double
    /// Its player's final state.
    public var finalState: PlaybackState
}
