import ABRSim

/// `abrsim compare --profile mmgc22` and `abrsim sweep --profile mmgc22`: the MM'22 challenge's simulator
/// (``MMGC22Batch``) on every algorithm × trace family × trace × user of a data folder, in parallel, writing
/// `sessions.csv` (one row per session) and `stats.csv` (per algorithm, the distribution of every figure and the
/// paired difference against the first algorithm). `sweep` also runs one `--shard K/N`. Outputs do not depend on
/// `--jobs`. Given a feed scenario (`SCENARIO` or `--scenario`, ``MMGC22ScenarioFeed``) instead of `--data`, every
/// algorithm × user on that feed expressed in the challenge's model.
enum MMGC22BatchCommand {
    static func spec(sweep: Bool) -> CommandSpec {
        let command = sweep ? "sweep" : "compare"
        var options: [OptionSpec] = [
            .option("profile", valueName: "NAME", help: "mmgc22: the MM'22 short-video challenge's simulator, exactly"),
            .option(
                "data", valueName: "DIR",
                help: "the challenge's data folder (network_traces, short_video_size, user_ret)"),
            .option(
                "scenario", valueName: "PATH",
                help: "a feed scenario (JSON) in the challenge's model instead of --data (docs/mmgc22-profile.md)"),
            setOption,
            .option(
                "policies", valueName: "LIST",
                help: "the challenge's algorithms: no_save, fixed_preload, solution (default no_save,fixed_preload)",
                isRepeatable: true),
            .option("families", valueName: "LIST", help: "trace families (default high,low,medium,mixed)"),
            .option("traces", valueName: "LIST", help: "trace indices and ranges, e.g. 0-4,7 (default: every trace)"),
            .option(
                "users", valueName: "LIST",
                help: "users: default (run.py's) and test_user_samples' samples, e.g. default,0-11 (default: default)"),
            .option("clips", valueName: "N", help: "N clips per session, cycling the data's (users drawn for N)"),
            .option("out", valueName: "DIR", help: "output folder (default: results/\(command)-mmgc22)"),
            .option("jobs", valueName: "N", help: "parallel sessions (default: all cores)"),
            forceFlag,
        ]
        if sweep { options.append(.option("shard", valueName: "K/N", help: "run only the K-th of N slices")) }
        return CommandSpec(
            name: "abrsim \(command) --profile mmgc22",
            summary: "the MM'22 challenge's simulator on every algorithm × family × trace × user; writes sessions.csv",
            positionals: [PositionalSpec("SCENARIO", help: "a feed scenario (as --scenario)", isOptional: true)],
            options: options)
    }

