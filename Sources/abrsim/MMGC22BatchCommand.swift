import ABRSim

/// `abrsim compare --profile mmgc22` and `abrsim sweep --profile mmgc22`: the MM'22 challenge's simulator
/// (``MMGC22Batch``) on every algorithm × trace family × trace × user of a data folder, in parallel, writing
/// `sessions.csv` (one row per session) and `stats.csv` (per algorithm, the distribution of every figure and the
/// paired difference against the first algorithm). `sweep` also runs one `--shard K/N`. Outputs do not depend on
/// `--jobs`.
enum MMGC22BatchCommand {
    static func spec(sweep: Bool) -> CommandSpec {
        let command = sweep ? "sweep" : "compare"
        var options: [OptionSpec] = [
            .option("profile", valueName: "NAME", help: "mmgc22: the MM'22 short-video challenge's simulator, exactly"),
            .option(
                "data", valueName: "DIR",
                help: "the challenge's data folder (network_traces, short_video_size, user_ret)"),
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
            options: options)
    }

    static func main(_ arguments: [String], sweep: Bool) throws -> Int32 {
        let spec = spec(sweep: sweep)
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        guard let dataFolder = parsed.value("data") else {
            throw InputError(.option("--data"), .invalid("is required"))
        }
        let algorithmNames =
            parsed.values("policies").isEmpty
            ? [MMGC22Algorithm.noSave.rawValue, MMGC22Algorithm.fixedPreload.rawValue]
            : try ListArgument.items(parsed.values("policies"), location: "--policies")
        let algorithms = try algorithmNames.map { name in
            guard let algorithm = MMGC22Algorithm(rawValue: name) else {
                throw InputError(
                    .option("--policies"),
                    .invalid(
                        "unknown algorithm '\(name)' (known: \(MMGC22Algorithm.allCases.map(\.rawValue).joined(separator: ", ")))"
                    ))
            }
            return algorithm
        }
        let families =
            try parsed.value("families").map { try ListArgument.items($0, location: "--families") }
            ?? MMGC22Run.families
        let traces = try parsed.value("traces").map { try indices($0, location: "--traces", limit: Int.max) }
        let users = try (parsed.value("users").map { try ListArgument.items($0, location: "--users") } ?? ["default"])
            .flatMap { item -> [MMGC22Run.User] in
                item == "default"
                    ? [.defaultUser]
                    : try indices(item, location: "--users", limit: MMGC22Users.sampleSeedCount).map { .sample($0) }
            }
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
        var bundle = OutputBundle()
        bundle.add(name: "sessions.csv", bytes: MMGC22Batch.sessionsCSV(rows))
        if let statistics = MMGC22Batch.statistics(rows) { bundle.add(name: "stats.csv", bytes: statistics.csv()) }
        try folder.commit(bundle)
        writeStandardOutput(
            table(rows)
                + "\(rows.count) mmgc22 sessions in \(fixed(secondsElapsed(since: start), 2)) s; wrote \(out)/sessions.csv and stats.csv\n"
        )
        return 0
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
                    .invalid(
                        "'\(item)' is not an index or a range low-high of indices ≥ 0\(limit == Int.max ? "" : " and < \(limit)")"
                    ))
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
