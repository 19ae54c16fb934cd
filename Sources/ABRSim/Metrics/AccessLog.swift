/// One `AVPlayerItemAccessLogEvent`-like row of `access_log.csv`: what a device's access log would say about one
/// uninterrupted period of playback of one player (DESIGN §2.6; reference-players.md §5.2).
///
/// Apple: "An `AVPlayerItemAccessLogEvent` represents a single log entry" and the log holds "one event per
/// uninterrupted period of playback". ABRSim's definition of such a period: it begins when play is requested
/// on a loaded item (`timeControlStatus` leaves `paused`: the first play, or a play after a pause) and ends at
/// a pause, a seek (which starts the next period at once if playback is still requested), the end or failure
/// of the item, or the end of the run. Stalls do not split a period: Apple counts them inside an event
/// (`numberOfStalls`), and variant switches do not either (so ``indicatedBitrate`` is an average; see there).
///
/// Units follow Apple's: bit/s, seconds, bytes; −1 where the value is unknown (Apple's convention for negative
/// values). Requests belong to the period in progress when they were sent (those sent before the first period,
/// while paused or loading, to the next period), so byte and request totals over all events equal the run's.
public struct AccessLogEvent: Sendable, Equatable {
    /// When the period began, simulated seconds.
    public var startTime: Double
    /// When it ended, simulated seconds.
    public var endTime: Double
    /// `indicatedBitrate`: the declared bitrate of the media downloaded in the period, the mean over its
    /// segments weighted by their media duration (the variant's bitrate when the period has no switch); −1
    /// without a segment.
    public var indicatedBitrate: Double
    /// `observedBitrate`: bits transferred ÷ ``transferDuration``; −1 without a transfer.
    public var observedBitrate: Double
    /// `observedBitrateStandardDeviation`: the sample standard deviation of the segments' throughput samples;
    /// −1 with fewer than two.
    public var observedBitrateStandardDeviation: Double
    /// `switchBitrate`: the throughput sample the player had (its latest completed download) when it made the
    /// period's last variant switch; −1 without a switch or a sample.
    public var switchBitrate: Double
    /// `numberOfStalls`: times playback went from playing to buffering within the period.
    public var numberOfStalls: Int
    /// `startupTime`: seconds from the period's start to playback (the session's startup for the first period,
    /// the refill after a seek or a resume for the others); −1 if it never played.
    public var startupTime: Double
    /// `durationWatched`: seconds spent playing.
    public var durationWatched: Double
    /// `segmentsDownloadedDuration`: media seconds of the completed segments.
    public var segmentsDownloadedDuration: Double
    /// `numberOfBytesTransferred`: bytes of every request, abandoned ones included.
    public var numberOfBytesTransferred: Double
    /// `transferDuration`: Σ (done − request) over the requests, seconds (one request at a time per player).
    public var transferDuration: Double
    /// `numberOfMediaRequests`: requests sent, abandoned ones included.
    public var numberOfMediaRequests: Int
    /// `downloadOverdue`: completed segments that arrived after the buffer ran dry waiting for them (a stall
    /// charged to them).
    public var downloadOverdue: Int
}

/// Derives a player's access log from its ``SegmentRecord``s and ``TimelineRecord``s (see ``AccessLogEvent``
/// for the definitions). Seeks are found from the timeline alone: the buffered end (playhead + buffer) only
/// grows by the segments that arrive, so any other change of it between two rows is a seek.
public enum AccessLog {
    /// The events of one player, in time order; `endTime` closes a period still open when the run stopped.
    public static func events(timeline rows: [TimelineRecord], segments: [SegmentRecord], endTime: Double)
        -> [AccessLogEvent]
    {
        events(rows: rows, requests: segments, endTime: endTime)
    }

