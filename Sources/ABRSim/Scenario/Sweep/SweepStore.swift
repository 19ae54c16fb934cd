#if canImport(Glibc)
    import Glibc
#endif

/// The rows one completed run adds to a sweep's tables, as CSV bytes without a header.
public struct SweepRunRows: Sendable {
    /// The run's global index (see ``SweepPlan``).
    public var run: Int
    /// Its `summary.csv` rows.
    public var summary: [UInt8]
    /// Its `segments.csv` rows (empty when segments are off).
    public var segments: [UInt8]
    /// Its `chunks.csv` rows (empty unless the sweep writes chunk rows).
    public var chunks: [UInt8]
    /// Its `feed.csv` and `items.csv` rows (empty unless the sweep is of a feed).
    public var feed: [UInt8]
    public var items: [UInt8]
    /// How many of its players ended `failed` (an external policy that crashed, say).
    public var failedPlayers: Int

    /// Rows of run `run`.
    public init(
        run: Int, summary: [UInt8], segments: [UInt8], chunks: [UInt8] = [], feed: [UInt8] = [], items: [UInt8] = [],
        failedPlayers: Int = 0
    ) {
        self.run = run
        self.summary = summary
        self.segments = segments
        self.chunks = chunks
        self.feed = feed
        self.items = items
        self.failedPlayers = failedPlayers
    }
}

/// A sweep's output folder, written so that an interrupted sweep loses nothing and resumes where it stopped.
///
/// Layout of `DIR`:
/// - `summary.csv`, `segments.csv` (unless segments are off), then the ``SweepTable``s the sweep writes
///   (`chunks.csv` for chunked content, `feed.csv` and `items.csv` for a feed): the tables, rows in run order;
/// - `.sweep/manifest`: what the sweep is (``SweepPlan/manifest(shard:)``); a resume must match it exactly;
/// - `.sweep/runs.csv`: one line `run,summary_bytes,segments_bytes` (then one count per ``SweepTable`` written,
///   `,chunks_bytes` or `,feed_bytes,items_bytes`) per committed run (what `merge` reads);
/// - `.sweep/progress`: the committed state — runs done, runs with a failed player, and the committed length of
///   each file;
/// - `.sweep/lock`: held (flock) while a process writes here, so two writers never share a folder.
///
/// ``commit(_:)`` appends a batch's rows to the files, fsyncs them, then atomically replaces `progress`
/// (write, fsync, rename); a write error (full disk) cuts the files back to the last commit. Whatever kills the
/// process, `progress` describes a prefix of complete rows; bytes past it (a batch cut short) are cut off when the
/// store is opened again. A process stopped between batches
/// (Ctrl-C, SIGTERM: see ``SweepInterruption``) leaves exactly the committed rows. Written by ``SweepRunner``.
public final class SweepStore {
    /// The hidden folder holding the sweep's state.
    public static let stateFolder = ".sweep"
    /// The output folder.
    public let directory: String
    /// Runs this store holds when complete (the shard's share of the plan).
    public let runCount: Int
    /// Whether `segments.csv` is written.
    public let writesSegments: Bool
    /// Whether `chunks.csv` is written.
    public var writesChunks: Bool { tables.contains(.chunks) }
    /// The tables written beside `summary.csv` and `segments.csv`, in `runs.csv`'s order.
    public let tables: [SweepTable]
    /// Runs committed so far.
    public private(set) var completedRuns: Int
    /// Runs that were already committed when the store was opened (a resumed sweep).
    public let resumedRuns: Int
    /// Committed runs in which at least one player ended `failed` (their rows are complete, with `final_state`
    /// `failed`); `abrsim sweep` reports them at the end.
    public private(set) var failedRuns: Int
    private let summary: AppendFile
    private let segments: AppendFile?
    private let extraFiles: [AppendFile]
    private let index: AppendFile
    private let lockDescriptor: Int32

