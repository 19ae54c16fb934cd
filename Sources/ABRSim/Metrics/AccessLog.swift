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
        let ordered = isInRequestOrder(segments) ? segments : segments.sorted { $0.requestTime < $1.requestTime }
        let arrivals = segments.filter { !$0.abandoned }.sorted { $0.doneTime < $1.doneTime }
        return events(rows: rows, ordered: ordered, arrivals: arrivals, endTime: endTime)
    }

    /// Whether `requests` are in order of request time (as ``events(rows:ordered:arrivals:endTime:)`` reads them).
    static func isInRequestOrder<S: AccessLogRequest>(_ requests: some Sequence<S>) -> Bool {
        var last = -Double.infinity
        for request in requests {
            guard request.requestTime >= last else { return false }
            last = request.requestTime
        }
        return true
    }

    /// Whether the completed requests of `requests` are in order of arrival.
    static func isInArrivalOrder<S: AccessLogRequest>(_ requests: some Sequence<S>) -> Bool {
        var last = -Double.infinity
        for request in requests where !request.abandoned {
            guard request.doneTime >= last else { return false }
            last = request.doneTime
        }
        return true
    }

    /// The events of a player from its timeline `rows`, its requests `ordered` by request time and its completed
    /// requests `arrivals` ordered by arrival (sorted stably, so equal times keep the records' order), each read
    /// front to back, twice at most: so the rows and requests can come from a file, a piece at a time. Memory is
    /// that of the periods and of one period's throughput samples.
    static func events<R: AccessLogRow, S: AccessLogRequest>(
        rows: some Sequence<R>, ordered: some Sequence<S>, arrivals: some Sequence<S>, endTime: Double
    ) -> [AccessLogEvent] {
        let periods = self.periods(rows, arrivals: arrivals, endTime: endTime)
        guard !periods.isEmpty else { return [] }
        var events = downloadFields(periods, ordered: ordered, arrivals: arrivals)
        // The timeline fields: playing time, stalls and startup of each period's rows.
        var period = 0
        var firstPlay: Double?
        var previous: R?
        var current: (index: Int, row: R)?
        func close(_ k: Int, _ row: R, next: Double?) {
            while period < periods.count, periods[period].rows.upperBound <= k {
                events[period].startupTime = firstPlay.map { $0 - periods[period].start } ?? -1
                firstPlay = nil
                period += 1
            }
            guard period < periods.count, periods[period].rows.contains(k) else { return }
            let p = periods[period]
            if row.timeControlStatus == .playing {
                if firstPlay == nil { firstPlay = row.time }
                events[period].durationWatched += max((next.map { min($0, p.end) } ?? p.end) - row.time, 0)
            }
            if k > p.rows.lowerBound, row.isBuffering, previous?.isPlayingState == true {
                events[period].numberOfStalls += 1
            }
        }
        for row in rows {
            if let current {
                close(current.index, current.row, next: row.time)
                previous = current.row
            }
            current = ((current?.index ?? -1) + 1, row)
        }
        if let current { close(current.index, current.row, next: nil) }
        while period < periods.count {
            events[period].startupTime = firstPlay.map { $0 - periods[period].start } ?? -1
            firstPlay = nil
            period += 1
        }
        return events
    }

    /// The periods of playback: start and end times and the timeline rows inside each.
    static func periods<R: AccessLogRow, S: AccessLogRequest>(
        _ rows: some Sequence<R>, arrivals: some Sequence<S>, endTime: Double
    ) -> [(start: Double, end: Double, rows: Range<Int>)] {
        var pending = arrivals.makeIterator()
        var arrival = pending.next()
        var periods: [(start: Double, end: Double, rows: Range<Int>)] = []
        var open: (start: Double, row: Int)?
        var previous: R?
        var k = 0
        for row in rows {
            defer {
                previous = row
                k += 1
            }
            var isSeek = false
            if let previous {
                var grown = 0.0
                while let next = arrival, next.doneTime <= row.time {
                    if next.doneTime > previous.time { grown += next.durationSeconds }
                    arrival = pending.next()
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
            periods.append((current.start, endTime, current.row..<k))
        }
        return periods
    }

    /// The download fields of every period from the requests (in request order), each belonging to the period in
    /// progress when it was sent (those before the first to the first). A request that switches variant (from the
    /// previous request's) carries the throughput sample of the latest download completed when it was sent, and
    /// every request sent at that same instant shows it as the period's `switchBitrate`.
    static func downloadFields<S: AccessLogRequest>(
        _ periods: [(start: Double, end: Double, rows: Range<Int>)], ordered: some Sequence<S>,
        arrivals: some Sequence<S>
    ) -> [AccessLogEvent] {
        var events: [AccessLogEvent] = []
        events.reserveCapacity(periods.count)
        var fields = DownloadFields()
        var completed = arrivals.makeIterator()
        var nextCompleted = completed.next()
        var latest: Double?
        var previousVariant: Int?
        // The requests sent at one instant, whether one of them switches, and the sample it carries.
        var group: [S] = []
        var groupSwitches = false
        func finishGroup() {
            guard let time = group.first?.requestTime else { return }
            while events.count + 1 < periods.count, periods[events.count + 1].start <= time {
                events.append(fields.event(start: periods[events.count].start, end: periods[events.count].end))
                fields = DownloadFields()
            }
            let sample = groupSwitches && time == time ? latest ?? -1 : nil
            for record in group { fields.add(record, switchSample: sample) }
            group.removeAll(keepingCapacity: true)
            groupSwitches = false
        }
        for record in ordered {
            if let time = group.first?.requestTime, time != record.requestTime || time != time { finishGroup() }
            while let next = nextCompleted, next.doneTime <= record.requestTime {
                latest = next.throughputBps
                nextCompleted = completed.next()
            }
            if let previousVariant, previousVariant != record.variant { groupSwitches = true }
            previousVariant = record.variant
            group.append(record)
        }
        finishGroup()
        while events.count < periods.count {
            events.append(fields.event(start: periods[events.count].start, end: periods[events.count].end))
            fields = DownloadFields()
        }
        return events
    }

    /// The download fields of one period, summed request by request.
    struct DownloadFields {
        var bytes = 0.0
        var transfer = 0.0
        var mediaSeconds = 0.0
        var weighted = 0.0
        var overdue = 0
        var requests = 0
        var samples: [Double] = []
        var switchBitrate = -1.0

        /// Adds `record`, sent when the latest completed download's sample was `switchSample` if it (or another
        /// request sent at the same instant) switched variant.
        mutating func add<S: AccessLogRequest>(_ record: S, switchSample: Double?) {
            requests += 1
            bytes += record.bytes
            transfer += max(record.doneTime - record.requestTime, 0)
            if let switchSample { switchBitrate = switchSample }
            guard !record.abandoned else { return }
            mediaSeconds += record.durationSeconds
            weighted += record.bitrateBps * record.durationSeconds
            if record.stallSeconds > 0 { overdue += 1 }
            if record.throughputBps.isFinite { samples.append(record.throughputBps) }
        }

        /// The period's event with these fields (the timeline's fields still to fill).
        func event(start: Double, end: Double) -> AccessLogEvent {
            AccessLogEvent(
                startTime: start, endTime: end, indicatedBitrate: mediaSeconds > 0 ? weighted / mediaSeconds : -1,
                observedBitrate: transfer > 0 ? bytes * 8 / transfer : -1,
                observedBitrateStandardDeviation: samples.count > 1 ? SampleStatistics(samples).standardDeviation : -1,
                switchBitrate: switchBitrate, numberOfStalls: 0, startupTime: -1, durationWatched: 0,
                segmentsDownloadedDuration: mediaSeconds, numberOfBytesTransferred: bytes, transferDuration: transfer,
                numberOfMediaRequests: requests, downloadOverdue: overdue)
        }
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
