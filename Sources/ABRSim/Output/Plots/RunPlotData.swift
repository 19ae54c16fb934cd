/// What the session timeline plot draws, read back from a run's CSV files (never from the model), so that
/// `abrsim run` and `abrsim plot RESULTS_DIR` draw the same pictures from the same bytes.
///
/// Reads `summary.csv` (player order, scenario name), `timeline.csv`, `segments.csv` and `capacity.csv`.
public struct RunPlotData: Sendable {
    /// One timeline row of one player.
    public struct TimelineRow: Sendable, Equatable {
        /// Simulated seconds.
        public var time: Double
        /// Playback state (`playing`, `buffering`, …).
        public var state: String
        /// `timeControlStatus`.
        public var timeControlStatus: String
        /// Forward buffer, media seconds.
        public var bufferSeconds: Double
        /// The player's share of the link, 0…1.
        public var linkShare: Double
        /// `isPlaybackLikelyToKeepUp`.
        public var likelyToKeepUp: Bool
    }

    /// One segment request of one player.
    public struct Request: Sendable, Equatable {
        /// When it was sent, seconds.
        public var requestTime: Double
        /// When its last byte arrived (or it was abandoned), seconds.
        public var doneTime: Double
        /// The chosen variant's declared bitrate, kbit/s.
        public var bitrateKbps: Double
        /// Buffer just after the segment was added, media seconds.
        public var bufferAfterSeconds: Double
        /// Whether it was abandoned.
        public var abandoned: Bool
    }

    /// One player's series.
    public struct Player: Sendable {
        /// The player's id.
        public var id: String
        /// Its policy label.
        public var policy: String
        /// Its timeline rows in time order.
        public var timeline: [TimelineRow]
        /// Its requests in request order.
        public var requests: [Request]
    }

    /// The scenario's name.
    public var scenario: String
    /// The players in `summary.csv` order.
    public var players: [Player]
    /// The shared link's capacity as steps: `capacity[i].kbps` holds from `capacity[i].time` to the next time.
    public var capacity: [(time: Double, kbps: Double)]
    /// The summary table, for the HTML index.
    public var summary: CSVTable

    /// The last time any series reaches.
    public var endTime: Double {
        var end = capacity.last?.time ?? 0
        for player in players {
            end = max(end, player.timeline.last?.time ?? 0, player.requests.last?.doneTime ?? 0)
        }
        return end
    }

    /// Reads the run in `directory`; a missing or malformed file is an ``InputError`` naming it.
    public static func load(directory: String) throws -> RunPlotData {
        let summary = try readTable(directory, "summary.csv")
        let timeline = try readTable(directory, "timeline.csv")
        let segments = try readTable(directory, "segments.csv")
        let capacityTable = try readTable(directory, "capacity.csv")
        let ids = try summary.strings("player")
        let policies = try summary.strings("policy")
        let scenario = try summary.strings("scenario").first ?? InputFile.fileName(of: directory)
        var players = zip(ids, policies).map { Player(id: $0, policy: $1, timeline: [], requests: []) }
        var index: [String: Int] = [:]
        for (position, id) in ids.enumerated() where index[id] == nil { index[id] = position }

        let rowPlayers = try timeline.strings("player")
        let times = try timeline.numbers("t_s")
        let states = try timeline.strings("state")
        let statuses = try timeline.strings("time_control_status")
        let buffers = try timeline.numbers("buffer_s")
        let shares = try timeline.numbers("link_share")
        let likely = try timeline.strings("likely_to_keep_up")
        for row in rowPlayers.indices {
            guard let player = index[rowPlayers[row]] else {
                throw timeline.error(row: row, "player '\(rowPlayers[row])' is not in summary.csv")
            }
            players[player].timeline.append(
                TimelineRow(
                    time: times[row], state: states[row], timeControlStatus: statuses[row],
                    bufferSeconds: buffers[row], linkShare: shares[row], likelyToKeepUp: likely[row] == "true"))
        }

        let segmentPlayers = try segments.strings("player")
        let requests = try segments.numbers("request_s")
        let dones = try segments.numbers("done_s")
        let bitrates = try segments.numbers("bitrate_kbps")
        let afters = try segments.numbers("buffer_after_s")
        let abandoned = try segments.strings("abandoned")
        for row in segmentPlayers.indices {
            guard let player = index[segmentPlayers[row]] else {
                throw segments.error(row: row, "player '\(segmentPlayers[row])' is not in summary.csv")
            }
            players[player].requests.append(
                Request(
                    requestTime: requests[row], doneTime: dones[row], bitrateKbps: bitrates[row],
                    bufferAfterSeconds: afters[row], abandoned: abandoned[row] == "true"))
        }
        let capacity = zip(try capacityTable.numbers("t_s"), try capacityTable.numbers("capacity_kbps")).map {
            (time: $0, kbps: $1)
        }
        return RunPlotData(scenario: scenario, players: players, capacity: capacity, summary: summary.table)
    }

    /// Reads `directory/name` as CSV.
    static func readTable(_ directory: String, _ name: String) throws -> NamedTable {
        let path = InputFile.resolve(name, against: directory)
        return NamedTable(file: path, table: try CSVTable.parse(try InputFile.readAll(path), file: path))
    }
}

/// A CSV table with the path it came from, for typed column access with errors naming the file and line.
struct NamedTable {
    let file: String
    let table: CSVTable

    /// The column `name` as text, or an error naming the file.
    func strings(_ name: String) throws -> [String] {
        guard let column = table.column(name) else {
            throw InputError.atLine(file, 1, "no column '\(name)' in the header")
        }
        return column
    }

    /// The column `name` as numbers (`NaN`, `Inf` and `-Inf` accepted); an empty field reads as NaN.
    func numbers(_ name: String) throws -> [Double] {
        try strings(name).enumerated().map { row, text in
            if text.isEmpty { return .nan }
            guard let value = Double(text) else {
                throw error(row: row, "column '\(name)': '\(text)' is not a number")
            }
            return value
        }
    }

    /// An error at data row `row` (0-based; the header is line 1).
    func error(row: Int, _ message: String) -> InputError {
        InputError.atLine(file, row + 2, message)
    }
}