    /// Opens `directory` for the sweep described by `manifest`: resumes it when its state folder holds the same
    /// manifest, starts it afresh when it holds none, and throws an ``InputError`` when it holds another sweep's
    /// (unless `replacing`: then that sweep is discarded and this one starts afresh, as `--force` asks).
    /// `extraColumns` (a grid's settings) follow the tables' own columns. The ``SweepTable``s are those the
    /// manifest names (``SweepPlan/extraTables(manifest:)``).
    public init(
        directory: String, manifest: String, runCount: Int, writesSegments: Bool, replacing: Bool = false,
        extraColumns: [String] = []
    ) throws {
        let live = SweepPlan.isLive(manifest: manifest)
        let isFeed = SweepPlan.isFeed(manifest: manifest)
        let tables = SweepPlan.extraTables(manifest: manifest)
        self.directory = directory
        self.runCount = runCount
        self.writesSegments = writesSegments
        self.tables = tables
        let state = InputFile.resolve(Self.stateFolder, against: directory)
        try AtomicFileWriter.createDirectory(state)
        lockDescriptor = try Self.lock(InputFile.resolve("lock", against: state), directory: directory)
        var lengths: Progress?
        do {
            let manifestPath = InputFile.resolve("manifest", against: state)
            if let existing = try? InputFile.readAll(manifestPath), existing == Array(manifest.utf8) || !replacing {
                guard existing == Array(manifest.utf8) else {
                    let changed = Self.changedInputs(String(decoding: existing, as: UTF8.self), manifest)
                    if !changed.isEmpty {
                        throw InputError(
                            .file(changed[0]),
                            .withAdvice(
                                .differs(
                                    "this file", from: "the one the sweep in \(directory) began with",
                                    difference: changed.count > 1
                                        ? "as do \(changed.dropFirst().joined(separator: ", "))" : nil),
                                advice: "its rows would mix old and new data; restore it, or use --force to start over")
                        )
                    }
                    throw InputError(
                        .file(directory),
                        .withAdvice(
                            .differs(
                                "the sweep this folder holds", from: "this one",
                                difference: Self.firstDifference(String(decoding: existing, as: UTF8.self), manifest)),
                            advice: "use --force to replace it, or another --out"))
                }
                lengths = try Self.readProgress(state: state, directory: directory, tables: tables)
            }
            if let done = lengths?.done, done > runCount {
                throw InputError(
                    .file(SweepFiles(directory: directory).progress),
                    .damaged("records \(done) runs done of \(runCount)"))
            }
            if lengths == nil {
                unlink(InputFile.resolve("progress", against: state))
                try AtomicFileWriter.write(Array(manifest.utf8), to: manifestPath)
            }
            let fresh = lengths == nil
            let files = SweepFiles(directory: directory)
            summary = try AppendFile(path: files.summary, truncatingTo: lengths?.summary ?? 0)
            segments = writesSegments ? try AppendFile(path: files.segments, truncatingTo: lengths?.segments ?? 0) : nil
            extraFiles = try tables.map {
                try AppendFile(path: files.table($0), truncatingTo: lengths?.extra[$0] ?? 0)
            }
            index = try AppendFile(path: files.index, truncatingTo: lengths?.index ?? 0)
            if fresh {
                try summary.append(RunTables.summary(live: live).writer(extraColumns: extraColumns).bytes)
                try segments?.append(RunTables.segments(feed: isFeed).writer(extraColumns: extraColumns).bytes)
                for (table, file) in zip(tables, extraFiles) {
                    try file.append(table.header(extraColumns: extraColumns))
                }
                try index.append(Array(SweepFiles.indexHeader(tables: tables).utf8))
                try summary.sync()
                try segments?.sync()
                for file in extraFiles { try file.sync() }
                try index.sync()
            }
            completedRuns = lengths?.done ?? 0
            failedRuns = lengths?.failed ?? 0
            resumedRuns = completedRuns
        } catch {
            close(lockDescriptor)
            throw error
        }
        if lengths == nil { try writeProgress(done: 0, failed: 0) }
    }

    deinit { close(lockDescriptor) }

    /// Whether every run is committed.
    public var isComplete: Bool { completedRuns == runCount }

    /// Removes every file of the sweep and its state folder: after a fresh sweep found its scenario's error while
    /// running (a feed's preload policy naming an item outside the window), which a resume would meet again. The
    /// store must not be used afterwards.
    public func discard() {
        let files = SweepFiles(directory: directory)
        for path in [files.summary, files.segments] + tables.map(files.table) { unlink(path) }
        for name in ["manifest", "runs.csv", "progress", "lock"] {
            unlink(InputFile.resolve(name, against: files.state))
        }
        rmdir(files.state)
    }

