/// The session timelines of a run drawn while `timeline.csv` and `segments.csv` are read, so that memory stays
/// flat in the run's length: the pictures are the bytes ``TimelinePlot/svg(_:players:)`` draws from
/// ``RunPlotData/load(directory:)``, but no row is kept beyond the drawing's resolution.
///
/// Two passes over the two tables. The first finds what the layout needs before any pixel (the run's end, each
/// player's last times, highest bitrate and buffer) and checks that the files are as `abrsim run` writes them:
/// `timeline.csv` in time order, each player's completed downloads in order of arrival in `segments.csv`, finite
/// numbers, every player in `summary.csv`, one summary row per player (not a feed). The second feeds every row to
/// per-player accumulators that thin as they go (``MinMaxLine``, ``DominantSpans``, ``MergedIntervals``,
/// ``ShareStack``), reading each player's requests beside the timeline (a reader per player, from where its rows
/// begin), since the buffer line merges the arrivals into the timeline rows. When a check fails, or a file cannot
/// be read or parsed, ``draw(directory:)`` gives `nil` and the caller draws from ``RunPlotData`` (which reports a
/// damaged file as today, with its file and line).
struct StreamedRunPlots {
    /// What the drawing reads besides the two tables (players without rows, capacity, stretches, description).
    let data: RunPlotData
    /// The timeline of every player, and for several players each one's own, keyed by the players drawn.
    let figures: [[Int]: SVGDocument]

    /// Most players drawn this way (each has a reader of `segments.csv` open while drawing).
    static let maximumPlayers = 256
    /// Rows parsed at a time: of `timeline.csv`, and of `segments.csv` shared among the players' readers.
    static let timelineChunkRows = 4096
    static let segmentChunkRows = 2048

    /// The run in `directory` drawn as it is read, or `nil` when its files are not as `abrsim run` writes them.
    static func draw(directory: String) throws -> StreamedRunPlots? {
        guard !RunPlotData.isPresent(InputFile.resolve("items.csv", against: directory)) else { return nil }
        let summary = try RunPlotData.readTable(directory, "summary.csv")
        let (scenario, players, index) = try RunPlotData.players(summary, directory: directory)
        guard players.count == summary.table.rows.count, (1...maximumPlayers).contains(players.count) else {
            return nil
        }
        let capacity = try RunPlotData.capacity(directory)
        guard capacity.allSatisfy({ $0.time.isFinite }),
            zip(capacity, capacity.dropFirst()).allSatisfy({ $0.time <= $1.time })
        else { return nil }
        var data = RunPlotData(scenario: scenario, players: players, capacity: capacity, summary: summary.table)
        try data.readStretches(directory)
        try data.readDescription(directory)
        let files = (
            timeline: InputFile.resolve("timeline.csv", against: directory),
            segments: InputFile.resolve("segments.csv", against: directory)
        )
        guard let scan = try Scan(files: files, index: index, players: players.count) else { return nil }
        var end = capacity.last?.time ?? 0
        for player in scan.players { end = max(end, player.lastRowTime ?? 0, player.lastDone ?? 0) }
        var drawing = try Drawing(data: data, scan: scan, end: max(end, 1e-3), files: files, index: index)
        try drawing.read(files.timeline)
        return StreamedRunPlots(data: data, figures: drawing.figures())
    }
}

/// The first pass: what the layout needs, and whether the files are in the order the drawing reads them in.
private struct Scan {
    struct Player {
        var lastRowTime: Double?
        var lastDone: Double?
        var bitrateMaxKbps: Double?
        var bufferMax: Double?
        var lastArrival = -Double.infinity
        /// Where the chunk holding its first row of `segments.csv` begins.
        var segmentsOffset: Int?
    }

    var players: [Player]

