#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `segments.csv`, `timeline.csv` and `access_log.csv` of one run written as the players make their records (a
/// ``RunRecordSink``), so that `abrsim run` holds no ``SegmentRecord`` or ``TimelineRecord`` per segment: the
/// files have exactly the bytes ``RunTables/bundle(for:pieceBytes:)`` writes from a report that kept them.
///
/// - `segments.csv` is grouped by player: each player's rows are formatted at once into its own buffer, which goes
///   to an unnamed temporary file (`tmpfile()`) in pieces; the file's rows are copied out player by player when the
///   bundle is committed.
/// - `timeline.csv` merges the players in time order (ties in player order): rows come in time order (each has the
///   kernel's current time) and a row can be replaced while its instant lasts, so the rows of the current instant
///   wait, at most one per player, and are written in player order when a later instant begins.
/// - `access_log.csv` needs each period's requests and rows at its end, so the fields it reads are kept
///   (``AccessLog/Row``, 32 bytes per timeline row, and ``AccessLog/Request``, 72 bytes per request) instead of
///   the records.
///
/// Not for feed runs (their summaries read the records). Used on the run's one thread, then by the bundle's
/// commit (`@unchecked Sendable`). Made by `abrsim run` and given to ``ScenarioRunner/run(_:seed:recordsTimeline:keepsSegmentRecords:recordSink:)``.
public final class StreamedRunTables: RunRecordSink, @unchecked Sendable {
    /// The players' places (scenario, id, policy, trace), in scenario order.
    let places: [RunTables.Row<Int>]
    /// Whether a player plays live content (the timeline's latency columns).
    public let isLive: Bool
    /// The spill file of the formatted rows.
    private let spill: SpillFile
    /// Per player, its segment rows not yet spilled, and where its spilled pieces are.
    private var segmentWriters: [CSVWriter]
    private var segmentPieces: [[SpillFile.Piece]]
    /// Per player, its `segments.csv` labels, once it has a record.
    private var labels: [CSVRowPrefix?]
    /// The timeline rows not yet spilled, and where the spilled pieces are.
    private var timelineWriter: CSVWriter
    private var timelinePieces: [SpillFile.Piece] = []
    /// The instant whose rows wait in ``waiting`` (one slot per player), and the players with a row there.
    private var instant = -Double.infinity
    private var waiting: [TimelineRecord?]
    private var waitingPlayers: [Int] = []
    /// Per player, what its access log reads.
    private var accessRows: [[AccessLog.Row]]
    private var accessRequests: [[AccessLog.Request]]
    /// The first error of a write to the spill file.
    private var failure: (any Error)?

    /// Tables of a run of `scenario` (not a feed), spilling each table's rows in pieces of about `pieceBytes` (at
    /// least 16 KiB per player, or `pieceBytes` if smaller). Throws an ``OutputError`` when no temporary file can
    /// be made.
    public init(for scenario: Scenario, pieceBytes: Int = 1 << 20) throws {
        places = scenario.players.map {
            RunTables.Row(
                scenario: scenario.name, player: $0.id, policy: $0.policy.label, trace: scenario.networkLabel,
                record: 0)
        }
        isLive = scenario.players.contains { $0.content.live != nil }
        spill = try SpillFile()
        let count = scenario.players.count
        let perPlayer = max(min(16 << 10, pieceBytes), pieceBytes / max(count, 1))
        segmentWriters = Array(repeating: RunTables.segments.writer(writingHeader: false), count: count)
        segmentPieces = Array(repeating: [], count: count)
        labels = Array(repeating: nil, count: count)
        timelineWriter = RunTables.timeline(live: isLive).writer(reservingBytes: pieceBytes, writingHeader: false)
        self.pieceBytes = pieceBytes
        self.perPlayer = perPlayer
        waiting = Array(repeating: nil, count: count)
        accessRows = Array(repeating: [], count: count)
        accessRequests = Array(repeating: [], count: count)
    }

    private let pieceBytes: Int
    private let perPlayer: Int

    /// A segment row of player `record.player`, formatted now.
    public func take(segment record: SegmentRecord) {
        let player = record.player
        let row = RunTables.Row(
            scenario: places[player].scenario, player: places[player].player, policy: places[player].policy,
            trace: places[player].trace, record: record)
        if labels[player] == nil {
            labels[player] = RunTables.segments.prefix(of: row, count: RunTables.placeColumnCount)
        }
        RunTables.segments.append(row, after: labels[player]!, to: &segmentWriters[player])
        if segmentWriters[player].bytes.count >= perPlayer {
            if let piece = spillOut(&segmentWriters[player]) { segmentPieces[player].append(piece) }
        }
        accessRequests[player].append(AccessLog.Request(record))
    }

    /// A timeline row of player `row.player`.
    public func take(row: TimelineRecord, replacing: Bool) {
        let player = row.player
        if row.time != instant {
            precondition(row.time > instant, "timeline rows out of time order")
            writeWaiting()
            instant = row.time
        }
        // A replaced row is of the current instant (the player's last row has this time), so it is still waiting.
        if replacing, waiting[player] != nil {
            accessRows[player][accessRows[player].count - 1] = AccessLog.Row(row)
        } else {
            accessRows[player].append(AccessLog.Row(row))
            waitingPlayers.append(player)
        }
        waiting[player] = row
    }