    /// Appends `batch` (the next runs, in order), flushes every file, and records the new committed state.
    public func commit(_ batch: [SweepRunRows]) throws {
        guard !batch.isEmpty else { return }
        let committed = (summary.length, segments?.length ?? 0, extraFiles.map(\.length), index.length)
        let failedInBatch = batch.count { $0.failedPlayers > 0 }
        do {
            let schema = SweepFiles.index(tables: tables)
            var indexRows = schema.writer(writingHeader: false)
            for rows in batch {
                try summary.append(rows.summary)
                try segments?.append(rows.segments)
                for (table, file) in zip(tables, extraFiles) { try file.append(table.rows(of: rows)) }
                schema.append(
                    SweepIndexRow(
                        run: rows.run, summaryBytes: rows.summary.count, segmentsBytes: rows.segments.count,
                        extraBytes: tables.map { $0.rows(of: rows).count }), to: &indexRows)
            }
            try index.append(indexRows.takeBytes())
            try summary.sync()
            try segments?.sync()
            for file in extraFiles { try file.sync() }
            try index.sync()
            try writeProgress(done: completedRuns + batch.count, failed: failedRuns + failedInBatch)
        } catch {
            // A write error (full disk): cut the files back to the last commit, so no torn row stays behind.
            try? summary.truncate(to: committed.0)
            try? segments?.truncate(to: committed.1)
            for (file, length) in zip(extraFiles, committed.2) { try? file.truncate(to: length) }
            try? index.truncate(to: committed.3)
            throw error
        }
        completedRuns += batch.count
        failedRuns += failedInBatch
    }

    private func writeProgress(done: Int, failed: Int) throws {
        var text = "done \(done)\nsummary.csv \(summary.length)\n"
        if let segments { text += "segments.csv \(segments.length)\n" }
        for (table, file) in zip(tables, extraFiles) { text += "\(table.fileName) \(file.length)\n" }
        text += "runs.csv \(index.length)\nfailed \(failed)\n"
        try AtomicFileWriter.write(Array(text.utf8), to: SweepFiles(directory: directory).progress)
    }

    /// The committed state read back from `progress`.
    struct Progress {
        var done: Int
        /// Runs with a failed player (0 in folders written before this was recorded).
        var failed: Int
        var summary: Int
        var segments: Int?
        /// The committed length of each ``SweepTable`` it records.
        var extra: [SweepTable: Int]
        var index: Int
    }