    /// The scan of `files`, or `nil` when they are not as a run writes them.
    init?(files: (timeline: String, segments: String), index: [String: Int], players count: Int) throws {
        players = Array(repeating: Player(), count: count)
        var clock = -Double.infinity
        let timeline = try CSVChunkReader(file: files.timeline, rowsPerChunk: StreamedRunPlots.timelineChunkRows)
        while let chunk = try timeline.nextFields() {
            guard !chunk.columns.contains("item") else { return nil }
            let rows = try TimelineColumns(chunk, file: files.timeline)
            for row in rows.ids.indices {
                guard let player = index[rows.ids[row]] else { return nil }
                let time = rows.times[row]
                let buffer = rows.buffers[row]
                guard time.isFinite, time >= clock, buffer.isFinite else { return nil }
                clock = time
                players[player].lastRowTime = time
                players[player].bufferMax = max(players[player].bufferMax ?? buffer, buffer)
            }
        }
        let segments = try CSVChunkReader(file: files.segments, rowsPerChunk: StreamedRunPlots.segmentChunkRows)
        while let chunk = try segments.nextFields() {
            let rows = try SegmentColumns(chunk, file: files.segments)
            for row in rows.ids.indices {
                guard let player = index[rows.ids[row]] else { return nil }
                let request = rows.request(row)
                guard request.requestTime.isFinite, request.doneTime.isFinite, request.bitrateKbps.isFinite,
                    request.bufferAfterSeconds.isFinite
                else { return nil }
                if players[player].segmentsOffset == nil { players[player].segmentsOffset = segments.chunkOffset }
                players[player].lastDone = request.doneTime
                let bitrate = request.bitrateKbps
                players[player].bitrateMaxKbps = max(players[player].bitrateMaxKbps ?? bitrate, bitrate)
                guard !request.abandoned else { continue }
                guard request.doneTime >= players[player].lastArrival else { return nil }
                players[player].lastArrival = request.doneTime
                let after = request.bufferAfterSeconds
                players[player].bufferMax = max(players[player].bufferMax ?? after, after)
            }
        }
    }
}

/// The columns of a chunk of `timeline.csv` the drawing reads.
private struct TimelineColumns {
    var ids: [String] = []
    var times: [Double] = []
    var states: [String] = []
    var playing: [Bool] = []
    var buffers: [Double] = []
    var shares: [Double] = []
    var likely: [Bool] = []

    init(_ chunk: CSVFields, file: String) throws {
        let columns = try ["player", "t_s", "state", "time_control_status", "buffer_s", "link_share"].map {
            try chunk.column($0, file: file)
        }
        let likelyColumn = try chunk.column("likely_to_keep_up", file: file)
        for row in 0..<chunk.count {
            ids.append(chunk.text(row, columns[0]))
            times.append(try chunk.number(row, columns[1]))
            states.append(chunk.text(row, columns[2]))
            playing.append(chunk.field(row, columns[3], is: "playing"))
            buffers.append(try chunk.number(row, columns[4]))
            shares.append(try chunk.number(row, columns[5]))
            likely.append(chunk.field(row, likelyColumn, is: "true"))
        }
    }
}

/// The columns of a chunk of `segments.csv` the drawing reads.
private struct SegmentColumns {
    var ids: [String] = []
    var requests: [Double] = []
    var dones: [Double] = []
    var bitrates: [Double] = []
    var afters: [Double] = []
    var abandoned: [Bool] = []

    init(_ chunk: CSVFields, file: String) throws {
        let columns = try ["player", "request_s", "done_s", "bitrate_kbps", "buffer_after_s", "abandoned"].map {
            try chunk.column($0, file: file)
        }
        for row in 0..<chunk.count {
            ids.append(chunk.text(row, columns[0]))
            requests.append(try chunk.number(row, columns[1]))
            dones.append(try chunk.number(row, columns[2]))
            bitrates.append(try chunk.number(row, columns[3]))
            afters.append(try chunk.number(row, columns[4]))
            abandoned.append(chunk.field(row, columns[5], is: "true"))
        }
    }

