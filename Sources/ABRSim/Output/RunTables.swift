/// The CSV tables of a run (`segments.csv`, `timeline.csv`, `summary.csv`, `access_log.csv`; DESIGN §2.6), as
/// bytes.
///
/// Reads only ``RunReport``s, never the model. Column names carry units; one observation per row; booleans
/// `true`/`false`; empty fields where a value does not exist (a startup that never happened). Called by the
/// command line after a run, and by sweeps, which append the rows of many reports to one table.
public enum RunTables {
    /// One row of a per-player table: the run and player it belongs to, and the record it shows.
    public struct Row<Record>: Sendable where Record: Sendable {
        /// The scenario's name.
        public var scenario: String
        /// The player's id.
        public var player: String
        /// The player's policy, as written.
        public var policy: String
        /// The network label.
        public var trace: String
        /// What the row shows (a segment record, an access-log event, a summary).
        public var record: Record
        /// The feed item (feed runs only).
        public var item: String? = nil
    }

    /// A summary row's record: the player's summary and the run's fairness.
    public struct SummaryRecord: Sendable {
        /// The player's summary.
        public var summary: SessionSummary
        /// Fairness between the run's players.
        public var fairness: FairnessSummary?
    }

    /// An access-log row's record: the event and its number (from 0, per player).
    public struct AccessLogRecord: Sendable {
        /// The event's number.
        public var index: Int
        /// The event.
        public var event: AccessLogEvent
    }

    /// A timeline row: the record and its player's id.
    public struct TimelineRow: Sendable {
        /// The player's id.
        public var player: String
        /// The record.
        public var record: TimelineRecord
        /// The feed item (feed runs only).
        public var item: String? = nil
    }

    /// How many columns ``placeColumns()`` has.
    static let placeColumnCount = (placeColumns() as [CSVColumn<Row<Int>>]).count

    /// The columns every per-player table starts with.
    static func placeColumns<Record>() -> [CSVColumn<Row<Record>>] {
        [
            .text("scenario") { $0.scenario }, .text("player") { $0.player }, .text("policy") { $0.policy },
            .text("trace") { $0.trace },
        ]
    }

    /// `summary.csv`: one row per player.
    public static let summary = CSVSchema<Row<SummaryRecord>>(summaryColumnList)

    /// `summary.csv` of a run with a live player: ``summary`` then the latency columns (empty for a player of video
    /// on demand).
    public static let liveSummary = CSVSchema<Row<SummaryRecord>>(
        summaryColumnList + [
            .optionalNumber("latency_mean_s") { $0.record.summary.live?.latencyMeanSeconds },
            .optionalNumber("latency_p95_s") { $0.record.summary.live?.latencyP95Seconds },
            .optionalNumber("time_above_target_latency_s") { $0.record.summary.live?.timeAboveTargetLatencySeconds },
            .optionalNumber("catchup_seeks") { $0.record.summary.live.map { Double($0.catchUpSeeks) } },
        ])

    /// The `summary.csv` schema of a run with (`live`) or without a live player.
    public static func summary(live: Bool) -> CSVSchema<Row<SummaryRecord>> { live ? liveSummary : summary }

