/// The tables of a feed run (`docs/feed.md`): `items.csv`, one row per item, and `feed.csv`, one row for the
/// session. Read only ``RunReport``s. Written by ``RunTables/bundle(for:pieceBytes:)`` for feed runs only.
public enum FeedTables {
    /// One row of `items.csv`: the run's labels and one item's metrics.
    public struct ItemRow: Sendable {
        public var scenario: String
        public var player: String
        public var policy: String
        public var preload: String
        public var trace: String
        public var item: FeedItemSummary
    }

    /// One row of `feed.csv`.
    public struct SessionRow: Sendable {
        public var scenario: String
        public var player: String
        public var policy: String
        public var trace: String
        public var feed: FeedSummary
    }

    /// `items.csv`.
    public static let items = CSVSchema<ItemRow>([
        .text("scenario") { $0.scenario }, .text("player") { $0.player }, .text("policy") { $0.policy },
        .text("preload") { $0.preload }, .text("trace") { $0.trace },
        .integer("position") { $0.item.position }, .text("item") { $0.item.id },
        .optionalNumber("playing_since_s") { $0.item.playingSince },
        .number("duration_s") { $0.item.durationSeconds },
        .number("watched_s") { $0.item.watchedSeconds },
        .optionalNumber("startup_s") { $0.item.startupSeconds },
        .integer("stall_count") { $0.item.stallCount },
        .number("stall_s") { $0.item.stallSeconds },
        .number("avg_bitrate_kbps") { $0.item.averageBitrateKbps },
        .integer("preloaded_segments") { $0.item.preloadedSegments },
        .number("bytes") { $0.item.bytes },
        .number("wasted_bytes") { $0.item.wastedBytes },
        .text("final_state") { $0.item.finalState.csvName },
    ])

    /// `feed.csv`.
    public static let session = CSVSchema<SessionRow>([
        .text("scenario") { $0.scenario }, .text("player") { $0.player }, .text("policy") { $0.policy },
        .text("preload") { $0.feed.preload }, .text("swipe") { $0.feed.swipe }, .text("trace") { $0.trace },
        .integer("items") { $0.feed.items.count },
        .integer("items_played") { $0.feed.itemsPlayed },
        .number("watched_s") { $0.feed.watchedSeconds },
        .optionalNumber("startup_mean_s") { $0.feed.startupMeanSeconds },
        .integer("stall_count") { $0.feed.stallCount },
        .number("stall_s") { $0.feed.stallSeconds },
        .number("bytes") { $0.feed.bytes },
        .number("wasted_bytes") { $0.feed.wastedBytes },
        .optionalNumber("download_watch_ratio") { $0.feed.downloadWatchRatio },
        .number("qoe_shortvideo") { $0.feed.qoe },
        .number("bandwidth_cost") { $0.feed.bandwidthCost },
        .number("score") { $0.feed.score },
    ])

    /// Names of the `feed.csv` metrics an `expect` item may bound.
    public static var sessionMetrics: [String] { Array(session.names.dropFirst(7)) }

    /// `items.csv` of `report`.
    public static func items(_ report: RunReport, _ feed: FeedSummary) -> [UInt8] {
        var writer = items.writer()
        appendItems(report, feed, to: &writer)
        return writer.takeBytes()
    }

    /// Appends the `items.csv` rows of `report` to `writer`, then `extra` (a sweep's grid settings) in every row.
    public static func appendItems(
        _ report: RunReport, _ feed: FeedSummary, to writer: inout CSVWriter, extra: [String] = []
    ) {
        let viewer = report.players.first
        for item in feed.items {
            items.append(
                ItemRow(
                    scenario: report.scenario, player: viewer?.id ?? "", policy: viewer?.policy ?? "",
                    preload: feed.preload, trace: report.trace, item: item), to: &writer, extra: extra)
        }
    }

    /// `feed.csv` of `report`.
    public static func session(_ report: RunReport, _ feed: FeedSummary) -> [UInt8] {
        var writer = session.writer()
        session.append(sessionRow(report, feed), to: &writer)
        return writer.takeBytes()
    }

    /// The `feed.csv` row of `report`.
    public static func sessionRow(_ report: RunReport, _ feed: FeedSummary) -> SessionRow {
        let viewer = report.players.first
        return SessionRow(
            scenario: report.scenario, player: viewer?.id ?? "", policy: viewer?.policy ?? "", trace: report.trace,
            feed: feed)
    }
}
