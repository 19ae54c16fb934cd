/// Reads players' throughput logs into a ``ThroughputLog`` of per-request samples for `abrsim trace infer`.
///
/// Formats:
/// - ``Format/puffer``: Puffer's `video_sent` table (columns `time (ns GMT)`, `session_id`, `index`, `expt_id`,
///   `channel`, `video_ts`, `format`, `size`, `ssim_index`, `cwnd`, `in_flight`, `min_rtt`, `rtt`,
///   `delivery_rate`; times in ns, RTTs in µs, size in bytes) joined with its `video_acked` table (`time (ns GMT)`,
///   `session_id`, `index`, `expt_id`, `channel`, `video_ts`) on session, index, channel and `video_ts`. One
///   session (the first, or the one named). A chunk's first byte is taken to arrive half an RTT after it was sent
///   and its last byte half an RTT before its ack.
/// - ``Format/segments``: ABRSim's `segments.csv` (`bytes`, `request_s`, `first_byte_s`, `done_s`; the RTT is
///   first byte − request), one player (the first, or the one named); abandoned requests and cache hits skipped.
/// - ``Format/accessLog``: ABRSim's `access_log.csv`, or an AVPlayer access-log export with the same
///   `AVPlayerItemAccessLogEvent` fields in snake_case or camelCase (`number_of_bytes_transferred`,
///   `transfer_duration`, `number_of_media_requests`, `start_s`): each event gives one sample, its mean request
///   (bytes / requests taking transfer duration / requests) standing for all of them; no RTT (give one). The
///   transfer duration counts from each request, so the first byte is taken to come one RTT after it.
public enum ThroughputLogReader {
    /// A log format.
    public enum Format: String, Sendable, CaseIterable {
        case puffer
        case segments
        case accessLog = "access-log"
    }

    /// Reads `path` in `format`; `acked` is Puffer's `video_acked` file, `selection` a session or player id.
    public static func read(path: String, format: Format, acked: String? = nil, selection: String? = nil) throws
        -> ThroughputLog
    {
        let table = try CSVTable.parse(try InputFile.readAll(path), file: path)
        switch format {
        case .segments: return try segments(table, file: path, player: selection)
        case .accessLog: return try accessLog(table, file: path, player: selection)
        case .puffer:
            guard let acked else {
                throw InputError(.option("--acked"), .required("the video_acked table of the puffer format"))
            }
            let ackedTable = try CSVTable.parse(try InputFile.readAll(acked), file: acked)
            return try puffer(sent: table, file: path, acked: ackedTable, ackedFile: acked, session: selection)
        }
    }

    /// The column `names` (the first present) of `table`, or an error at line 1.
    static func column(_ table: CSVTable, _ names: String..., file: String) throws -> Int {
        for name in names { if let index = table.columns.firstIndex(of: name) { return index } }
        throw InputError(.line(file, 1), .missing("column \(names[0])"))
    }

    /// Field `index` of `row` (on `line`) as a finite number.
    static func number(_ row: [String], _ index: Int, _ table: CSVTable, file: String, line: Int) throws -> Double {
        guard let value = Double(row[index]), value.isFinite else {
            throw InputError(
                .line(file, line), .isNot("a number", subject: table.columns[index], found: "'\(row[index])'"))
        }
        return value
    }

    static func segments(_ table: CSVTable, file: String, player: String?) throws -> ThroughputLog {
        let bytes = try column(table, "bytes", file: file)
        let request = try column(table, "request_s", file: file)
        let first = try column(table, "first_byte_s", file: file)
        let done = try column(table, "done_s", file: file)
        let playerColumn = table.columns.firstIndex(of: "player")
        let skips = ["abandoned", "cache_hit"].compactMap { table.columns.firstIndex(of: $0) }
        let chosen = player ?? playerColumn.flatMap { table.rows.first?[$0] }
        var samples: [RequestSample] = []
        for (position, row) in table.rows.enumerated() {
            let line = position + 2
            if let playerColumn, let chosen, row[playerColumn] != chosen { continue }
            if skips.contains(where: { row[$0] == "true" }) { continue }
            let start = try number(row, first, table, file: file, line: line)
            samples.append(
                RequestSample(
                    bytes: try number(row, bytes, table, file: file, line: line), startSeconds: start,
                    endSeconds: try number(row, done, table, file: file, line: line),
                    rttSeconds: start - (try number(row, request, table, file: file, line: line)), line: line))
        }
        return try ThroughputLog(file: file, samples: samples)
    }

