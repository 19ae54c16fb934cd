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
/// - `access_log.csv` needs each period's requests and rows at its end, so the fields it reads
///   (``AccessLog/Row``, 32 bytes per timeline row, and ``AccessLog/Request``, 72 bytes per request) go to the
///   spill file in pieces too (the latest row stays, since it can still be replaced), and are read back a piece
///   at a time when the table is written (``AccessLog/events(rows:ordered:arrivals:endTime:)``; a player whose
///   requests are not in request and arrival order has its fields read back whole and sorted).
///
/// Not for feed runs (their summaries read the records). Used on the run's one thread, then by the bundle's
/// commit (`@unchecked Sendable`). Made by `abrsim run` and given to ``ScenarioRunner/run(_:seed:recordsTimeline:keepsSegmentRecords:recordSink:)``.
public final class StreamedRunTables: RunRecordSink, @unchecked Sendable {
    /// Why `abrsim run` of `scenario` with every output would not fit in memory (`nil` when it does). Its tables
    /// stream, so only three kinds of run still hold a record per segment: a feed (its summaries read its
    /// records), chunked live content (the chunk timings), and more players than the plots draw while reading
    /// the tables (``StreamedRunPlots/maximumPlayers``; the plots then read the tables back whole).
    public static func memoryError(runningWithEveryOutput scenario: Scenario) -> InputError? {
        guard let error = scenario.recordMemoryError else { return nil }
        let holdsRecords =
            scenario.feed != nil || scenario.keepsChunkRecords
            || scenario.players.count > StreamedRunPlots.maximumPlayers
        return holdsRecords ? error : nil
    }

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
    /// Per player, what its access log reads, and whether its requests came in request and arrival order.
    private var accessRows: [SpilledRecords<AccessLog.Row>]
    private var accessRequests: [SpilledRecords<AccessLog.Request>]
    private var requestsInOrder: [Bool]
    private var lastRequestTime: [Double]
    private var lastArrivalTime: [Double]
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
        accessRows = Array(repeating: SpilledRecords<AccessLog.Row>(bytes: perPlayer), count: count)
        accessRequests = Array(repeating: SpilledRecords<AccessLog.Request>(bytes: perPlayer), count: count)
        requestsInOrder = Array(repeating: true, count: count)
        lastRequestTime = Array(repeating: -.infinity, count: count)
        lastArrivalTime = Array(repeating: -.infinity, count: count)
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
        let request = AccessLog.Request(record)
        if !(request.requestTime >= lastRequestTime[player])
            || (!request.abandoned && !(request.doneTime >= lastArrivalTime[player]))
        {
            requestsInOrder[player] = false
        }
        lastRequestTime[player] = request.requestTime
        if !request.abandoned { lastArrivalTime[player] = request.doneTime }
        keep(accessRequests[player].append(request, spill: spill))
    }

    /// Notes the first failure of a spill of the access log's fields.
    private func keep(_ result: Result<Void, any Error>) {
        if case .failure(let error) = result, failure == nil { failure = error }
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
            accessRows[player].replaceLast(AccessLog.Row(row))
        } else {
            keep(accessRows[player].append(AccessLog.Row(row), spill: spill))
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
        let accessLog = RunTables.streamed(RunTables.accessLog.names, pieceBytes) { writer in
            for player in self.places.indices where self.failure == nil {
                let rows = self.accessRows[player].records(in: self.spill) { self.failure = self.failure ?? $0 }
                let requests = self.accessRequests[player].records(in: self.spill) {
                    self.failure = self.failure ?? $0
                }
                let events =
                    self.requestsInOrder[player]
                    ? AccessLog.events(
                        rows: rows, ordered: requests, arrivals: requests.lazy.filter { !$0.abandoned },
                        endTime: endTime)
                    : AccessLog.events(rows: Array(rows), requests: Array(requests), endTime: endTime)
                guard self.failure == nil else { return }
                let place = self.places[player]
                for (index, event) in events.enumerated() {
                    let row = RunTables.Row(
                        scenario: place.scenario, player: place.player, policy: place.policy, trace: place.trace,
                        record: RunTables.AccessLogRecord(index: index, event: event))
                    RunTables.accessLog.append(row, to: &writer)
                }
            }
        }
        bundle.add(
            name: "access_log.csv",
            streaming: { (write: ([UInt8]) throws -> Void) in
                try self.check()
                try accessLog(write)
                try self.check()
            })
    }

    private func check() throws {
        if let failure { throw failure }
    }

    /// The access log's fields the sink holds in memory (the rest is in the spill file), in bytes (for tests and
    /// reports): at most about `pieceBytes` per player and table, whatever the run's length.
    public var heldAccessLogBytes: Int {
        let rows = accessRows.map(\.held).reduce(0, +)
        let requests = accessRequests.map(\.held).reduce(0, +)
        return rows * MemoryLayout<AccessLog.Row>.stride + requests * MemoryLayout<AccessLog.Request>.stride
    }

    /// The access log's fields in the spill file, in bytes (for tests).
    var spilledAccessLogBytes: Int {
        let rows = accessRows.map(\.spilled).reduce(0, +)
        let requests = accessRequests.map(\.spilled).reduce(0, +)
        return rows * MemoryLayout<AccessLog.Row>.stride + requests * MemoryLayout<AccessLog.Request>.stride
    }
}

