/// What `abrsim sweep` runs: a scenario crossed with traces, grid points and policies, one run per (trace,
/// point, policy).
///
/// Each run is the scenario with its network replaced by one trace (looping at its end, with the scenario's
/// `network.rttMs` as the RTT) and every player's policy replaced by one policy spec; content, player settings,
/// actions, QoE weights and seed stay the scenario's. With no traces the scenario's own network is used; with no
/// policies each player keeps its own.
///
/// A grid (`--grid PATH=V1|V2`, see ``SweepGridAxis``) crosses scenario settings too: each point of the grid (the
/// first axis varying slowest) is the scenario decoded again with the point's values set, and every output row
/// carries each axis's value in a column named by its path.
///
/// Runs are numbered **trace-major**: run `r` plays trace `r / (G·P)`, grid point `(r / P) % G` and policy
/// `r % P` (G points, P policies), so every policy's row set for one trace is adjacent in the output (paired
/// comparisons read straight down the file) and a batch of consecutive runs needs only a few traces in memory. ``SweepRunner`` executes a plan,
/// ``SweepStore`` holds its results, ``SweepShard`` slices it.
public struct SweepPlan: Sendable {
    /// The scenario every run starts from.
    public var scenario: Scenario
    /// Trace files, in run order; empty means the scenario's own network.
    public var traces: [String]
    /// Policies, in run order; empty means each player keeps the scenario's policy.
    public var policies: [PolicySpec]
    /// RTT in seconds of trace networks whose trace carries no latency (the scenario's `network.rttMs`).
    public var rttSeconds: Double
    /// The seed of every run (default: the scenario's), unless a grid axis sets it (``seedsFromGrid``).
    public var seed: UInt64
    /// Whether a grid axis sets the seed (`--grid seed=1|2|3`): each run then has its grid point's.
    public var seedsFromGrid: Bool
    /// Whether `segments.csv` is written (it holds one row per segment request, by far the largest table).
    public var writesSegments = true
    /// Whether a player of the scenario plays live content: `summary.csv` then has the latency columns.
    public var isLive: Bool { scenario.players.contains { $0.content.live != nil } }
    /// Whether a player of a grid point plays LL-DASH chunked content.
    public var isChunked: Bool {
        points.contains { point in point.scenario.players.contains { $0.content.live?.chunkDurationSeconds != nil } }
    }
    /// Whether `chunks.csv` is written: one row per CMAF chunk, for chunked content when segments are written.
    public var writesChunks: Bool { writesSegments && isChunked }
    /// Whether the scenario is a feed (`docs/feed.md`): every run then writes `feed.csv` and `items.csv` rows, and
    /// `segments.csv` has the `item` column.
    public var isFeed: Bool { scenario.feed != nil }
    /// The tables written beside `summary.csv` and `segments.csv`, in `runs.csv`'s order.
    public var extraTables: [SweepTable] { (writesChunks ? [.chunks] : []) + (isFeed ? [.feed, .items] : []) }
    /// A fingerprint of the scenario file's bytes (FNV-1a, hex), so a resumed sweep notices an edited scenario.
    public var scenarioFingerprint: String
    /// The `--set` edits every run's scenario was loaded with.
    public var edits: [ScenarioSetting]
    /// The grid's axes (empty: no grid).
    public var grid: [SweepGridAxis]
    /// Each grid point's scenario and RTT (one point, the scenario itself, without a grid).
    public var points: [(scenario: Scenario, rttSeconds: Double)]
    /// Each grid point's value texts, one per axis.
    public var pointValues: [[String]]
    /// Every other file the sweep reads, with its ``InputFingerprint``: the files the scenario names (traces,
    /// content), then each trace of ``traces``. A resume refuses any that changed, naming it.
    public var inputFingerprints: [(path: String, fingerprint: String)]

