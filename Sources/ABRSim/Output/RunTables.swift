/// The CSV tables of a run (`segments.csv`, `timeline.csv`, `summary.csv`, `access_log.csv`; DESIGN §2.6), as
/// bytes.
///
/// Reads only ``RunReport``s, never the model. Column names carry units; one observation per row; booleans
/// `true`/`false`; empty fields where a value does not exist (a startup that never happened). Called by the
/// command line after a run, and by sweeps, which append the rows of many reports to one table.
public enum RunTables {
    /// Columns of `summary.csv`.
    public static let summaryColumns = [
        "scenario", "player", "policy", "trace", "segments", "abandoned_count", "startup_s", "stall_count", "stall_s",
        "rebuffer_ratio",
        "avg_bitrate_kbps", "switch_count", "bytes", "played_s", "seek_wait_s", "top_quality_s", "qoe_lin", "qoe_log",
        "qoe_hd",
        "final_state", "end_s", "cache_hits", "avg_throughput_kbps", "link_share", "jain_throughput", "jain_bitrate",
        "jain_qoe",
        "jain_throughput_weighted", "jain_bitrate_weighted", "jain_qoe_weighted", "unfairness", "jain_qoe_undefined",
        "failure_reason",
        "timeout_count", "retry_count", "skipped_s", "throughput_capacity_ratio",
    ]

    /// Columns of `segments.csv`.
    public static let segmentColumns = [
        "scenario", "player", "policy", "trace", "segment", "variant", "bitrate_kbps", "duration_s", "bytes",
        "request_s", "first_byte_s", "done_s", "throughput_kbps", "buffer_before_s", "buffer_after_s", "stall_s",
        "abandoned", "cache_hit", "timed_out", "attempt", "cancelled", "available_kbps", "model_throughput_kbps",
    ]

    /// Columns of `timeline.csv`.
    public static let timelineColumns = [
        "t_s", "player", "state", "time_control_status", "waiting_reason", "buffer_s", "playhead_s", "bitrate_kbps",
        "link_share", "likely_to_keep_up", "buffer_empty", "buffer_full", "failure_reason",
    ]

    /// Columns of `access_log.csv`: the event's place, then AVPlayerItemAccessLogEvent's fields in snake_case
    /// (bit/s, seconds, bytes; −1 = unknown; see ``AccessLogEvent``).
    public static let accessLogColumns = [
        "scenario", "player", "policy", "trace", "event", "start_s", "end_s", "indicated_bitrate", "observed_bitrate",
        "observed_bitrate_standard_deviation", "switch_bitrate", "number_of_stalls", "startup_time",
        "duration_watched", "segments_downloaded_duration", "number_of_bytes_transferred", "transfer_duration",
        "number_of_media_requests", "download_overdue",
    ]

    /// Appends the access-log rows of `report` to `writer` (made with ``accessLogColumns``), player by player,
    /// events numbered from 0.
    public static func appendAccessLog(_ report: RunReport, to writer: inout CSVWriter) {
        for player in report.players {
            let events = AccessLog.events(timeline: player.timeline, segments: player.segments, endTime: report.endTime)
            for (index, e) in events.enumerated() {
                writer.beginRow()
                writer.append(report.scenario)
                writer.append(player.id)
                writer.append(player.policy)
                writer.append(report.trace)
                writer.append(index)
                writer.append(e.startTime)
                writer.append(e.endTime)
                writer.append(e.indicatedBitrate)
                writer.append(e.observedBitrate)
                writer.append(e.observedBitrateStandardDeviation)
                writer.append(e.switchBitrate)
                writer.append(e.numberOfStalls)
                writer.append(e.startupTime)
                writer.append(e.durationWatched)
                writer.append(e.segmentsDownloadedDuration)
                writer.append(e.numberOfBytesTransferred)
                writer.append(e.transferDuration)
                writer.append(e.numberOfMediaRequests)
                writer.append(e.downloadOverdue)
                writer.endRow()
            }
        }
    }