    /// The columns of `summary.csv` every run has.
    static let summaryColumnList: [CSVColumn<Row<SummaryRecord>>] =
        placeColumns() + [
            .integer("segments") { $0.record.summary.segments },
            .integer("abandoned_count") { $0.record.summary.abandonedCount },
            .optionalNumber("startup_s") { $0.record.summary.startupSeconds },
            .integer("stall_count") { $0.record.summary.stallCount },
            .number("stall_s") { $0.record.summary.stallSeconds },
            .number("rebuffer_ratio") { $0.record.summary.rebufferRatio },
            .number("avg_bitrate_kbps") { $0.record.summary.averageBitrateKbps },
            .integer("switch_count") { $0.record.summary.switchCount },
            .number("bytes") { $0.record.summary.bytes },
            .number("played_s") { $0.record.summary.playedSeconds },
            .number("seek_wait_s") { $0.record.summary.seekWaitSeconds },
            .number("top_quality_s") { $0.record.summary.topQualitySeconds },
            .number("qoe_lin") { $0.record.summary.qoeLinear },
            .number("qoe_log") { $0.record.summary.qoeLog },
            .number("qoe_hd") { $0.record.summary.qoeHD },
            .text("final_state") { $0.record.summary.finalState.csvName },
            .optionalNumber("end_s") { $0.record.summary.endTime },
            .integer("cache_hits") { $0.record.summary.cacheHits },
            .optionalNumber("avg_throughput_kbps") { $0.record.summary.averageThroughputBps.map { $0 / 1000 } },
            .optionalNumber("link_share") { $0.record.summary.averageLinkShare },
            .optionalNumber("jain_throughput") { $0.record.fairness?.throughput },
            .optionalNumber("jain_bitrate") { $0.record.fairness?.bitrate },
            .optionalNumber("jain_qoe") { $0.record.fairness?.qoe },
            .optionalNumber("jain_throughput_weighted") { $0.record.fairness?.throughputWeighted },
            .optionalNumber("jain_bitrate_weighted") { $0.record.fairness?.bitrateWeighted },
            .optionalNumber("jain_qoe_weighted") { $0.record.fairness?.qoeWeighted },
            .optionalNumber("unfairness") { $0.record.fairness?.unfairness },
            .optionalText("jain_qoe_undefined") { $0.record.fairness?.qoeUndefinedReason },
            .optionalText("failure_reason") {
                if case .failed(let reason) = $0.record.summary.finalState { reason } else { nil }
            },
            .integer("timeout_count") { $0.record.summary.timedOutCount },
            .integer("retry_count") { $0.record.summary.retryCount },
            .number("skipped_s") { $0.record.summary.skippedSeconds },
            .optionalNumber("throughput_capacity_ratio") { $0.record.summary.throughputCapacityRatio },
        ]

    /// `segments.csv`: one row per segment request.
    public static let segments = CSVSchema<Row<SegmentRecord>>(segmentColumnList)

    /// `segments.csv` of a feed run: ``segments`` then `item`, the feed item of the request.
    public static let feedSegments = CSVSchema<Row<SegmentRecord>>(
        segmentColumnList + [.optionalText("item") { $0.item }])

    /// The `segments.csv` schema of a feed run or of any other.
    public static func segments(feed: Bool) -> CSVSchema<Row<SegmentRecord>> { feed ? feedSegments : segments }

    /// The columns of `segments.csv` every run has.
    static let segmentColumnList: [CSVColumn<Row<SegmentRecord>>] =
        placeColumns() + [
            .integer("segment") { $0.record.segment },
            .integer("variant") { $0.record.variant },
            .number("bitrate_kbps") { $0.record.bitrateBps / 1000 },
            .number("duration_s") { $0.record.durationSeconds },
            .number("bytes") { $0.record.bytes },
            .number("request_s") { $0.record.requestTime },
            .number("first_byte_s") { $0.record.firstByteTime },
            .number("done_s") { $0.record.doneTime },
            .number("throughput_kbps") { $0.record.throughputBps / 1000 },
            .number("buffer_before_s") { $0.record.bufferBeforeSeconds },
            .number("buffer_after_s") { $0.record.bufferAfterSeconds },
            .number("stall_s") { $0.record.stallSeconds },
            .bool("abandoned") { $0.record.abandoned },
            .bool("cache_hit") { $0.record.cacheHit },
            .bool("timed_out") { $0.record.timedOut },
            .integer("attempt") { $0.record.attempt },
            .bool("cancelled") { $0.record.cancelled },
            .optionalNumber("available_kbps") { $0.record.availableBps.map { $0 / 1000 } },
            .optionalNumber("model_throughput_kbps") { $0.record.modelThroughputBps.map { $0 / 1000 } },
        ]