    /// Row `row` as a request.
    func request(_ row: Int) -> RunPlotData.Request {
        RunPlotData.Request(
            requestTime: requests[row], doneTime: dones[row], bitrateKbps: bitrates[row],
            bufferAfterSeconds: afters[row], abandoned: abandoned[row])
    }
}

/// One player's requests in `segments.csv` order, read on demand from where its first row is.
private final class RequestCursor {
    private let reader: CSVChunkReader?
    private let id: String
    private var rows: SegmentColumns?
    private var row = 0
    private var peeked: RunPlotData.Request?

    init(file: String, id: String, offset: Int?, rowsPerChunk: Int, pieceBytes: Int) throws {
        self.id = id
        reader = try offset.map {
            try CSVChunkReader(file: file, rowsPerChunk: rowsPerChunk, pieceBytes: pieceBytes, startingAt: $0)
        }
    }

    /// The next request, without taking it.
    func peek() throws -> RunPlotData.Request? {
        if peeked == nil { peeked = try read() }
        return peeked
    }

    /// Takes the next request.
    func take() throws -> RunPlotData.Request? {
        let next = try peek()
        peeked = nil
        return next
    }

    private func read() throws -> RunPlotData.Request? {
        guard let reader else { return nil }
        while true {
            if let rows, row < rows.ids.count {
                defer { row += 1 }
                if rows.ids[row] == id { return rows.request(row) }
                continue
            }
            guard let chunk = try reader.nextFields() else { return nil }
            rows = try SegmentColumns(chunk, file: reader.file)
            row = 0
        }
    }
}

/// The second pass: every row given to the accumulators of the figures.
private struct Drawing {
    /// A figure: the players it draws, its layout, and per player (by position) its bitrate and buffer lines.
    struct Figure {
        let players: [Int]
        let layout: TimelineLayout
        var bitrate: [StepLine]
        var buffer: [MinMaxLine]
        let bufferMaps: [(x: LinearMap, y: AxisMap)]
    }

    /// One player's accumulators shared by the figures.
    struct Player {
        var share: ShareSteps
        var shareArea: StepLine
        var stalls = StallSpans()
        var shading = MergedIntervals()
        var keepUp: StripSpans
        var states: StripSpans
        var seen: Set<String> = []
        var lastState: String?
        var buffer = BufferPoints()
        /// Where it is in each figure drawing it: (figure, position).
        var places: [(figure: Int, position: Int)] = []
    }

    let data: RunPlotData
    let end: Double
    let index: [String: Int]
    var figureList: [Figure] = []
    var players: [Player] = []
    let cursors: [RequestCursor]
    let capacityMap: LinearMap
    /// For several players: the throughput they use together, their stacked shares, and the next capacity step
    /// every player's share has yet to pass.
    var total: ShareTotal?
    var stack: ShareStack?
    var nextCapacity = 0
    /// The buffer points of the latest event.
    private var points: [(time: Double, value: Double)] = []

