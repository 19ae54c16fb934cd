/// A table a sweep writes beside `summary.csv` and `segments.csv` for some scenarios only: `chunks.csv` (LL-DASH
/// chunked content, when segments are written), `feed.csv` and `items.csv` (feed scenarios, `docs/feed.md`). Each
/// has its byte count per run in `runs.csv` (`chunks_bytes`, `feed_bytes`, `items_bytes`) and its committed length
/// in `progress`, as the two main tables do. Which a sweep writes is recorded in its manifest
/// (``SweepPlan/extraTables(manifest:)``). Used by ``SweepStore``, ``SweepMerge`` and ``SweepRunner``.
public enum SweepTable: String, CaseIterable, Sendable {
    case chunks, feed, items

    /// The table's file name.
    public var fileName: String { rawValue + ".csv" }

    /// Its column in `runs.csv`.
    var indexColumn: String { rawValue + "_bytes" }

    /// Its field in the message about a damaged `runs.csv` line.
    var indexPlaceholder: String {
        switch self {
        case .chunks: "CHUNK_BYTES"
        case .feed: "FEED_BYTES"
        case .items: "ITEM_BYTES"
        }
    }

    /// Its header line, with `extraColumns` (a grid's settings) after its own columns.
    func header(extraColumns: [String]) -> [UInt8] {
        switch self {
        case .chunks: RunTables.placedChunks.writer(extraColumns: extraColumns).bytes
        case .feed: FeedTables.session.writer(extraColumns: extraColumns).bytes
        case .items: FeedTables.items.writer(extraColumns: extraColumns).bytes
        }
    }

    /// Its rows in one run's rows.
    func rows(of run: SweepRunRows) -> [UInt8] {
        switch self {
        case .chunks: run.chunks
        case .feed: run.feed
        case .items: run.items
        }
    }
}