    /// ``events(timeline:segments:endTime:)`` of the fields the access log reads (the full records, or the
    /// ``Row``s and ``Request``s a streamed run keeps of them: the same values give the same events).
    static func events<R: AccessLogRow, S: AccessLogRequest>(rows: [R], requests segments: [S], endTime: Double)
        -> [AccessLogEvent]
    {
        let periods = self.periods(rows, segments: segments, endTime: endTime)
        guard !periods.isEmpty else { return [] }
        var requests = Array(repeating: [S](), count: periods.count)
        var period = 0
        for record in segments.sorted(by: { $0.requestTime < $1.requestTime }) {
            while period + 1 < periods.count, periods[period + 1].start <= record.requestTime { period += 1 }
            requests[period].append(record)
        }
        let switchSamples = self.switchSamples(segments)
        return periods.indices.map { index in
            let p = periods[index]
            var event = downloadFields(requests[index], switchSamples: switchSamples, start: p.start, end: p.end)
            var firstPlay: Double?
            for k in p.rows {
                let row = rows[k]
                let next = k + 1 < rows.count ? min(rows[k + 1].time, p.end) : p.end
                if row.timeControlStatus == .playing {
                    if firstPlay == nil { firstPlay = row.time }
                    event.durationWatched += max(next - row.time, 0)
                }
                if k > p.rows.lowerBound, row.isBuffering, rows[k - 1].isPlayingState {
                    event.numberOfStalls += 1
                }
            }
            event.startupTime = firstPlay.map { $0 - p.start } ?? -1
            return event
        }
    }

    /// The periods of playback: start and end times and the timeline rows inside each.
    static func periods<R: AccessLogRow, S: AccessLogRequest>(_ rows: [R], segments: [S], endTime: Double)
        -> [(start: Double, end: Double, rows: Range<Int>)]
    {
        let arrivals = segments.filter { !$0.abandoned }.sorted { $0.doneTime < $1.doneTime }
        var arrival = 0
        var periods: [(start: Double, end: Double, rows: Range<Int>)] = []
        var open: (start: Double, row: Int)?
        for (k, row) in rows.enumerated() {
            var isSeek = false
            if k > 0 {
                let previous = rows[k - 1]
                var grown = 0.0
                while arrival < arrivals.count, arrivals[arrival].doneTime <= row.time {
                    if arrivals[arrival].doneTime > previous.time { grown += arrivals[arrival].durationSeconds }
                    arrival += 1
                }
                let expected = previous.playheadSeconds + previous.bufferSeconds + grown
                let actual = row.playheadSeconds + row.bufferSeconds
                isSeek = abs(actual - expected) > 1e-6 * max(1, abs(expected)) && !row.isFinalState
            }
            let wantsPlayback =
                row.timeControlStatus != .paused && !row.isIdle && !row.isFinalState
            if let current = open, !wantsPlayback || isSeek {
                if row.time > current.start { periods.append((current.start, row.time, current.row..<k)) }
                open = nil
            }
            if wantsPlayback, open == nil { open = (row.time, k) }
        }
        if let current = open, endTime > current.start {
            periods.append((current.start, endTime, current.row..<rows.count))
        }
        return periods
    }

    /// For every request that switches variant (its variant differs from the previous request's), the
    /// throughput sample of the latest download completed when it was sent; keyed by request time.
    static func switchSamples<S: AccessLogRequest>(_ segments: [S]) -> [Double: Double] {
        let ordered = segments.sorted { $0.requestTime < $1.requestTime }
        let completed = segments.filter { !$0.abandoned }.sorted { $0.doneTime < $1.doneTime }
        var samples: [Double: Double] = [:]
        var done = 0
        var latest: Double?
        for (index, record) in ordered.enumerated() {
            while done < completed.count, completed[done].doneTime <= record.requestTime {
                latest = completed[done].throughputBps
                done += 1
            }
            if index > 0, ordered[index - 1].variant != record.variant {
                samples[record.requestTime] = latest ?? -1
            }
        }
        return samples
    }