    init(
        data: RunPlotData, scan: Scan, end: Double, files: (timeline: String, segments: String),
        index: [String: Int]
    ) throws {
        self.data = data
        self.end = end
        self.index = index
        let count = data.players.count
        var groups = [Array(0..<count)]
        if count > 1 { groups += (0..<count).map { [$0] } }
        for group in groups {
            let layout = TimelineLayout(
                players: group.count, end: end, capacity: data.capacity,
                bitrateMaxKbps: group.compactMap { scan.players[$0].bitrateMaxKbps }.max() ?? 0,
                bufferMax: group.compactMap { scan.players[$0].bufferMax }.max() ?? 0)
            var bitrate: [StepLine] = []
            var buffer: [MinMaxLine] = []
            var maps: [(x: LinearMap, y: AxisMap)] = []
            for (position, player) in group.enumerated() {
                let last = scan.players[player]
                let playerEnd = last.lastRowTime.map { max($0, last.lastDone ?? 0) } ?? end
                bitrate.append(StepLine(end: playerEnd, panel: layout.bitratePanel(position)))
                let panel = layout.bufferPanel(position)
                buffer.append(MinMaxLine(left: panel.left, width: panel.width))
                maps.append((panel.x, panel.y))
            }
            figureList.append(
                Figure(players: group, layout: layout, bitrate: bitrate, buffer: buffer, bufferMaps: maps))
        }
        let capacityPanel = figureList[0].layout.capacityPanel
        capacityMap = capacityPanel.x
        for _ in 0..<count {
            players.append(
                Player(
                    share: ShareSteps(capacity: data.capacity, end: end),
                    shareArea: StepLine(end: end, panel: capacityPanel),
                    keepUp: StripSpans(end: end, panel: capacityPanel),
                    states: StripSpans(end: end, panel: capacityPanel)
                ))
        }
        for (figure, entry) in figureList.enumerated() {
            for (position, player) in entry.players.enumerated() {
                players[player].places.append((figure, position))
            }
        }
        if count > 1 {
            total = ShareTotal(players: count, line: StepLine(end: end, panel: capacityPanel))
            stack = ShareStack(players: count, end: end, columns: Int(figureList[0].layout.sharePanel.width))
        }
        let rowsPerChunk = max(64, StreamedRunPlots.segmentChunkRows / count)
        let pieceBytes = max(4096, (1 << 20) / count)
        cursors = try data.players.indices.map {
            try RequestCursor(
                file: files.segments, id: data.players[$0].id, offset: scan.players[$0].segmentsOffset,
                rowsPerChunk: rowsPerChunk, pieceBytes: pieceBytes)
        }
    }

    /// Reads `timeline.csv` (and the requests beside it) into the accumulators.
    mutating func read(_ file: String) throws {
        let reader = try CSVChunkReader(file: file, rowsPerChunk: StreamedRunPlots.timelineChunkRows)
        var clock = -Double.infinity
        var steps: [(time: Double, value: Double)] = []
        while let chunk = try reader.nextFields() {
            let rows = try TimelineColumns(chunk, file: file)
            for row in rows.ids.indices {
                let player = index[rows.ids[row]]!
                let time = rows.times[row]
                if time > clock {
                    passCapacity(before: time)
                    clock = time
                }
                try arrivals(player, through: time)
                let state = rows.states[row]
                let share = rows.shares[row]
                steps.removeAll(keepingCapacity: true)
                players[player].share.row(time: time, share: share, into: &steps)
                for step in steps { shareStep(player, step) }
                if let stall = players[player].stalls.row(time: time, buffering: state == "buffering") {
                    players[player].shading.append(stallInterval(stall))
                }
                players[player].keepUp.row(time: time, key: rows.likely[row] ? "1" : "")
                players[player].states.row(time: time, key: state)
                if players[player].lastState != state {
                    players[player].seen.insert(state)
                    players[player].lastState = state
                }
                stack?.append(player: player, time: time, share: share)
                bufferEvent(player, (time, rows.buffers[row], rows.playing[row]))
            }
        }
        passCapacity(before: .infinity)
        for player in players.indices {
            try arrivals(player, through: .infinity)
            steps.removeAll(keepingCapacity: true)
            players[player].share.finish(into: &steps)
            for step in steps { shareStep(player, step) }
            if let stall = players[player].stalls.finish() { players[player].shading.append(stallInterval(stall)) }
            players[player].keepUp.finish()
            players[player].states.finish()
        }
        total?.close()
    }

    /// Every player's share passes the capacity steps before `time`, one step at a time (so that the total sees
    /// its events in time order).
    private mutating func passCapacity(before time: Double) {
        var steps: [(time: Double, value: Double)] = []
        while nextCapacity < data.capacity.count, data.capacity[nextCapacity].time < time {
            for player in players.indices {
                steps.removeAll(keepingCapacity: true)
                players[player].share.pass(through: nextCapacity, into: &steps)
                for step in steps { shareStep(player, step) }
            }
            nextCapacity += 1
        }
    }