    /// A plan over `scenario` (loaded from its file by `loader`, whose edits apply to every run, and whose
    /// `network.rttMs` it reads), crossed with `grid`'s points. A grid over a setting that cannot vary (see
    /// ``SweepGridAxis/checkVaries(traces:policies:seed:)``) is an error. `scenarioBytes` is the scenario's JSON
    /// text when it came from no file (the Python package's dicts; such a plan has no grid).
    public init(
        scenario: Scenario, scenarioBytes: [UInt8]? = nil, traces: [String], policies: [PolicySpec],
        seed: UInt64? = nil, grid: [SweepGridAxis] = [], loader: ScenarioLoader = ScenarioLoader()
    ) throws {
        self.scenario = scenario
        self.traces = traces
        self.policies = policies
        self.seed = seed ?? scenario.seed
        self.edits = loader.settings
        self.grid = grid
        seedsFromGrid = seed == nil && grid.contains { $0.values[0].touches(["seed"]) }
        let bytes = try scenarioBytes ?? InputFile.readAll(scenario.file)
        scenarioFingerprint = FNV1a64.hex(FNV1a64.hash(bytes))
        let document =
            try scenarioBytes.map { try loader.document(json: $0, label: scenario.file) }
            ?? loader.document(scenario.file)
        rttSeconds = try Self.defaultRttSeconds(document, file: scenario.file)
        var paths: Set<String> = []
        for axis in grid {
            try axis.checkVaries(traces: !traces.isEmpty, policies: !policies.isEmpty, seed: seed != nil)
            guard paths.insert(axis.values[0].canonicalPath).inserted else {
                throw InputError(.option("--grid"), .duplicate(axis.path, of: "path"))
            }
        }
        var values: [[ScenarioSetting]] = [[]]
        for axis in grid { values = values.flatMap { prefix in axis.values.map { prefix + [$0] } } }
        let directory = InputFile.directory(of: scenario.file)
        var named = InputFingerprint.referencedFiles(document, directory: directory)
        if grid.isEmpty {
            points = [(scenario, rttSeconds)]
        } else {
            guard scenarioBytes == nil else {
                throw InputError(
                    .option("--grid"), .missingPrerequisite("a settings grid", needs: "the scenario as a file"))
            }
            points = try values.map { point in
                var pointLoader = loader
                pointLoader.settings += point
                let pointDocument = try pointLoader.document(scenario.file)
                // A grid point may name other files (a trace or content per point): fingerprint those too.
                for file in InputFingerprint.referencedFiles(pointDocument, directory: directory)
                where !named.contains(file) {
                    named.append(file)
                }
                let loaded = try pointLoader.load(scenario.file, seed: seed)
                return (loaded, try Self.defaultRttSeconds(pointDocument, file: scenario.file))
            }
        }
        pointValues = grid.isEmpty ? [[]] : values.map { $0.map(\.valueText) }
        inputFingerprints = (named + traces).map { ($0, InputFingerprint.of($0)) }
    }

    /// Number of trace choices (1 when the scenario's network is used).
    public var traceCount: Int { max(traces.count, 1) }
    /// Number of policy choices (1 when the scenario's policies are kept).
    public var policyCount: Int { max(policies.count, 1) }
    /// Number of grid points (1 without a grid).
    public var pointCount: Int { points.count }
    /// Number of runs: traces × grid points × policies.
    public var runCount: Int { traceCount * pointCount * policyCount }

    /// The trace and policy positions of run `index` (trace-major).
    public func coordinates(ofRun index: Int) -> (trace: Int, policy: Int) {
        (index / (pointCount * policyCount), index % policyCount)
    }

    /// The grid point of run `index`.
    public func point(ofRun index: Int) -> Int { (index / policyCount) % pointCount }

    /// The columns the grid adds to `summary.csv` and `segments.csv`: each axis's path as written.
    public var gridColumns: [String] { grid.map(\.path) }

