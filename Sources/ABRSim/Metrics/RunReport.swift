/// Everything one run produced, labelled for output: what the CSV writers, the command line's table and the
/// checks read. Made by ``ScenarioRunner`` from a ``SimulationResult``.
public struct RunReport: Sendable {
    /// One player's part of the run.
    public struct PlayerReport: Sendable {
        /// The player's id.
        public var id: String
        /// The policy as written.
        public var policy: String
        /// Its segment requests.
        public var segments: [SegmentRecord]
        /// Its timeline rows.
        public var timeline: [TimelineRecord]
        /// Its summary.
        public var summary: SessionSummary
        /// Its stalls, in order.
        public var stalls: [StallPeriod] = []
        /// Whether its content is LL-DASH chunked (its requests' chunk timings are in ``chunks``).
        public var isChunked = false
        /// The timings of its arrived CMAF chunks, request by request.
        public var chunks: [ChunkTiming] = []
        /// The feed item this part of the viewer's session played (the `item` column), `nil` outside feed runs.
        public var item: String?
    }

    /// The scenario's name.
    public var scenario: String
    /// The network label (trace file name or stretches).
    public var trace: String
    /// When the run stopped.
    public var endTime: Double
    /// The players, in scenario order.
    public var players: [PlayerReport]
    /// Fairness between the players (every index 1 for a single player).
    public var fairness: FairnessSummary?
    /// A feed run's per-item and per-session metrics (``players`` then holds one part per item), else `nil`.
    public var feed: FeedSummary?

    /// Whether the run played a feed: its segment and timeline tables then carry the `item` column.
    public var isFeed: Bool { feed != nil }

    /// Whether a player played live content: its tables then have the latency columns.
    public var isLive: Bool { players.contains { $0.summary.live != nil } }
    /// Whether a player plays chunked content (the run then has `chunks.csv`).
    public var isChunked: Bool { players.contains { $0.isChunked } }
}