    private mutating func shareStep(_ player: Int, _ step: (time: Double, value: Double)) {
        players[player].shareArea.append(step)
        total?.event(time: step.time, player: player, value: step.value)
    }

    private func stallInterval(_ span: (start: Double, stop: Double)) -> (x0: Double, width: Double) {
        let x0 = capacityMap(span.start)
        return (x0, max(capacityMap(span.stop) - x0, 1))
    }

    /// Takes `player`'s requests up to its next completed download after `time` (the arrivals at or before it
    /// go to the buffer line; every request to the bitrate lines).
    private mutating func arrivals(_ player: Int, through time: Double) throws {
        let cursor = cursors[player]
        while let request = try cursor.peek(), request.abandoned || request.doneTime <= time {
            _ = try cursor.take()
            for place in players[player].places {
                figureList[place.figure].bitrate[place.position].append(
                    (time: request.requestTime, value: request.bitrateKbps / 1000))
            }
            if !request.abandoned { bufferEvent(player, (request.doneTime, request.bufferAfterSeconds, nil)) }
        }
    }

    private mutating func bufferEvent(_ player: Int, _ event: (time: Double, value: Double, playing: Bool?)) {
        points.removeAll(keepingCapacity: true)
        players[player].buffer.event(event, into: &points)
        for place in players[player].places {
            let maps = figureList[place.figure].bufferMaps[place.position]
            for point in points {
                figureList[place.figure].buffer[place.position].append((maps.x(point.time), maps.y(point.value)))
            }
        }
    }

    /// The figures drawn from the accumulators.
    func figures() -> [[Int]: SVGDocument] {
        var figures: [[Int]: SVGDocument] = [:]
        for figure in figureList {
            var parts = TimelineParts()
            for (position, index) in figure.players.enumerated() {
                let player = players[index]
                parts.players.append(
                    TimelineParts.Player(
                        id: data.players[index].id, stalls: player.shading.intervals,
                        shareArea: figure.layout.several ? [] : player.shareArea.area,
                        bitrate: figure.bitrate[position].points, buffer: figure.buffer[position].points,
                        keepUp: player.keepUp.strip.spans, states: player.states.strip.spans, seenStates: player.seen))
            }
            if figure.layout.several {
                parts.usedArea = total?.line.area ?? []
                parts.stack = stack?.result ?? ([], [])
            }
            figures[figure.players] = TimelinePlot.svg(
                data, layout: figure.layout, parts: parts, colours: figure.players.map { Palette.series($0) })
        }
        return figures
    }
}

/// ``TimelinePlot/shareSeries(_:capacity:end:)`` given a timeline row at a time: the player's share × the
/// capacity at every row and capacity step, equal neighbours once.
struct ShareSteps {
    let capacity: [(time: Double, kbps: Double)]
    let end: Double
    private var capacityIndex = -1
    private var share: Double?
    private var last: Double?
    private var stopped = false

    init(capacity: [(time: Double, kbps: Double)], end: Double) {
        self.capacity = capacity
        self.end = end
    }

    /// Passes the capacity steps up to index `index` not passed yet.
    mutating func pass(through index: Int, into steps: inout [(time: Double, value: Double)]) {
        while !stopped, capacityIndex < index, capacityIndex + 1 < capacity.count {
            let time = capacity[capacityIndex + 1].time
            guard time.isFinite, time <= end else {
                stopped = true
                return
            }
            capacityIndex += 1
            step(time, into: &steps)
        }
    }

    /// The next row, at `time` with `share`, after the capacity steps before it.
    mutating func row(time: Double, share: Double, into steps: inout [(time: Double, value: Double)]) {
        while !stopped, capacityIndex + 1 < capacity.count, capacity[capacityIndex + 1].time < time {
            pass(through: capacityIndex + 1, into: &steps)
        }
        guard !stopped else { return }
        guard time.isFinite, time <= end else {
            stopped = true
            return
        }
        if capacityIndex + 1 < capacity.count, capacity[capacityIndex + 1].time == time { capacityIndex += 1 }
        self.share = share
        step(time, into: &steps)
    }

