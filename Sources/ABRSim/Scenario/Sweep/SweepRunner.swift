import Dispatch

/// How far a sweep has got, for progress lines.
public struct SweepProgress: Sendable {
    /// Runs committed (this shard), including resumed ones.
    public var done: Int
    /// Runs this shard has in all.
    public var total: Int
    /// Runs that were already done when this process started.
    public var resumed: Int
    /// Seconds since this process started running.
    public var elapsedSeconds: Double

    /// Runs per second in this process.
    public var rate: Double { elapsedSeconds > 0 ? Double(done - resumed) / elapsedSeconds : 0 }
    /// Estimated seconds left at the current rate (`nil` before the first batch).
    public var secondsLeft: Double? { rate > 0 ? Double(total - done) / rate : nil }
}

/// Executes a ``SweepPlan`` (or one shard of it) into a ``SweepStore``, in ordered batches.
///
/// A batch is a run of consecutive positions of the shard: its traces are read, its runs computed in parallel on
/// up to `jobs` threads (``parallelMap``, results in order), each run's rows formatted on its worker, then the
/// whole batch committed in run order, on another thread while the next batch is computed. So the files never
/// depend on `jobs` or on batch sizes, only two batches of rows are ever in memory, and an interruption loses at
/// most the batches in flight (commits run inside
/// ``SweepInterruption/writing(_:)``, so a signal never cuts one short). Batch size: `batchRuns` when set,
/// else adaptive — about `targetBatchSeconds` of work and at most `maximumBatchBytes` of rows. Called by
/// `abrsim sweep`.
public struct SweepRunner {
    /// Policies the plan may name.
    public var registry: PolicyRegistry = .builtIn
    /// Parallel runs.
    public var jobs: Int
    /// Largest `--batch` accepted (a batch's rows are held in memory until committed).
    public static let maximumBatchRuns = 100_000
    /// Runs per batch (`nil`: adaptive).
    public var batchRuns: Int?
    /// Wall time an adaptive batch aims at, seconds.
    public var targetBatchSeconds = 1.0
    /// Most bytes of rows an adaptive batch may hold.
    public var maximumBatchBytes = 8 << 20

    /// A runner on `jobs` threads.
    public init(jobs: Int, batchRuns: Int? = nil) {
        self.jobs = max(1, jobs)
        self.batchRuns = batchRuns.map { max(1, $0) }
    }

    /// Checks that every trace reads and every policy can be made, before any output exists (a sweep must not
    /// fail halfway on a typo). Traces are read in parallel and dropped.
    public func validate(_ plan: SweepPlan) throws {
        for (scenario, _) in plan.points {
            try validate(plan, scenario: scenario)
        }
        _ = try parallelMap(count: plan.traces.count, jobs: jobs) { index in
            _ = try TraceReader.readForRuns(path: plan.traces[index])
        }
    }

    /// Checks that every policy of `plan` can be made for every player of `scenario` (one grid point), and that
    /// the records a run keeps fit in memory.
    func validate(_ plan: SweepPlan, scenario: Scenario) throws {
        if plan.writesSegments, let error = scenario.recordMemoryError { throw error }
        for spec in plan.policies {
            for (index, player) in scenario.players.enumerated() {
                _ = try registry.makePolicy(
                    spec,
                    environment: PolicyEnvironment(
                        seed: plan.seed, playerIndex: index, curve: scenario.network.curve, content: player.content,
                        settings: player.settings, directory: InputFile.directory(of: scenario.file)),
                    location: "--policies")
            }
        }
    }

    /// Runs the shard's remaining runs into `store`, reporting after each batch; stops early (returning `false`)
    /// after a committed batch when `shouldStop` says so. Returns `true` when the store is complete.
    public func run(
        _ plan: SweepPlan, shard: SweepShard, store: SweepStore, shouldStop: () -> Bool = { false },
        progress: (SweepProgress) -> Void = { _ in }
    ) throws -> Bool {
        let total = shard.runCount(of: plan.runCount)
        precondition(store.runCount == total, "the store was opened for another shard size")
        let start = ContinuousClock.now
        var batch = batchRuns ?? jobs * 2
        // Batch k is committed on another thread while batch k + 1 is computed: writing rows and syncing them no
        // longer leaves the cores idle. Only the committing thread touches `store` until the commit is waited for.
        var next = store.completedRuns
        var pending: PendingCommit?
        defer { pending?.wait() }
        while true {
            if shouldStop() { return false }
            var computed: (rows: [SweepRunRows], count: Int, seconds: Double)?
            if next < total {
                let count = min(batch, total - next)
                let batchStart = ContinuousClock.now
                let rows = try runBatch(plan, runs: (next..<(next + count)).map(shard.globalRun(at:)))
                computed = (rows, count, secondsElapsed(since: batchStart))
            }
            if let committing = pending {
                pending = nil
                guard try committing.outcome() else { return false }
                progress(
                    SweepProgress(
                        done: store.completedRuns, total: total, resumed: store.resumedRuns,
                        elapsedSeconds: secondsElapsed(since: start)))
            }
            guard let (rows, count, seconds) = computed else { return true }
            if shouldStop() { return false }
            next += count
            if batchRuns == nil {
                let bytes = rows.reduce(0) {
                    $0 + $1.summary.count + $1.segments.count + $1.chunks.count + $1.feed.count + $1.items.count
                }
                batch = nextBatchSize(count: count, seconds: seconds, bytes: bytes)
            }
            pending = PendingCommit(rows, into: store)
        }
    }