    /// Writes the rows of the current instant, in player order.
    private func writeWaiting() {
        guard !waitingPlayers.isEmpty else { return }
        if waitingPlayers.count > 1 { waitingPlayers.sort() }
        let schema = RunTables.timeline(live: isLive)
        for player in waitingPlayers {
            schema.append(
                RunTables.TimelineRow(player: places[player].player, record: waiting[player]!), to: &timelineWriter)
            waiting[player] = nil
        }
        waitingPlayers.removeAll(keepingCapacity: true)
        if timelineWriter.bytes.count >= pieceBytes, let piece = spillOut(&timelineWriter) {
            timelinePieces.append(piece)
        }
    }

    /// Moves `writer`'s rows to the spill file; `nil` when there were none or the write failed.
    private func spillOut(_ writer: inout CSVWriter) -> SpillFile.Piece? {
        let bytes = writer.takeBytes()
        guard !bytes.isEmpty, failure == nil else { return nil }
        do {
            return try spill.append(bytes)
        } catch {
            failure = error
            return nil
        }
    }

    /// Adds the three tables to `bundle`, `report` being the run's (with ``RunReport/endTime``, which closes the
    /// access log's last periods). Call once, after the run.
    func add(to bundle: inout OutputBundle, report: RunReport) {
        writeWaiting()
        let segmentColumns = RunTables.segments.names
        let timelineColumns = RunTables.timeline(live: isLive).names
        bundle.add(
            name: "segments.csv",
            streaming: { (write: ([UInt8]) throws -> Void) in
                try self.check()
                try write(CSVWriter(columns: segmentColumns).bytes)
                for player in self.places.indices {
                    for piece in self.segmentPieces[player] { try write(try self.spill.read(piece)) }
                    try write(self.segmentWriters[player].bytes)
                }
            })
        bundle.add(
            name: "timeline.csv",
            streaming: { (write: ([UInt8]) throws -> Void) in
                try self.check()
                try write(CSVWriter(columns: timelineColumns).bytes)
                for piece in self.timelinePieces { try write(try self.spill.read(piece)) }
                try write(self.timelineWriter.bytes)
            })
        let endTime = report.endTime
        bundle.add(
            name: "access_log.csv",
            streaming: RunTables.streamed(RunTables.accessLog.names, pieceBytes) { writer in
                for player in self.places.indices {
                    let events = AccessLog.events(
                        rows: self.accessRows[player], requests: self.accessRequests[player], endTime: endTime)
                    let place = self.places[player]
                    for (index, event) in events.enumerated() {
                        let row = RunTables.Row(
                            scenario: place.scenario, player: place.player, policy: place.policy, trace: place.trace,
                            record: RunTables.AccessLogRecord(index: index, event: event))
                        RunTables.accessLog.append(row, to: &writer)
                    }
                }
            })
    }

    private func check() throws {
        if let failure { throw failure }
    }

    /// What the sink holds per segment and timeline row beyond its fixed buffers: the access log's fields, in bytes
    /// (for tests and reports).
    public var heldAccessLogBytes: Int {
        accessRows.reduce(0) { $0 + $1.count * MemoryLayout<AccessLog.Row>.stride }
            + accessRequests.reduce(0) { $0 + $1.count * MemoryLayout<AccessLog.Request>.stride }
    }
}

/// An unnamed temporary file (`tmpfile()`, gone when closed or when the process ends) that pieces of bytes are
/// appended to and read back from. Used by ``StreamedRunTables``.
final class SpillFile {
    /// Where a piece is: its offset and length in bytes.
    struct Piece {
        var offset: Int
        var count: Int
    }

    private let handle: UnsafeMutablePointer<FILE>
    private var length = 0

    /// A new empty temporary file.
    init() throws {
        guard let handle = tmpfile() else {
            throw OutputError(path: "temporary file", "cannot create: \(InputFile.errnoText())", code: errno)
        }
        self.handle = handle
    }

    deinit { fclose(handle) }

    /// Appends `bytes` and says where they are.
    func append(_ bytes: [UInt8]) throws -> Piece {
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        guard written == bytes.count else {
            throw OutputError(path: "temporary file", "cannot write: \(InputFile.errnoText())", code: errno)
        }
        defer { length += bytes.count }
        return Piece(offset: length, count: bytes.count)
    }

    /// The bytes of `piece`.
    func read(_ piece: Piece) throws -> [UInt8] {
        guard fflush(handle) == 0 else {
            throw OutputError(path: "temporary file", "cannot write: \(InputFile.errnoText())", code: errno)
        }
        var bytes = [UInt8](repeating: 0, count: piece.count)
        var done = 0
        while done < piece.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(fileno(handle), $0.baseAddress! + done, piece.count - done, off_t(piece.offset + done))
            }
            guard count > 0 else {
                throw OutputError(path: "temporary file", "cannot read: \(InputFile.errnoText())", code: errno)
            }
            done += count
        }
        return bytes
    }
}