    /// Passes the capacity steps after the last row.
    mutating func finish(into steps: inout [(time: Double, value: Double)]) {
        pass(through: capacity.count - 1, into: &steps)
    }

    private mutating func step(_ time: Double, into steps: inout [(time: Double, value: Double)]) {
        let kbps = capacityIndex >= 0 ? capacity[capacityIndex].kbps : 0
        let value = (share ?? 0) * kbps / 1000
        if let last, last == value { return }
        let drawn = value.isFinite ? value : 0
        last = drawn
        steps.append((time, drawn))
    }
}

/// ``StackedShares/total(_:end:)`` of the players' share steps given in time order (any order among the players
/// at one time), as a step line.
struct ShareTotal {
    private var current: [Double]
    private var time = -Double.infinity
    private var pending = false
    private var lastSum: Double?
    private(set) var line: StepLine

    init(players count: Int, line: StepLine) {
        current = Array(repeating: 0, count: count)
        self.line = line
    }

    /// A step of `player`'s share.
    mutating func event(time: Double, player: Int, value: Double) {
        if time != self.time {
            close()
            self.time = time
        }
        current[player] = value.isFinite ? value : 0
        pending = true
    }

    /// Ends the steps of the current time.
    mutating func close() {
        guard pending else { return }
        pending = false
        let sum = current.reduce(0, +)
        if lastSum != sum {
            line.append((time, sum))
            lastSum = sum
        }
    }
}

/// ``TimelinePlot/bufferPoints(_:)`` given its events (rows and arrivals merged in time order) one at a time.
struct BufferPoints {
    private var last: (time: Double, value: Double)?
    private var playing = false

    /// The points of the next event (a row says whether the player is playing; an arrival does not).
    mutating func event(
        _ event: (time: Double, value: Double, playing: Bool?), into points: inout [(time: Double, value: Double)]
    ) {
        if let last, event.time > last.time {
            if playing {
                let drained = last.value - (event.time - last.time)
                if drained < 0 { points.append((last.time + last.value, 0)) }
                points.append((event.time, max(drained, 0)))
            } else {
                points.append((event.time, last.value))
            }
        }
        points.append((event.time, event.value))
        last = (event.time, event.value)
        if let isPlaying = event.playing { playing = isPlaying }
    }
}

/// The stalls of ``TimelinePlot/stallIntervals(_:panel:)`` given a row at a time: each run of `buffering` rows
/// from its first row's time to the next row's (or to its own start when it ends the timeline).
struct StallSpans {
    private var start: Double?

    /// The next row; a stall when it ends one.
    mutating func row(time: Double, buffering: Bool) -> (start: Double, stop: Double)? {
        if buffering {
            if start == nil { start = time }
            return nil
        }
        guard let start else { return nil }
        self.start = nil
        return (start, time)
    }

    /// After the last row: the stall it ends in, if any.
    mutating func finish() -> (start: Double, stop: Double)? {
        defer { start = nil }
        return start.map { ($0, $0) }
    }
}

/// ``TimelinePlot/spans(_:end:key:)`` as a strip (``TimelinePlot/stripSpans(_:panel:)``) given a row at a time.
struct StripSpans {
    let end: Double
    let xMap: LinearMap
    private(set) var strip: DominantSpans
    private var pending: (key: String, start: Double)?

    init(end: Double, panel: PlotPanel) {
        self.end = end
        xMap = panel.x
        strip = DominantSpans(left: panel.left, width: panel.width)
    }

    mutating func row(time: Double, key: String) {
        if let pending {
            if pending.key == key { return }
            strip.append((pending.key, xMap(pending.start), xMap(time)))
        }
        pending = (key, time)
    }

    mutating func finish() {
        if let pending { strip.append((pending.key, xMap(pending.start), xMap(max(end, pending.start)))) }
        pending = nil
    }
}