    /// Computes the rows of `runs` (global indices, ascending) in parallel, in order.
    func runBatch(_ plan: SweepPlan, runs: [Int]) throws -> [SweepRunRows] {
        var needed: [Int] = []
        if !plan.traces.isEmpty {
            for run in runs where needed.last != plan.coordinates(ofRun: run).trace {
                needed.append(plan.coordinates(ofRun: run).trace)
            }
        }
        let traceIndices = needed
        let loaded = try parallelMap(count: traceIndices.count, jobs: jobs) { position in
            try TraceReader.readForRuns(
                path: plan.traces[traceIndices[position]])
        }
        let traces = Dictionary(uniqueKeysWithValues: zip(traceIndices, loaded))
        let registry = self.registry
        let writesSegments = plan.writesSegments
        let writesChunks = plan.writesChunks
        let parallel = jobs > 1
        return try parallelMap(count: runs.count, jobs: jobs) { position in
            let run = runs[position]
            let scenario = try plan.scenario(
                forRun: run, trace: traces[plan.coordinates(ofRun: run).trace], privateContent: parallel)
            let report = try ScenarioRunner(registry: registry).run(
                scenario, recordsTimeline: false, keepsSegmentRecords: writesSegments)
            return Self.rows(
                report, run: run, writesSegments: writesSegments, writesChunks: writesChunks,
                extra: plan.pointValues[plan.point(ofRun: run)], live: plan.isLive)
        }
    }

    /// The CSV rows (no headers) of one run's report.
    static func rows(
        _ report: RunReport, run: Int, writesSegments: Bool, writesChunks: Bool = false, extra: [String] = [],
        live: Bool = false
    ) -> SweepRunRows {
        let extraColumns = extra.indices.map { "grid\($0)" }
        var summary = RunTables.summary(live: live).writer(extraColumns: extraColumns)
        _ = summary.takeBytes()
        RunTables.appendSummary(report, to: &summary, extra: extra, live: live)
        var segmentBytes: [UInt8] = []
        if writesSegments {
            // One buffer for the run's rows, sized from its segment count (rows are about 200 bytes).
            let rows = report.players.reduce(0) { $0 + $1.segments.count }
            var segments = RunTables.segments(feed: report.isFeed).writer(
                extraColumns: extraColumns, reservingBytes: max(1 << 14, rows * 256))
            _ = segments.takeBytes()
            RunTables.appendSegments(report, to: &segments, extra: extra)
            segmentBytes = segments.takeBytes()
        }
        var chunkBytes: [UInt8] = []
        if writesChunks {
            // Chunk rows are about 100 bytes.
            let rows = report.players.reduce(0) { $0 + $1.chunks.count }
            var chunks = RunTables.placedChunks.writer(
                extraColumns: extraColumns, reservingBytes: max(1 << 12, rows * 128))
            _ = chunks.takeBytes()
            RunTables.appendPlacedChunks(report, to: &chunks, extra: extra)
            chunkBytes = chunks.takeBytes()
        }
        var feedBytes: [UInt8] = []
        var itemBytes: [UInt8] = []
        if let feed = report.feed {
            var session = FeedTables.session.writer(extraColumns: extraColumns, writingHeader: false)
            FeedTables.session.append(FeedTables.sessionRow(report, feed), to: &session, extra: extra)
            feedBytes = session.takeBytes()
            var items = FeedTables.items.writer(extraColumns: extraColumns, writingHeader: false)
            FeedTables.appendItems(report, feed, to: &items, extra: extra)
            itemBytes = items.takeBytes()
        }
        let failed = report.players.filter { player in
            if case .failed = player.summary.finalState { return true }
            return false
        }.count
        return SweepRunRows(
            run: run, summary: summary.takeBytes(), segments: segmentBytes, chunks: chunkBytes, feed: feedBytes,
            items: itemBytes, failedPlayers: failed)
    }

    /// The next adaptive batch size: about `targetBatchSeconds` at the last batch's pace, within the byte cap,
    /// at least `jobs`, and at most four times the last.
    func nextBatchSize(count: Int, seconds: Double, bytes: Int) -> Int {
        let perRun = max(seconds, 1e-6) / Double(count)
        var next = min(Double(count * 4), targetBatchSeconds / perRun)
        if bytes > 0 { next = min(next, Double(maximumBatchBytes) * Double(count) / Double(bytes)) }
        return max(jobs, Int(next))
    }
}

/// One batch being committed to a ``SweepStore`` on a thread of its own (inside ``SweepInterruption/writing(_:)``,
/// so a signal waits for it). ``outcome()`` waits and says whether it was committed.
final class PendingCommit: @unchecked Sendable {
    // Written by the committing thread before `done` is signalled, read after waiting on it.
    private var committed = false
    private var error: (any Error)?
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    init(_ rows: [SweepRunRows], into store: SweepStore) {
        let unchecked = UncheckedStore(store: store)
        DispatchQueue.global().async { [self] in
            do {
                committed = try SweepInterruption.writing { try unchecked.store.commit(rows) }
            } catch {
                self.error = error
            }
            done.signal()
        }
    }

    /// Waits for the commit (once; later calls return at once).
    func wait() {
        if waited { return }
        done.wait()
        waited = true
    }

    /// Waits, then rethrows the commit's error or returns whether it ran (`false`: a stop was requested first).
    func outcome() throws -> Bool {
        wait()
        if let error { throw error }
        return committed
    }
}

/// A store handed to the committing thread; the runner does not touch it until the commit is waited for.
private struct UncheckedStore: @unchecked Sendable {
    let store: SweepStore
}