    /// `chunks.csv` (runs with LL-DASH chunked content only): one row per CMAF chunk that arrived, with its
    /// availability (encode) time and its first and last byte, simulated seconds.
    public static let chunks = CSVSchema<Row<ChunkTiming>>([
        .text("player") { $0.player },
        .integer("segment") { $0.record.segment },
        .integer("chunk") { $0.record.chunk },
        .number("bits") { $0.record.bits },
        .number("available_s") { $0.record.availableTime },
        .number("first_byte_s") { $0.record.firstByteTime },
        .number("last_byte_s") { $0.record.lastByteTime },
    ])

    /// Appends the chunk rows of `report` to `writer` (made from ``chunks``), player by player.
    public static func appendChunks(_ report: RunReport, to writer: inout CSVWriter) {
        for player in report.players {
            for timing in player.chunks { chunks.append(row(report, player, timing), to: &writer) }
        }
    }

    /// `chunks.csv` of `compare` and `sweep` (runs with chunked content only): ``chunks``'s columns after the place columns every
    /// per-run table starts with (`scenario`, `player`, `policy`, `trace`), so the rows of many runs stay apart.
    public static let placedChunks = CSVSchema<Row<ChunkTiming>>(
        placeColumns() + [
            .integer("segment") { $0.record.segment },
            .integer("chunk") { $0.record.chunk },
            .number("bits") { $0.record.bits },
            .number("available_s") { $0.record.availableTime },
            .number("first_byte_s") { $0.record.firstByteTime },
            .number("last_byte_s") { $0.record.lastByteTime },
        ])

    /// Appends the chunk rows of `report` to `writer` (made from ``placedChunks``), player by player, each followed
    /// by `extra`'s values (a sweep's grid columns).
    public static func appendPlacedChunks(_ report: RunReport, to writer: inout CSVWriter, extra: [String] = []) {
        for player in report.players {
            for timing in player.chunks { placedChunks.append(row(report, player, timing), to: &writer, extra: extra) }
        }
    }

    /// `timeline.csv`: one row per timeline record, all players merged.
    public static let timeline = CSVSchema<TimelineRow>(timelineColumnList)

    /// `timeline.csv` of a run with a live player: ``timeline`` then `latency_s` (from the first frame) and `rate`
    /// (the playback rate in effect, 0 while the playhead does not move), empty for a player of video on demand.
    public static let liveTimeline = CSVSchema<TimelineRow>(
        timelineColumnList + [
            .optionalNumber("latency_s") { $0.record.latencySeconds },
            .optionalNumber("rate") { $0.record.rate },
        ])

    /// `timeline.csv` of a feed run: ``timeline`` then `item`, the feed item of the row.
    public static let feedTimeline = CSVSchema<TimelineRow>(timelineColumnList + [.optionalText("item") { $0.item }])

    /// The `timeline.csv` schema of a run with (`live`) or without a live player, or of a feed run (`feed`).
    public static func timeline(live: Bool, feed: Bool = false) -> CSVSchema<TimelineRow> {
        feed ? feedTimeline : (live ? liveTimeline : timeline)
    }

    /// The columns of `timeline.csv` every run has.
    static let timelineColumnList: [CSVColumn<TimelineRow>] = [
        .number("t_s") { $0.record.time },
        .text("player") { $0.player },
        .text("state") { $0.record.state.csvName },
        .text("time_control_status") { $0.record.timeControlStatus.rawValue },
        .optionalText("waiting_reason") { $0.record.waitingReason?.rawValue },
        .number("buffer_s") { $0.record.bufferSeconds },
        .number("playhead_s") { $0.record.playheadSeconds },
        .number("bitrate_kbps") { $0.record.bitrateBps / 1000 },
        .number("link_share") { $0.record.linkShare },
        .bool("likely_to_keep_up") { $0.record.isPlaybackLikelyToKeepUp },
        .bool("buffer_empty") { $0.record.isPlaybackBufferEmpty },
        .bool("buffer_full") { $0.record.isPlaybackBufferFull },
        .optionalText("failure_reason") { if case .failed(let reason) = $0.record.state { reason } else { nil } },
    ]

