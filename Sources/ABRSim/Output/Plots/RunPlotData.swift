#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the session timeline plot draws, read back from a run's CSV files (never from the model), so that
/// `abrsim run` and `abrsim plot RESULTS_DIR` draw the same pictures from the same bytes.
///
/// Reads `summary.csv` (player order, scenario name), `timeline.csv`, `segments.csv` and `capacity.csv`, and,
/// when present, `stretches.csv` and `scenario.csv` (a results folder written before they existed plots
/// without stretch marks and description).
public struct RunPlotData: Sendable {
    /// One stretch of the network on the run's time axis (a row of `stretches.csv`).
    public struct Stretch: Sendable, Equatable {
        /// Its index in the scenario's stretches (−1 for the time after a network that ends).
        public var index: Int
        /// Its label: a trace's file name, a preset, `constant` or `outage`.
        public var label: String
        /// Start, seconds.
        public var start: Double
        /// End, seconds.
        public var end: Double

        /// A stretch.
        public init(index: Int, label: String, start: Double, end: Double) {
            self.index = index
            self.label = label
            self.start = start
            self.end = end
        }

        /// Whether it has no capacity.
        public var isOutage: Bool { label == "outage" }
    }

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
        /// The feed item of the row (`item` column of a feed run's timeline), else `nil`.
        public var item: String? = nil
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
    /// A feed run's items in play order, each from when it became the playing item to when the next one did (or
    /// the run's end), from `items.csv`; empty for other runs.
    public var items: [(id: String, start: Double, end: Double)] = []
    /// The network's stretches in time order (empty when the folder has no `stretches.csv`).
    public var stretches: [Stretch] = []
    /// The scenario's description ("" when the folder has no `scenario.csv`).
    public var descriptionText = ""

    /// The last time any series reaches.
    public var endTime: Double {
        var end = capacity.last?.time ?? 0
        for player in players {
            end = max(end, player.timeline.last?.time ?? 0, player.requests.last?.doneTime ?? 0)
        }
        return end
    }

    /// Reads the run in `directory`; a missing or malformed file is an ``InputError`` naming it.
    /// `timeline.csv` and `segments.csv` are read in chunks of rows (``CSVChunks``), and repeated texts (states,
    /// statuses) share one string, so memory grows with the plotted rows, not with the files' fields.
    public static func load(directory: String) throws -> RunPlotData {
        let summary = try readTable(directory, "summary.csv")
        try InputFile.checkReadable(InputFile.resolve("timeline.csv", against: directory))
        try InputFile.checkReadable(InputFile.resolve("segments.csv", against: directory))
        var (scenario, players, index) = try players(summary, directory: directory)

        var texts = TextInterner()
        try appendRows(directory, "timeline.csv", index: index, to: &players, \.timeline) { timeline in
            let times = try timeline.numbers("t_s")
            let states = try timeline.strings("state")
            let statuses = try timeline.strings("time_control_status")
            let buffers = try timeline.numbers("buffer_s")
            let shares = try timeline.numbers("link_share")
            let likely = try timeline.strings("likely_to_keep_up")
            let items = timeline.table.column("item")
            return { row in
                TimelineRow(
                    time: times[row], state: texts.shared(states[row]), timeControlStatus: texts.shared(statuses[row]),
                    bufferSeconds: buffers[row], linkShare: shares[row], likelyToKeepUp: likely[row] == "true",
                    item: items.map { texts.shared($0[row]) })
            }
        }
        try appendRows(directory, "segments.csv", index: index, to: &players, \.requests) { segments in
            let requests = try segments.numbers("request_s")
            let dones = try segments.numbers("done_s")
            let bitrates = try segments.numbers("bitrate_kbps")
            let afters = try segments.numbers("buffer_after_s")
            let abandoned = try segments.strings("abandoned")
            return { row in
                Request(
                    requestTime: requests[row], doneTime: dones[row], bitrateKbps: bitrates[row],
                    bufferAfterSeconds: afters[row], abandoned: abandoned[row] == "true")
            }
        }
        var data = RunPlotData(
            scenario: scenario, players: players, capacity: try capacity(directory), summary: summary.table)
        try data.readStretches(directory)
        if isPresent(InputFile.resolve("items.csv", against: directory)) {
            try data.readItems(readTable(directory, "items.csv"))
        }
        try data.readDescription(directory)
        return data
    }

    /// The scenario's name and the players (without rows) of `summary.csv`, in its order, and their positions by
    /// id (a feed run has one summary row per item, all of the viewer: one player per distinct id).
    static func players(_ summary: NamedTable, directory: String) throws -> (
        scenario: String, players: [Player], index: [String: Int]
    ) {
        let ids = try summary.strings("player")
        let policies = try summary.strings("policy")
        let scenario = try summary.strings("scenario").first ?? InputFile.fileName(of: directory)
        var players: [Player] = []
        var index: [String: Int] = [:]
        for (id, policy) in zip(ids, policies) where index[id] == nil {
            index[id] = players.count
            players.append(Player(id: id, policy: policy, timeline: [], requests: []))
        }
        return (scenario, players, index)
    }