    static func main(_ arguments: [String], sweep: Bool) throws -> Int32 {
        let spec = spec(sweep: sweep)
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let scenarioPath = parsed.positional("SCENARIO") ?? parsed.value("scenario")
        if let scenarioPath { return try scenarioMain(parsed, path: scenarioPath, sweep: sweep) }
        guard let dataFolder = parsed.value("data") else {
            throw InputError(.none, .required("--data or a feed scenario"))
        }
        if !parsed.values("set").isEmpty {
            throw InputError(.option("--set"), .missingPrerequisite(nil, needs: "a feed scenario"))
        }
        let algorithms = try algorithms(parsed)
        let families =
            try parsed.value("families").map { try ListArgument.items($0, location: "--families") }
            ?? MMGC22Run.families
        let traces = try parsed.value("traces").map { try indices($0, location: "--traces", limit: Int.max) }
        let users = try users(parsed)
        let clipCount = try parsed.int("clips", in: 1...10_000_000)
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let shard = sweep ? try parsed.value("shard").map { try SweepShard.parse($0) } ?? .whole : .whole
        let command = sweep ? "sweep" : "compare"
        let out = parsed.value("out") ?? "results/\(command)-mmgc22"
        let batch = MMGC22Batch(
            dataFolder: dataFolder, algorithms: algorithms, families: families, traceIndices: traces, users: users,
            clipCount: clipCount)
        let data = try MMGC22Data(folder: dataFolder)
        let all = try batch.sessions(data: data)
        let chosen = (0..<shard.runCount(of: all.count)).map { all[shard.globalRun(at: $0)] }
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: command + "-mmgc22", subject: dataFolder),
            force: parsed.flag("force"))
        let start = ContinuousClock.now
        let rows = try batch.run(data: data, sessions: chosen, jobs: jobs)
        return try write(rows, to: folder, out: out, since: start)
    }

    /// Commits `sessions.csv` and `stats.csv` of `rows` to `folder` and prints the per-algorithm table and what was
    /// written (the sessions `of` a scenario file, when given).
    static func write(
        _ rows: [MMGC22Batch.Row], to folder: OutputFolder, out: String, since start: ContinuousClock.Instant,
        of scenario: String? = nil
    ) throws -> Int32 {
        var bundle = OutputBundle()
        bundle.add(name: "sessions.csv", bytes: MMGC22Batch.sessionsCSV(rows))
        if let statistics = MMGC22Batch.statistics(rows) { bundle.add(name: "stats.csv", bytes: statistics.csv()) }
        try folder.commit(bundle)
        writeStandardOutput(
            table(rows) + "\(rows.count) mmgc22 sessions" + (scenario.map { " of \($0)" } ?? "")
                + " in \(fixed(secondsElapsed(since: start), 2)) s; wrote \(out)/sessions.csv and stats.csv\n")
        return 0
    }

    /// `--policies` (default `fallback`, else no_save and fixed_preload).
    static func algorithms(_ parsed: ParsedArguments, fallback: MMGC22Algorithm? = nil) throws -> [MMGC22Algorithm] {
        let algorithmNames =
            parsed.values("policies").isEmpty
            ? (fallback.map { [$0.rawValue] } ?? [
                MMGC22Algorithm.noSave.rawValue, MMGC22Algorithm.fixedPreload.rawValue,
            ])
            : try ListArgument.items(parsed.values("policies"), location: "--policies")
        return try algorithmNames.map { name in
            guard let algorithm = MMGC22Algorithm(rawValue: name) else {
                throw InputError(
                    .option("--policies"),
                    .unknownName(name, kind: "algorithm", known: MMGC22Algorithm.allCases.map(\.rawValue)))
            }
            return algorithm
        }
    }

    /// `--users` (default: run.py's user).
    static func users(_ parsed: ParsedArguments) throws -> [MMGC22Run.User] {
        try (parsed.value("users").map { try ListArgument.items($0, location: "--users") } ?? ["default"])
            .flatMap { item -> [MMGC22Run.User] in
                item == "default"
                    ? [.defaultUser]
                    : try indices(item, location: "--users", limit: MMGC22Users.sampleSeedCount).map { .sample($0) }
            }
    }

    /// A feed scenario in the challenge's model: every algorithm (default: the scenario's preload policy when it
    /// is one of the challenge's, else no_save and fixed_preload) × user (one session per algorithm for fixed
    /// watch times), as rows of `sessions.csv` with the trace's name as the family and trace 0.
    static func scenarioMain(_ parsed: ParsedArguments, path: String, sweep: Bool) throws -> Int32 {
        for option in ["data", "families", "traces", "clips"] where parsed.value(option) != nil {
            throw InputError(
                InputPlace(file: path, position: InputPlace.Position(text: "--\(option)")),
                .notApplicable(nil, onlyFor: nil, here: "a feed scenario", hint: "its items and network are the feed's")
            )
        }
        let loader = try scenarioLoader(parsed)
        let document = try loader.document(path)
        let scenario = try loader.load(path, seed: nil)
        let feed = try MMGC22ScenarioFeed(scenario: scenario, document: document)
        let algorithms = try algorithms(parsed, fallback: feed.algorithm)
        let users: [(MMGC22Run.User, String?)] =
            feed.watchMilliseconds == nil ? try users(parsed).map { ($0, nil) } : [(.defaultUser, "fixed")]
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let shard = sweep ? try parsed.value("shard").map { try SweepShard.parse($0) } ?? .whole : .whole
        let command = sweep ? "sweep" : "compare"
        let out = parsed.value("out") ?? "results/\(command)-mmgc22"
        var all: [MMGC22Batch.Session] = []
        for algorithm in algorithms {
            for (user, label) in users {
                all.append(
                    MMGC22Batch.Session(
                        algorithm: algorithm, family: feed.trace.name, traceIndex: 0, user: user, watchLabel: label))
            }
        }
        let chosen = (0..<shard.runCount(of: all.count)).map { all[shard.globalRun(at: $0)] }
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: command + "-mmgc22", subject: scenario.file),
            force: parsed.flag("force"))
        let start = ContinuousClock.now
        let rows = try parallelMap(count: chosen.count, jobs: jobs) { index in
            let session = chosen[index]
            return MMGC22Batch.Row(
                session: session, result: try feed.feed(user: session.user).run(algorithm: session.algorithm))
        }
        return try write(rows, to: folder, out: out, since: start, of: scenario.file)
    }

    /// `0-4,7`-style indices (each in 0..<`limit`), in the order given.
    static func indices(_ text: String, location: String, limit: Int) throws -> [Int] {
        try ListArgument.items(text, location: location).flatMap { item -> [Int] in
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
                Int(String($0))
            }
            guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, low >= 0, low <= high, high < limit
            else {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: location)),
                    .isNot(
                        "an index or a range low-high of indices ≥ 0\(limit == Int.max ? "" : " and < \(limit)")",
                        subject: nil, found: "'\(item)'"))
            }
            return Array(low...high)
        }
    }

    /// Per algorithm: sessions, mean score, QoE, MB downloaded and wasted, and download/watch ratio.
    static func table(_ rows: [MMGC22Batch.Row]) -> String {
        var order: [MMGC22Algorithm] = []
        for row in rows where !order.contains(row.session.algorithm) { order.append(row.session.algorithm) }
        var lines = [["algorithm", "n", "score", "qoe", "bandwidth_mb", "wasted_mb", "download_watch_ratio"]]
        for algorithm in order {
            let group = rows.filter { $0.session.algorithm == algorithm }.map(\.result)
            func mean(_ value: (MMGC22SessionResult) -> Double, _ digits: Int) -> String {
                fixed(group.map(value).reduce(0, +) / Double(group.count), digits)
            }
            lines.append([
                algorithm.rawValue, String(group.count), mean(\.score, 3), mean(\.qoe, 3),
                mean({ $0.bandwidthUsageBytes / 1e6 }, 3), mean({ $0.wastedBytes / 1e6 }, 3),
                mean(\.downloadWatchRatio, 4),
            ])
        }
        return alignedColumns(lines)
    }
}