    /// Reads `progress` (nil when missing) and checks that every file is at least as long as it records (and that
    /// it records each of `tables`).
    static func readProgress(state: String, directory: String, tables: [SweepTable] = []) throws -> Progress? {
        let files = SweepFiles(directory: directory)
        guard let bytes = try? InputFile.readAll(files.progress) else { return nil }
        var values: [String: Int] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]), value >= 0 else {
                throw InputError(
                    .file(files.progress), .withAdvice(.damaged("line '\(line)'"), advice: Self.startOver))
            }
            values[String(parts[0])] = value
        }
        guard let done = values["done"], let summary = values["summary.csv"], let index = values["runs.csv"],
            tables.allSatisfy({ values[$0.fileName] != nil })
        else {
            throw InputError(.file(files.progress), .withAdvice(.damaged("incomplete"), advice: Self.startOver))
        }
        let progress = Progress(
            done: done, failed: values["failed"] ?? 0, summary: summary, segments: values["segments.csv"],
            extra: Dictionary(
                uniqueKeysWithValues: SweepTable.allCases.compactMap { table in
                    values[table.fileName].map { (table, $0) }
                }), index: index)
        let lengths =
            [(files.summary, summary), (files.index, index), (files.segments, progress.segments ?? 0)]
            + SweepTable.allCases.map { (files.table($0), progress.extra[$0] ?? 0) }
        for (path, length) in lengths where length > 0 {
            let size = (try? InputFile.size(path)) ?? -1
            guard size >= length else {
                throw InputError(
                    .file(path),
                    .withAdvice(.damaged("\(size) bytes, shorter than its committed \(length)"), advice: Self.startOver)
                )
            }
        }
        return progress
    }

    static func lock(_ path: String, directory: String) throws -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(path: path, "cannot create: \(AtomicFileWriter.reason(errno))", code: errno)
        }
        guard lockBriefly(descriptor, LOCK_EX) else {
            close(descriptor)
            throw InputError(.file(directory), .invalid("another abrsim sweep is writing this folder"))
        }
        return descriptor
    }

    /// Takes `operation` (`LOCK_EX` or `LOCK_SH`) on `descriptor` without blocking, trying again for up to about
    /// 0.25 s while it is refused: a process being started by another thread holds a copy of every descriptor
    /// (and so of the lock) from its fork until its exec closes it, which is not a sweep at work. False when the
    /// lock stays taken, i.e. another sweep holds it. Called by ``lock(_:directory:)`` and ``SweepLockHold``.
    static func lockBriefly(_ descriptor: Int32, _ operation: Int32) -> Bool {
        for attempt in 0..<50 {
            if flock(descriptor, operation | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK || errno == EINTR, attempt < 49 else { return false }
            usleep(5_000)
        }
        return false
    }

    /// The prefix of a manifest line recording an input file: `input FINGERPRINT PATH`.
    public static let inputPrefix = "input "

    /// The input files whose fingerprints differ between two manifests of otherwise the same sweep (the scenario
    /// file first when its own fingerprint differs); empty when anything else differs too.
    static func changedInputs(_ old: String, _ new: String) -> [String] {
        let a = old.split(separator: "\n").map(String.init)
        let b = new.split(separator: "\n").map(String.init)
        guard a.count == b.count else { return [] }
        var changed: [String] = []
        for (x, y) in zip(a, b) where x != y {
            if x.hasPrefix("scenario-fnv1a "), y.hasPrefix("scenario-fnv1a "),
                let scenario = a.first(where: { $0.hasPrefix("scenario ") })
            {
                changed.append(String(scenario.dropFirst("scenario ".count)))
                continue
            }
            guard x.hasPrefix(inputPrefix), y.hasPrefix(inputPrefix),
                let pathX = x.dropFirst(inputPrefix.count).split(separator: " ", maxSplits: 1).last,
                let pathY = y.dropFirst(inputPrefix.count).split(separator: " ", maxSplits: 1).last, pathX == pathY
            else { return [] }
            changed.append(String(pathX))
        }
        return changed
    }

    /// The first line where two manifests differ, for the error message.
    /// What to do about a damaged state file.
    static let startOver = "remove the folder to start over"

    static func firstDifference(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "(nothing)"
            let y = i < b.count ? String(b[i]) : "(nothing)"
            if x != y { return "it has '\(x)', this sweep '\(y)'" }
        }
        return "same lines"
    }
}

/// One line of a sweep's `runs.csv`: a committed run's number and the bytes its rows take in each table.
struct SweepIndexRow {
    var run: Int
    var summaryBytes: Int
    var segmentsBytes: Int
    /// Per ``SweepTable`` the sweep writes, in its order.
    var extraBytes: [Int]
}

/// The paths of a sweep folder's files.
struct SweepFiles {
    /// `runs.csv`: each committed run's number and the bytes its rows take in `summary.csv` and `segments.csv`,
    /// and in each of `tables` the sweep writes.
    static func index(tables: [SweepTable]) -> CSVSchema<SweepIndexRow> {
        CSVSchema(
            [
                .integer("run") { $0.run }, .integer("summary_bytes") { $0.summaryBytes },
                .integer("segments_bytes") { $0.segmentsBytes },
            ] + tables.indices.map { position in .integer(tables[position].indexColumn) { $0.extraBytes[position] } })
    }
    /// The header line of `runs.csv`, with its line feed.
    static func indexHeader(tables: [SweepTable]) -> String {
        String(decoding: index(tables: tables).writer().bytes, as: UTF8.self)
    }
    /// The header line of `runs.csv` of a sweep writing chunk rows (`chunks`) or no extra table.
    static func indexHeader(chunks: Bool) -> String { indexHeader(tables: chunks ? [.chunks] : []) }
    let directory: String
    var summary: String { InputFile.resolve("summary.csv", against: directory) }
    var segments: String { InputFile.resolve("segments.csv", against: directory) }
    var chunks: String { table(.chunks) }
    /// The path of `table`.
    func table(_ table: SweepTable) -> String { InputFile.resolve(table.fileName, against: directory) }
    var state: String { InputFile.resolve(SweepStore.stateFolder, against: directory) }
    var manifest: String { InputFile.resolve("manifest", against: state) }
    var index: String { InputFile.resolve("runs.csv", against: state) }
    var progress: String { InputFile.resolve("progress", against: state) }
}