    /// `access_log.csv`: the event's place, then AVPlayerItemAccessLogEvent's fields in snake_case (bit/s, seconds,
    /// bytes; −1 = unknown; see ``AccessLogEvent``).
    public static let accessLog = CSVSchema<Row<AccessLogRecord>>(
        placeColumns() + [
            .integer("event") { $0.record.index },
            .number("start_s") { $0.record.event.startTime },
            .number("end_s") { $0.record.event.endTime },
            .number("indicated_bitrate") { $0.record.event.indicatedBitrate },
            .number("observed_bitrate") { $0.record.event.observedBitrate },
            .number("observed_bitrate_standard_deviation") { $0.record.event.observedBitrateStandardDeviation },
            .number("switch_bitrate") { $0.record.event.switchBitrate },
            .integer("number_of_stalls") { $0.record.event.numberOfStalls },
            .number("startup_time") { $0.record.event.startupTime },
            .number("duration_watched") { $0.record.event.durationWatched },
            .number("segments_downloaded_duration") { $0.record.event.segmentsDownloadedDuration },
            .number("number_of_bytes_transferred") { $0.record.event.numberOfBytesTransferred },
            .number("transfer_duration") { $0.record.event.transferDuration },
            .integer("number_of_media_requests") { $0.record.event.numberOfMediaRequests },
            .integer("download_overdue") { $0.record.event.downloadOverdue },
        ])

    /// Columns of `summary.csv`.
    public static var summaryColumns: [String] { summary.names }
    /// Columns of `summary.csv` of a run with (`live`) or without a live player.
    public static func summaryColumns(live: Bool) -> [String] { summary(live: live).names }
    /// Columns of `segments.csv`.
    public static var segmentColumns: [String] { segments.names }
    /// Columns of `timeline.csv`.
    public static var timelineColumns: [String] { timeline.names }
    /// Columns of `access_log.csv`.
    public static var accessLogColumns: [String] { accessLog.names }

    /// A row of `player` of `report` showing `record`.
    static func row<Record>(_ report: RunReport, _ player: RunReport.PlayerReport, _ record: Record) -> Row<Record> {
        Row(
            scenario: report.scenario, player: player.id, policy: player.policy, trace: report.trace, record: record,
            item: player.item)
    }

    /// Appends the access-log rows of `report` to `writer` (made from ``accessLog``), player by player, events
    /// numbered from 0.
    public static func appendAccessLog(_ report: RunReport, to writer: inout CSVWriter) {
        for player in report.players {
            let events = AccessLog.events(timeline: player.timeline, segments: player.segments, endTime: report.endTime)
            for (index, event) in events.enumerated() {
                accessLog.append(row(report, player, AccessLogRecord(index: index, event: event)), to: &writer)
            }
        }
    }

    /// Appends the summary rows of `report` to `writer` (made from ``summary(live:)`` with one extra column per
    /// `extra` value: a sweep's grid settings, written at the end of every row); `live` (default: whether the report
    /// has a live player) says which schema the writer's header is.
    public static func appendSummary(
        _ report: RunReport, to writer: inout CSVWriter, extra: [String] = [], live: Bool? = nil
    ) {
        let schema = summary(live: live ?? report.isLive)
        for player in report.players {
            let record = SummaryRecord(summary: player.summary, fairness: report.fairness)
            schema.append(row(report, player, record), to: &writer, extra: extra)
        }
    }

    /// Appends the segment rows of `report` to `writer` (made from ``segments`` with one extra column per `extra`
    /// value, as for ``appendSummary(_:to:extra:)``).
    public static func appendSegments(_ report: RunReport, to writer: inout CSVWriter, extra: [String] = []) {
        let segments = segments(feed: report.isFeed)
        for player in report.players {
            // One row value reused for the player's records, its labels written once.
            guard let first = player.segments.first else { continue }
            var current = row(report, player, first)
            let labels = segments.prefix(of: current, count: placeColumnCount)
            for record in player.segments {
                current.record = record
                segments.append(current, after: labels, to: &writer, extra: extra)
            }
        }
    }