    /// The scenario of run `index`; `trace` is the loaded trace at ``coordinates(ofRun:)``'s position (ignored,
    /// and may be `nil`, when the plan has no traces). With `privateContent` (runs in parallel), its players play
    /// private copies of the content; without, the plan's own (one run at a time: no second copy in memory).
    public func scenario(forRun index: Int, trace: Trace?, privateContent: Bool = true) throws -> Scenario {
        let point = points[point(ofRun: index)]
        var run = point.scenario
        if !seedsFromGrid { run.seed = seed }
        let (_, policy) = coordinates(ofRun: index)
        if !traces.isEmpty, let trace {
            run.network = try NetworkTimeline.build(
                [.trace(trace, seconds: nil, rttSeconds: nil)], defaultRttSeconds: point.rttSeconds, atEnd: .loop)
            run.networkLabel = trace.name
        }
        if privateContent { run.feed = run.feed?.withPrivateContent() }
        if !policies.isEmpty {
            run.feed?.viewer.policy = policies[policy]
            run.feed?.viewer.policyLocation = "--policies"
        }
        // Each run gets its own copy of the content, so parallel runs share no reference-counted object in the
        // hot loop; players that shared content within the scenario still share it (a shared cache keys on it).
        var copies: [ObjectIdentifier: Content] = [:]
        for player in run.players.indices where privateContent {
            let content = run.players[player].content
            let copy = copies[ObjectIdentifier(content), default: content.privateCopy()]
            copies[ObjectIdentifier(content)] = copy
            run.players[player].content = copy
        }
        if !policies.isEmpty {
            for player in run.players.indices {
                run.players[player].policy = policies[policy]
                run.players[player].policyLocation = "--policies"
            }
        }
        return run
    }

    /// The text that identifies this sweep on disk (``SweepStore`` compares it on resume, `merge` across shards):
    /// format version, scenario path and fingerprint, seed, RTT, whether segments are written, the run count,
    /// the shard, a fingerprint of the tables' columns, whether the tables are live and whether chunk rows are
    /// written, every trace and every policy label, one per line, then the
    /// `--set` edits and the grid's axes, then `input FINGERPRINT PATH` for every other file read.
    public func manifest(shard: SweepShard) -> String {
        var lines = [
            "abrsim-sweep 2", "scenario \(scenario.file)", "scenario-fnv1a \(scenarioFingerprint)", "seed \(seed)",
            "rtt-s \(formatCSVNumber(rttSeconds))", "segments \(writesSegments ? "on" : "off")", "runs \(runCount)",
            "order trace-major", "shard \(shard.index)/\(shard.count)",
            // The tables' columns: a folder written by a version with other columns is another sweep.
            "columns-fnv1a "
                + FNV1a64.hex(
                    FNV1a64.hash(
                        Array(
                            (RunTables.summaryColumns + ["|"] + RunTables.segmentColumns).joined(separator: ",").utf8))),
        ]
        // Only live sweeps have this line, so older sweep folders still resume.
        if isLive { lines.append(Self.liveTablesLine) }
        // Only sweeps writing chunk rows have this line, so sweeps of other content keep their manifests.
        if writesChunks { lines.append(Self.chunkTablesLine) }
        // Only feed sweeps have this line (with their tables' columns), so other sweeps keep their manifests.
        if isFeed {
            let columns =
                (RunTables.feedSegments.names + ["|"] + FeedTables.session.names + ["|"] + FeedTables.items.names)
            lines.append(Self.feedTablesPrefix + FNV1a64.hex(FNV1a64.hash(Array(columns.joined(separator: ",").utf8))))
        }
        lines += traces.isEmpty ? ["trace (scenario network: \(scenario.networkLabel))"] : traces.map { "trace \($0)" }
        lines += policies.isEmpty ? ["policy (scenario policies)"] : policies.map { "policy \($0.label)" }
        // Only sweeps with edits or a grid have these lines, so older sweep folders still resume.
        lines += edits.map { "set \($0.pathText)=\($0.valueText)" }
        for axis in grid {
            lines.append(Self.gridAxisPrefix + axis.path)
            lines.append("grid-values " + axis.values.map(\.valueText).joined(separator: "|"))
        }
        lines += inputFingerprints.map { "\(SweepStore.inputPrefix)\($0.fingerprint) \($0.path)" }
        return lines.joined(separator: "\n") + "\n"
    }

    static let gridAxisPrefix = "grid-axis "

    /// The manifest line of a sweep whose tables have the live columns.
    static let liveTablesLine = "tables live"

    /// The manifest line of a sweep that writes `chunks.csv`.
    static let chunkTablesLine = "tables chunks"

    /// Whether the sweep of `manifest` writes `chunks.csv` (what `merge` writes).
    public static func writesChunks(manifest: String) -> Bool {
        manifest.split(separator: "\n").contains { $0 == chunkTablesLine }
    }

    /// The manifest line of a feed sweep starts so, then a fingerprint of its tables' columns.
    static let feedTablesPrefix = "tables feed "