    static func accessLog(_ table: CSVTable, file: String, player: String?) throws -> ThroughputLog {
        let bytes = try column(table, "number_of_bytes_transferred", "numberOfBytesTransferred", file: file)
        let duration = try column(table, "transfer_duration", "transferDuration", file: file)
        let requests = try column(table, "number_of_media_requests", "numberOfMediaRequests", file: file)
        let start = try column(table, "start_s", "startSeconds", file: file)
        let playerColumn = table.columns.firstIndex(of: "player")
        let chosen = player ?? playerColumn.flatMap { table.rows.first?[$0] }
        var samples: [RequestSample] = []
        var clock = -Double.infinity
        for (position, row) in table.rows.enumerated() {
            let line = position + 2
            if let playerColumn, let chosen, row[playerColumn] != chosen { continue }
            let count = try number(row, requests, table, file: file, line: line)
            let total = try number(row, bytes, table, file: file, line: line)
            let seconds = try number(row, duration, table, file: file, line: line)
            guard count > 0, total > 0 || seconds > 0 else { continue }  // an event with no requests
            guard count == count.rounded(), count >= 1 else {
                throw InputError(
                    .line(file, line),
                    .mustBe("number_of_media_requests", rule: "a whole number ≥ 0", found: "\(count)"))
            }
            guard seconds > 0 else {
                throw InputError(.line(file, line), .mustBe("transfer_duration", rule: "positive", found: "\(seconds)"))
            }
            // The event's requests, back to back from its start (or from the previous event's end).
            let from = max(try number(row, start, table, file: file, line: line), clock)
            samples.append(
                RequestSample(
                    bytes: total / count, startSeconds: from, endSeconds: from + seconds / count, rttSeconds: 0,
                    count: Int(count), line: line, isTimedFromRequest: true))
            clock = from + seconds
        }
        return try ThroughputLog(file: file, samples: samples)
    }

    static func puffer(sent: CSVTable, file: String, acked: CSVTable, ackedFile: String, session: String?) throws
        -> ThroughputLog
    {
        let keyNames = ["session_id", "index", "channel", "video_ts"]
        let sentKeys = try keyNames.map { try column(sent, $0, file: file) }
        let ackedKeys = try keyNames.map { try column(acked, $0, file: ackedFile) }
        let sentTime = try column(sent, "time (ns GMT)", "time", file: file)
        let ackedTime = try column(acked, "time (ns GMT)", "time", file: ackedFile)
        let size = try column(sent, "size", file: file)
        let rtt = try column(sent, "rtt", file: file)
        let chosen = session ?? sent.rows.first?[sentKeys[0]]
        var ackTimes: [[String]: (Double, Int)] = [:]
        for (position, row) in acked.rows.enumerated() where row[ackedKeys[0]] == chosen {
            let key = ackedKeys.map { row[$0] }
            let time = try number(row, ackedTime, acked, file: ackedFile, line: position + 2)
            if ackTimes[key] == nil { ackTimes[key] = (time, position + 2) }
        }
        var rows: [(sent: Double, acked: Double, bytes: Double, rtt: Double, line: Int)] = []
        for (position, row) in sent.rows.enumerated() where row[sentKeys[0]] == chosen {
            let line = position + 2
            guard let (ack, _) = ackTimes[sentKeys.map { row[$0] }] else { continue }  // never acknowledged
            rows.append(
                (
                    try number(row, sentTime, sent, file: file, line: line), ack,
                    try number(row, size, sent, file: file, line: line),
                    try number(row, rtt, sent, file: file, line: line) / 1e6, line
                ))
        }
        guard let origin = rows.map(\.sent).min() else {
            throw InputError(.file(file), .empty("log", no: "acknowledged chunk for session '\(chosen ?? "")'"))
        }
        let samples = rows.map { r in
            RequestSample(
                bytes: r.bytes, startSeconds: (r.sent - origin) / 1e9 + r.rtt / 2,
                endSeconds: (r.acked - origin) / 1e9 - r.rtt / 2, rttSeconds: r.rtt, line: r.line)
        }
        return try ThroughputLog(file: file, samples: samples)
    }
}