    /// Appends the timeline rows of `report` to `writer` (made from ``timeline(live:)`` with the report's
    /// ``RunReport/isLive``), all players merged in time order (ties in player order). The merge sorts
    /// positions, not copies of the records.
    public static func appendTimeline(_ report: RunReport, to writer: inout CSVWriter) {
        let timeline = timeline(live: report.isLive, feed: report.isFeed)
        var order: [(player: Int, index: Int)] = []
        order.reserveCapacity(report.players.reduce(0) { $0 + $1.timeline.count })
        for (player, entry) in report.players.enumerated() {
            for index in entry.timeline.indices { order.append((player, index)) }
        }
        if report.players.count > 1 {
            let players = report.players
            order = order.enumerated().sorted {
                let a = players[$0.element.player].timeline[$0.element.index]
                let b = players[$1.element.player].timeline[$1.element.index]
                return (a.time, a.player, $0.offset) < (b.time, b.player, $1.offset)
            }.map(\.element)
        }
        for (player, index) in order {
            let entry = report.players[player]
            timeline.append(TimelineRow(player: entry.id, record: entry.timeline[index], item: entry.item), to: &writer)
        }
    }

    /// The four tables of one run, ready to commit as an ``OutputBundle``. `summary.csv` is made at once; the
    /// per-segment, timeline and access-log tables are written to their files in pieces of about `pieceBytes`
    /// while the bundle is committed, so no table is held whole in memory.
    /// With `tables` (the sink the run handed its records to; not for a feed run), the per-segment, timeline and
    /// access-log tables are that sink's, the same bytes.
    public static func bundle(
        for report: RunReport, pieceBytes: Int = 1 << 20, streamed tables: StreamedRunTables? = nil
    )
        -> OutputBundle
    {
        var summary = Self.summary(live: report.isLive).writer()
        appendSummary(report, to: &summary)
        var bundle = OutputBundle()
        bundle.add(name: "summary.csv", bytes: summary.takeBytes())
        if let tables {
            precondition(!report.isFeed && tables.isLive == report.isLive, "streamed tables of another run")
            tables.add(to: &bundle, report: report)
            if report.isChunked {
                bundle.add(
                    name: "chunks.csv", streaming: streamed(chunks.names, pieceBytes) { appendChunks(report, to: &$0) })
            }
            return bundle
        }
        bundle.add(
            name: "segments.csv",
            streaming: streamed(segments(feed: report.isFeed).names, pieceBytes) { appendSegments(report, to: &$0) })
        bundle.add(
            name: "timeline.csv",
            streaming: streamed(timeline(live: report.isLive, feed: report.isFeed).names, pieceBytes) {
                appendTimeline(report, to: &$0)
            })
        if let feed = report.feed {
            bundle.add(name: "items.csv", bytes: FeedTables.items(report, feed))
            bundle.add(name: "feed.csv", bytes: FeedTables.session(report, feed))
        }
        bundle.add(
            name: "access_log.csv",
            streaming: streamed(accessLog.names, pieceBytes) { appendAccessLog(report, to: &$0) })
        if report.isChunked {
            bundle.add(
                name: "chunks.csv", streaming: streamed(chunks.names, pieceBytes) { appendChunks(report, to: &$0) })
        }
        return bundle
    }

    /// A producer for ``OutputBundle/add(name:streaming:)``: a table of `columns` whose rows `fill` appends,
    /// handed out in pieces of about `pieceBytes` from one buffer of that size.
    public static func streamed(
        _ columns: [String], _ pieceBytes: Int, _ fill: @escaping @Sendable (inout CSVWriter) -> Void
    ) -> @Sendable (_ write: ([UInt8]) throws -> Void) throws -> Void {
        { write in
            try withoutActuallyEscaping(write) { write in
                var writer = CSVWriter(columns: columns)
                let drain = CSVDrain(write)
                writer.drain(every: pieceBytes, into: drain)
                fill(&writer)
                try drain.check()
                try write(writer.takeBytes())
            }
        }
    }
}