    /// Appends the summary rows of `report` to `writer` (made with ``summaryColumns``, plus one column per
    /// `extra` value: a sweep's grid settings, written at the end of every row).
    public static func appendSummary(_ report: RunReport, to writer: inout CSVWriter, extra: [String] = []) {
        for player in report.players {
            let s = player.summary
            writer.beginRow()
            writer.append(report.scenario)
            writer.append(player.id)
            writer.append(player.policy)
            writer.append(report.trace)
            writer.append(s.segments)
            writer.append(s.abandonedCount)
            if let startup = s.startupSeconds { writer.append(startup) } else { writer.appendEmpty() }
            writer.append(s.stallCount)
            writer.append(s.stallSeconds)
            writer.append(s.rebufferRatio)
            writer.append(s.averageBitrateKbps)
            writer.append(s.switchCount)
            writer.append(s.bytes)
            writer.append(s.playedSeconds)
            writer.append(s.seekWaitSeconds)
            writer.append(s.topQualitySeconds)
            writer.append(s.qoeLinear)
            writer.append(s.qoeLog)
            writer.append(s.qoeHD)
            writer.append(s.finalState.csvName)
            if let end = s.endTime { writer.append(end) } else { writer.appendEmpty() }
            writer.append(s.cacheHits)
            appendOptional(s.averageThroughputBps.map { $0 / 1000 }, to: &writer)
            appendOptional(s.averageLinkShare, to: &writer)
            let f = report.fairness
            for value in [
                f?.throughput, f?.bitrate, f?.qoe, f?.throughputWeighted, f?.bitrateWeighted, f?.qoeWeighted,
                f?.unfairness,
            ] {
                appendOptional(value, to: &writer)
            }
            if let reason = f?.qoeUndefinedReason { writer.append(reason) } else { writer.appendEmpty() }
            if case .failed(let reason) = s.finalState { writer.append(reason) } else { writer.appendEmpty() }
            writer.append(s.timedOutCount)
            writer.append(s.retryCount)
            writer.append(s.skippedSeconds)
            appendOptional(s.throughputCapacityRatio, to: &writer)
            for value in extra { writer.append(value) }
            writer.endRow()
        }
    }

    static func appendOptional(_ value: Double?, to writer: inout CSVWriter) {
        if let value { writer.append(value) } else { writer.appendEmpty() }
    }

    /// Appends the segment rows of `report` to `writer` (made with ``segmentColumns``, plus one column per
    /// `extra` value, as for ``appendSummary(_:to:extra:)``).
    public static func appendSegments(_ report: RunReport, to writer: inout CSVWriter, extra: [String] = []) {
        for player in report.players {
            for r in player.segments {
                writer.beginRow()
                writer.append(report.scenario)
                writer.append(player.id)
                writer.append(player.policy)
                writer.append(report.trace)
                writer.append(r.segment)
                writer.append(r.variant)
                writer.append(r.bitrateBps / 1000)
                writer.append(r.durationSeconds)
                writer.append(r.bytes)
                writer.append(r.requestTime)
                writer.append(r.firstByteTime)
                writer.append(r.doneTime)
                writer.append(r.throughputBps / 1000)
                writer.append(r.bufferBeforeSeconds)
                writer.append(r.bufferAfterSeconds)
                writer.append(r.stallSeconds)
                writer.append(r.abandoned)
                writer.append(r.cacheHit)
                writer.append(r.timedOut)
                writer.append(r.attempt)
                writer.append(r.cancelled)
                appendOptional(r.availableBps.map { $0 / 1000 }, to: &writer)
                appendOptional(r.modelThroughputBps.map { $0 / 1000 }, to: &writer)
                for value in extra { writer.append(value) }
                writer.endRow()
            }
        }
    }

    /// Appends the timeline rows of `report` to `writer` (made with ``timelineColumns``), all players merged
    /// in time order (ties in player order).
    public static func appendTimeline(_ report: RunReport, to writer: inout CSVWriter) {
        var rows: [(TimelineRecord, String)] = []
        for player in report.players { rows.append(contentsOf: player.timeline.map { ($0, player.id) }) }
        if report.players.count > 1 {
            rows = rows.enumerated().sorted {
                ($0.element.0.time, $0.element.0.player, $0.offset) < (
                    $1.element.0.time, $1.element.0.player, $1.offset
                )
            }.map(\.element)
        }
        for (r, id) in rows {
            writer.beginRow()
            writer.append(r.time)
            writer.append(id)
            writer.append(r.state.csvName)
            writer.append(r.timeControlStatus.rawValue)
            if let reason = r.waitingReason { writer.append(reason.rawValue) } else { writer.appendEmpty() }
            writer.append(r.bufferSeconds)
            writer.append(r.playheadSeconds)
            writer.append(r.bitrateBps / 1000)
            writer.append(r.linkShare)
            writer.append(r.isPlaybackLikelyToKeepUp)
            writer.append(r.isPlaybackBufferEmpty)
            writer.append(r.isPlaybackBufferFull)
            if case .failed(let reason) = r.state { writer.append(reason) } else { writer.appendEmpty() }
            writer.endRow()
        }
    }

    /// The four tables of one run, ready to commit as an ``OutputBundle``.
    public static func bundle(for report: RunReport) -> OutputBundle {
        var summary = CSVWriter(columns: summaryColumns)
        appendSummary(report, to: &summary)
        var segments = CSVWriter(columns: segmentColumns)
        appendSegments(report, to: &segments)
        var timeline = CSVWriter(columns: timelineColumns)
        appendTimeline(report, to: &timeline)
        var bundle = OutputBundle()
        bundle.add(name: "summary.csv", bytes: summary.takeBytes())
        bundle.add(name: "segments.csv", bytes: segments.takeBytes())
        bundle.add(name: "timeline.csv", bytes: timeline.takeBytes())
        var accessLog = CSVWriter(columns: accessLogColumns)
        appendAccessLog(report, to: &accessLog)
        bundle.add(name: "access_log.csv", bytes: accessLog.takeBytes())
        return bundle
    }
}