    /// The capacity steps of `capacity.csv`.
    static func capacity(_ directory: String) throws -> [(time: Double, kbps: Double)] {
        let table = try readTable(directory, "capacity.csv")
        return zip(try table.numbers("t_s"), try table.numbers("capacity_kbps")).map { (time: $0, kbps: $1) }
    }

    /// Reads ``stretches`` from `stretches.csv`, when the folder has it.
    mutating func readStretches(_ directory: String) throws {
        guard Self.isPresent(InputFile.resolve("stretches.csv", against: directory)) else { return }
        let table = try Self.readTable(directory, "stretches.csv")
        let indices = try table.numbers("stretch")
        let labels = try table.strings("label")
        let starts = try table.numbers("start_s")
        let ends = try table.numbers("end_s")
        for row in labels.indices {
            guard starts[row].isFinite, ends[row].isFinite, ends[row] >= starts[row], indices[row].isFinite else {
                throw table.error(
                    row: row, .mustBe("a stretch", rule: "finite start_s ≤ end_s", found: "\(starts[row])–\(ends[row])")
                )
            }
            stretches.append(Stretch(index: Int(indices[row]), label: labels[row], start: starts[row], end: ends[row]))
        }
    }

    /// Reads ``descriptionText`` from `scenario.csv`, when the folder has it.
    mutating func readDescription(_ directory: String) throws {
        guard Self.isPresent(InputFile.resolve("scenario.csv", against: directory)) else { return }
        descriptionText = try Self.readTable(directory, "scenario.csv").strings("description").first ?? ""
    }

    /// Reads the item bands of `items.csv` and keeps, of each player's timeline, the rows of the item playing at
    /// their time (the others are the rows of items preloading).
    mutating func readItems(_ table: NamedTable) throws {
        let ids = try table.strings("item")
        let starts = try table.numbers("playing_since_s")
        let played = zip(ids, starts).filter { $0.1.isFinite }
        let end = endTime
        items = played.indices.map { k in
            (played[k].0, played[k].1, k + 1 < played.count ? played[k + 1].1 : max(end, played[k].1))
        }
        guard !items.isEmpty else { return }
        for position in players.indices {
            var band = 0
            players[position].timeline = players[position].timeline.filter { row in
                while band + 1 < items.count, items[band + 1].start <= row.time { band += 1 }
                return row.item == nil || row.item == items[band].id
            }
        }
    }

    /// Reads `directory/name` chunk by chunk and appends each data row, made by the function `rows` returns for
    /// its chunk (given the row's index in the chunk), to the `list` of the player its `player` column names
    /// (`index` maps ids to positions); a player not in `index` is an error at that row.
    private static func appendRows<Row>(
        _ directory: String, _ name: String, index: [String: Int], to players: inout [Player],
        _ list: WritableKeyPath<Player, [Row]>, rows: (NamedTable) throws -> (Int) -> Row
    ) throws {
        try CSVChunks(file: InputFile.resolve(name, against: directory)).forEach { chunk in
            let ids = try chunk.strings("player")
            let makeRow = try rows(chunk)
            for row in ids.indices {
                guard let player = index[ids[row]] else {
                    throw chunk.error(row: row, .isNot("in summary.csv", subject: "player", found: "'\(ids[row])'"))
                }
                players[player][keyPath: list].append(makeRow(row))
            }
        }
    }

    /// Whether something exists at `path` (an optional input; a directory there is still an error when read).
    static func isPresent(_ path: String) -> Bool { access(path, F_OK) == 0 }

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
    /// Index in the whole file of the table's first data row (a chunk of a larger file starts after 0).
    var firstRow = 0

    /// The column `name` as text, or an error naming the file.
    func strings(_ name: String) throws -> [String] {
        guard let column = table.column(name) else {
            throw InputError(.line(file, 1), .missing("column '\(name)' in the header"))
        }
        return column
    }

    /// The column `name` as numbers (`NaN`, `Inf` and `-Inf` accepted); an empty field reads as NaN.
    func numbers(_ name: String) throws -> [Double] {
        try strings(name).enumerated().map { row, text in
            if text.isEmpty { return .nan }
            guard let value = Double(text) else {
                throw error(row: row, .isNot("a number", subject: "column '\(name)':", found: "'\(text)'"))
            }
            return value
        }
    }

    /// An error at data row `row` of this table (0-based; the header is line 1).
    func error(row: Int, _ problem: InputProblem) -> InputError {
        InputError(.line(file, firstRow + row + 2), problem)
    }
}

/// One shared copy of each distinct text, so that a column with few distinct values (a state, a status) costs
/// one string per value rather than one per row.
struct TextInterner {
    private var seen: Set<String> = []

    /// `text`, or the equal string seen before.
    mutating func shared(_ text: String) -> String {
        if let existing = seen.firstIndex(of: text) { return seen[existing] }
        seen.insert(text)
        return text
    }
}