    /// The download fields of a period from its requests.
    static func downloadFields<S: AccessLogRequest>(
        _ requests: [S], switchSamples: [Double: Double], start: Double, end: Double
    )
        -> AccessLogEvent
    {
        var bytes = 0.0
        var transfer = 0.0
        var mediaSeconds = 0.0
        var weighted = 0.0
        var overdue = 0
        var samples: [Double] = []
        var switchBitrate = -1.0
        for record in requests {
            bytes += record.bytes
            transfer += max(record.doneTime - record.requestTime, 0)
            if let sample = switchSamples[record.requestTime] { switchBitrate = sample }
            guard !record.abandoned else { continue }
            mediaSeconds += record.durationSeconds
            weighted += record.bitrateBps * record.durationSeconds
            if record.stallSeconds > 0 { overdue += 1 }
            if record.throughputBps.isFinite { samples.append(record.throughputBps) }
        }
        return AccessLogEvent(
            startTime: start, endTime: end, indicatedBitrate: mediaSeconds > 0 ? weighted / mediaSeconds : -1,
            observedBitrate: transfer > 0 ? bytes * 8 / transfer : -1,
            observedBitrateStandardDeviation: samples.count > 1 ? SampleStatistics(samples).standardDeviation : -1,
            switchBitrate: switchBitrate, numberOfStalls: 0, startupTime: -1, durationWatched: 0,
            segmentsDownloadedDuration: mediaSeconds, numberOfBytesTransferred: bytes, transferDuration: transfer,
            numberOfMediaRequests: requests.count, downloadOverdue: overdue)
    }
}

/// What the access log reads of a timeline row (``AccessLog``): ``TimelineRecord`` and the ``AccessLog/Row`` a
/// streamed run keeps of it.
protocol AccessLogRow {
    /// Simulated seconds.
    var time: Double { get }
    /// Media seconds.
    var playheadSeconds: Double { get }
    /// Media seconds ahead of the playhead.
    var bufferSeconds: Double { get }
    /// The player's `timeControlStatus`.
    var timeControlStatus: TimeControlStatus { get }
    /// Whether the state is `buffering`.
    var isBuffering: Bool { get }
    /// Whether the state is `playing`.
    var isPlayingState: Bool { get }
    /// Whether the state is `idle`.
    var isIdle: Bool { get }
    /// Whether the state is final (ended or failed).
    var isFinalState: Bool { get }
}

/// What the access log reads of a segment record (``AccessLog``): ``SegmentRecord`` and the ``AccessLog/Request``
/// a streamed run keeps of it.
protocol AccessLogRequest {
    /// The variant requested.
    var variant: Int { get }
    /// Declared bitrate, bit/s.
    var bitrateBps: Double { get }
    /// Media seconds.
    var durationSeconds: Double { get }
    /// Bytes transferred.
    var bytes: Double { get }
    /// Simulated seconds.
    var requestTime: Double { get }
    /// Simulated seconds.
    var doneTime: Double { get }
    /// Measured throughput, bit/s.
    var throughputBps: Double { get }
    /// Stall charged to it, seconds.
    var stallSeconds: Double { get }
    /// Whether it was abandoned.
    var abandoned: Bool { get }
}

extension TimelineRecord: AccessLogRow {
    var isBuffering: Bool { state == .buffering }
    var isPlayingState: Bool { state == .playing }
    var isIdle: Bool { state == .idle }
    var isFinalState: Bool { state.isFinal }
}

extension SegmentRecord: AccessLogRequest {}

extension AccessLog {
    /// The fields of a ``TimelineRecord`` the access log reads, in 32 bytes.
    struct Row: AccessLogRow {
        var time: Double
        var playheadSeconds: Double
        var bufferSeconds: Double
        var timeControlStatus: TimeControlStatus
        var isBuffering: Bool
        var isPlayingState: Bool
        var isIdle: Bool
        var isFinalState: Bool

        /// The fields of `record`.
        init(_ record: TimelineRecord) {
            time = record.time
            playheadSeconds = record.playheadSeconds
            bufferSeconds = record.bufferSeconds
            timeControlStatus = record.timeControlStatus
            isBuffering = record.isBuffering
            isPlayingState = record.isPlayingState
            isIdle = record.isIdle
            isFinalState = record.isFinalState
        }
    }

    /// The fields of a ``SegmentRecord`` the access log reads.
    struct Request: AccessLogRequest {
        var bitrateBps: Double
        var durationSeconds: Double
        var bytes: Double
        var requestTime: Double
        var doneTime: Double
        var throughputBps: Double
        var stallSeconds: Double
        var variant: Int
        var abandoned: Bool

        /// The fields of `record`.
        init(_ record: SegmentRecord) {
            bitrateBps = record.bitrateBps
            durationSeconds = record.durationSeconds
            bytes = record.bytes
            requestTime = record.requestTime
            doneTime = record.doneTime
            throughputBps = record.throughputBps
            stallSeconds = record.stallSeconds
            variant = record.variant
            abandoned = record.abandoned
        }
    }
}