    /// Whether the sweep of `manifest` is of a feed (what `merge` writes).
    public static func isFeed(manifest: String) -> Bool {
        manifest.split(separator: "\n").contains { $0.hasPrefix(feedTablesPrefix) }
    }

    /// The ``SweepTable``s the sweep of `manifest` writes, in `runs.csv`'s order.
    public static func extraTables(manifest: String) -> [SweepTable] {
        (writesChunks(manifest: manifest) ? [.chunks] : []) + (isFeed(manifest: manifest) ? [.feed, .items] : [])
    }

    /// Whether the sweep of `manifest` has the live columns (what `merge` writes).
    public static func isLive(manifest: String) -> Bool {
        manifest.split(separator: "\n").contains { $0 == liveTablesLine }
    }

    /// The grid columns a sweep's manifest records (what `merge` writes as the tables' extra columns).
    public static func gridColumns(manifest: String) -> [String] {
        manifest.split(separator: "\n").filter { $0.hasPrefix(gridAxisPrefix) }.map {
            String($0.dropFirst(gridAxisPrefix.count))
        }
    }

    /// The scenario's `network.rttMs` in seconds (0 when absent, as the scenario decoder reads it).
    public static func defaultRttSeconds(_ document: JSONValue, file: String) throws -> Double {
        let root = try JSONReader(document, file: file).object()
        guard let network = try root.optional("network")?.object(), let rtt = network.optional("rttMs") else {
            return 0
        }
        return try rtt.double(in: ScenarioBounds.rttMs) / 1000
    }
}

/// One axis of a sweep's grid, `--grid PATH=V1|V2|…`: a scenario setting (a ``ScenarioSetting`` path) and the
/// values it takes, each giving its own runs. Values are JSON or bare words as for `--set`; `|` separates them.
public struct SweepGridAxis: Sendable {
    /// The path as written (the name of its column in the outputs).
    public var path: String
    /// One edit per value, in the order given.
    public var values: [ScenarioSetting]

    /// Parses `PATH=V1|V2|…`: at least one value, none empty, none twice.
    public static func parse(_ argument: String) throws -> SweepGridAxis {
        guard let equals = argument.firstIndex(of: "=") else {
            throw InputError(.option("--grid"), .expected("PATH=V1|V2|…", found: "'\(argument)'"))
        }
        let path = String(argument[..<equals])
        let texts = argument[argument.index(after: equals)...].split(separator: "|", omittingEmptySubsequences: false)
            .map(String.init)
        var values: [ScenarioSetting] = []
        for (position, text) in texts.enumerated() {
            guard !text.isEmpty else {
                throw InputError(
                    .option("--grid"),
                    .within(path, .mustBe("value \(position + 1) of \(texts.count)", rule: "non-empty", found: "''")))
            }
            let setting = try ScenarioSetting.parse(path + "=" + text, option: "--grid")
            if values.contains(where: { $0.value == setting.value }) {
                throw InputError(.option("--grid"), .within(path, .duplicate(text, of: "value")))
            }
            values.append(setting)
        }
        return SweepGridAxis(path: path, values: values)
    }

    /// Throws when the axis cannot change a run: a key no run reads (`name`, `description`, `expect`, `tune`),
    /// the network when `--traces` replace it (its `rttMs` excepted), a policy when `--policies` replace every
    /// player's, the seed when `--seed` fixes it.
    public func checkVaries(traces: Bool, policies: Bool, seed: Bool) throws {
        let setting = values[0]
        func refuse(_ why: String) -> InputError {
            InputError(.option("--grid"), .within(path, .changesNothing("this grid axis", because: why)))
        }
        for key in ["name", "description", "expect", "tune"] where setting.touches([key]) {
            throw refuse(key == "name" ? "the name labels the sweep's rows" : "no run reads '\(key)'")
        }
        if traces && setting.touches(["network"]) && !setting.touches(["network", "rttMs"]) {
            throw refuse("--traces replace the scenario's network")
        }
        if policies && setting.touches(["players", "[]", "policy"]) {
            throw refuse("--policies replace every player's policy")
        }
        if seed && setting.touches(["seed"]) { throw refuse("--seed fixes the seed of every run") }
    }
}