/// Records of a layout without references (``AccessLog/Row``, ``AccessLog/Request``: plain values only, copied as
/// bytes) in order: the latest kept in
/// memory, up to about `bytes` of them, the earlier ones appended to a ``SpillFile`` in pieces; the last record
/// stays in memory, so that it can be replaced. Read back in order, a piece at a time (``records(in:failed:)``).
struct SpilledRecords<Element> {
    private var pieces: [SpillFile.Piece] = []
    private var recent: [Element] = []
    private let limit: Int
    /// Records in the spill file.
    private(set) var spilled = 0

    /// Records spilled once about `bytes` of them are in memory.
    init(bytes: Int) {
        limit = max(bytes / MemoryLayout<Element>.stride, 2)
    }

    /// Records in memory.
    var held: Int { recent.count }

    /// Appends `record`, spilling the ones before it when `limit` are held.
    mutating func append(_ record: Element, spill: SpillFile) -> Result<Void, any Error> {
        var result = Result<Void, any Error>.success(())
        if recent.count >= limit {
            let count = recent.count - 1
            let bytes = recent.withUnsafeBytes { Array($0.prefix(count * MemoryLayout<Element>.stride)) }
            do {
                pieces.append(try spill.append(bytes))
                spilled += count
            } catch {
                result = .failure(error)
            }
            recent.removeFirst(count)
        }
        recent.append(record)
        return result
    }

    /// Replaces the last record.
    mutating func replaceLast(_ record: Element) {
        recent[recent.count - 1] = record
    }

    /// The records in order, read from `spill` a piece at a time each time they are iterated; a read error ends
    /// them early and is given to `failed`.
    func records(in spill: SpillFile, failed: @escaping (any Error) -> Void) -> Records {
        Records(pieces: pieces, recent: recent, spill: spill, failed: failed)
    }

    /// ``SpilledRecords``'s records, a piece of the file at a time.
    struct Records: Sequence {
        let pieces: [SpillFile.Piece]
        let recent: [Element]
        let spill: SpillFile
        let failed: (any Error) -> Void

        func makeIterator() -> Iterator { Iterator(records: self) }

        struct Iterator: IteratorProtocol {
            let records: Records
            private var piece = 0
            private var buffer: [Element] = []
            private var index = 0
            private var inRecent = false

            init(records: Records) { self.records = records }

            mutating func next() -> Element? {
                while index >= buffer.count {
                    guard !inRecent else { return nil }
                    index = 0
                    if piece < records.pieces.count {
                        do {
                            buffer = try Self.decode(records.spill.read(records.pieces[piece]))
                        } catch {
                            records.failed(error)
                            inRecent = true
                            buffer = []
                            return nil
                        }
                        piece += 1
                    } else {
                        buffer = records.recent
                        inRecent = true
                    }
                }
                defer { index += 1 }
                return buffer[index]
            }

            /// The records whose bytes `bytes` are.
            static func decode(_ bytes: [UInt8]) -> [Element] {
                let count = bytes.count / MemoryLayout<Element>.stride
                return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                    bytes.withUnsafeBytes { source in
                        UnsafeMutableRawBufferPointer(buffer).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source.prefix(count * MemoryLayout<Element>.stride)))
                    }
                    initialized = count
                }
            }
        }
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
