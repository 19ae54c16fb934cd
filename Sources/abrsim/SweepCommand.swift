import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// `abrsim sweep SCENARIO [--traces PATH_OR_GLOB...] [--policies LIST] [--grid PATH=V1|V2...] [--set PATH=VALUE...]
/// [--jobs N] [--shard K/N] [--out DIR]`: the scenario on every trace with every policy (parameter grids expanded)
/// at every point of the settings grid (each axis's value in its own column), in parallel, resumable, shardable.
/// Writes `summary.csv` and `segments.csv` (and `chunks.csv` for LL-DASH chunked content; `feed.csv` and
/// `items.csv` for a feed scenario, whose `--policies` replace the viewer's) with rows in a fixed order (see
/// ``SweepPlan``, ``SweepStore``). The
/// folder follows ``OutputFolder``'s rule (another output or another sweep: exit 2 unless `--force`). Exit status
/// 1 when every run is written but some had a failed player (counted on stderr), 128 + signal when interrupted.
enum SweepCommand {
    static let spec = CommandSpec(
        name: "abrsim sweep",
        summary: "a scenario on many traces × policies, in parallel; resumable; shardable across machines",
        positionals: [
            PositionalSpec("SCENARIO", help: "scenario file (JSON): content, players, settings"),
            PositionalSpec(
                "TRACE", help: "more trace files (after --traces, as a shell glob expands)", isOptional: true,
                isVariadic: true),
        ],
        options: [
            .option(
                "traces", valueName: "PATH_OR_GLOB",
                help: "trace file, folder or glob replacing the scenario's network (repeatable)", isRepeatable: true),
            .option(
                "policies", valueName: "LIST",
                help: "policies replacing every player's, e.g. bba(reservoir=5..15:5),throughput(safety=0.8|0.9)",
                isRepeatable: true),
            .option("jobs", valueName: "N", help: "parallel runs (default: all cores)"),
            .option("shard", valueName: "K/N", help: "run only the K-th of N slices (runs ≡ K−1 mod N)"),
            .option("out", valueName: "DIR", help: "output folder (default: results/<scenario>-sweep[-K-of-N])"),
            .option("seed", valueName: "N", help: "seed of every run (default: the scenario's)"),
            setOption,
            .option(
                "grid", valueName: "PATH=V1|V2",
                help: "cross a scenario setting's values with the traces and policies, e.g. "
                    + "allocation.strategy=weighted|equal (each a column of the outputs)",
                isRepeatable: true),
            .flag("no-segments", help: "write summary.csv only (no per-segment or chunk rows), for big sweeps"),
            .option("batch", valueName: "N", help: "runs per committed batch (default: about 1 s of work)"),
            .flag("force", help: "replace an output folder holding another sweep or another command's output"),
            .option(
                "profile", valueName: "NAME", help: "sabre or mmgc22: that model instead (see --profile NAME --help)"),
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        if let status = try Profile.runOwnCommand(arguments, sweep: true) { return status }
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        if let profile = parsed.value("profile") {
            throw InputError(.option("--profile"), .unknownName(profile, kind: "profile", known: ["sabre", "mmgc22"]))
        }
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let batch = try parsed.int("batch", in: 1...SweepRunner.maximumBatchRuns)
        let shard = try parsed.value("shard").map { try SweepShard.parse($0) } ?? .whole
        let seed = try parsed.seed()
        let loader = try scenarioLoader(parsed)
        let scenario = try loader.load(parsed.positional("SCENARIO")!, seed: seed)
        let grid = try parsed.values("grid").map(SweepGridAxis.parse)
        let traceArguments = parsed.values("traces") + parsed.positionalValues("TRACE")
        let traces = traceArguments.isEmpty ? [] : try PathExpansion.files(traceArguments)
        var policies: [PolicySpec] = []
        for item in try ListArgument.items(parsed.values("policies"), location: "--policies") {
            policies += try PolicyGrid.expand(item, source: "--policies")
        }
        var plan = try SweepPlan(
            scenario: scenario, traces: traces, policies: policies, seed: seed, grid: grid, loader: loader)
        plan.writesSegments = !parsed.flag("no-segments")
        let runner = SweepRunner(jobs: jobs, batchRuns: batch)
        try runner.validate(plan)

        let defaultOut = "results/\(scenario.name)-sweep" + (shard == .whole ? "" : "-\(shard.index)-of-\(shard.count)")
        let out = parsed.value("out") ?? defaultOut
        let total = shard.runCount(of: plan.runCount)
        let force = parsed.flag("force")
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "sweep", subject: scenario.file), force: force)
        let tables =
            ["summary.csv"] + (plan.writesSegments ? ["segments.csv"] : []) + plan.extraTables.map(\.fileName)
        // The store first: it refuses another sweep's folder before the manifest is touched.
        let store = try SweepStore(
            directory: out, manifest: plan.manifest(shard: shard), runCount: total,
            writesSegments: plan.writesSegments, replacing: force, extraColumns: plan.gridColumns)
        try folder.begin(files: tables, folders: [SweepStore.stateFolder])
        printWarnings(
            SettingWarnings.policies(policies) + SettingWarnings.scenario(scenario, policies: policies),
            command: "abrsim sweep")
        let shape =
            "\(plan.traceCount) trace\(plan.traceCount == 1 ? "" : "s") × \(plan.policyCount) "
            + "polic\(plan.policyCount == 1 ? "y" : "ies")"
            + (grid.isEmpty ? "" : " × \(plan.pointCount) grid point\(plan.pointCount == 1 ? "" : "s")")
            + (shard == .whole ? "" : ", shard \(shard): \(total) of \(plan.runCount) runs")
        let files = tables.joined(separator: ", ")
        if store.isComplete {
            try folder.finish(files: tables, folders: [SweepStore.stateFolder])
            writeStandardOutput("sweep: \(out) is already complete (\(total) runs, \(shape)); nothing to do\n")
            return failureStatus(store, out: out)
        }
        if store.resumedRuns > 0 {
            writeStandardError("sweep: resuming \(out) after \(store.resumedRuns) of \(total) runs\n")
        }
        SweepInterruption.install()
        let showsProgress = isatty(2) == 1
        let start = ContinuousClock.now
        let finished: Bool
        do {
            finished = try runner.run(
                plan, shard: shard, store: store, shouldStop: { SweepInterruption.isRequested },
                progress: { if showsProgress { writeStandardError("\r" + progressLine($0) + "\u{1B}[K") } })
        } catch let error as InputError where store.resumedRuns == 0 {
            // The scenario's error, found while running: every run of it would meet it again, so nothing is kept.
            if showsProgress { writeStandardError("\n") }
            store.discard()
            folder.abandon()
            throw error
        }
        if showsProgress { writeStandardError("\n") }
        guard finished else {
            writeStandardError(
                "sweep: interrupted after \(store.completedRuns) of \(total) runs (all committed); "
                    + "run the same command again to finish\n")
            return 128 + SweepInterruption.signal
        }
        try folder.finish(files: tables, folders: [SweepStore.stateFolder])
        let seconds = secondsElapsed(since: start)
        writeStandardOutput(
            "sweep: \(total - store.resumedRuns) runs (\(shape)) in \(fixed(seconds, 2)) s on \(jobs) "
                + "job\(jobs == 1 ? "" : "s"); wrote \(out)/\(files)\n")
        return failureStatus(store, out: out)
    }

    /// 0 when no run of the complete `store` had a failed player; otherwise says how many on stderr and returns 1
    /// (every run's rows are still written: `final_state` is `failed` in the failed players' rows).
    static func failureStatus(_ store: SweepStore, out: String) -> Int32 {
        failedRunStatus("sweep", failedRuns: store.failedRuns, runs: store.runCount, summary: out + "/summary.csv")
    }

    /// `  512/1136 runs  850.0 runs/s  0:01 left`.
    static func progressLine(_ progress: SweepProgress) -> String {
        var line = "sweep: \(progress.done)/\(progress.total) runs  \(fixed(progress.rate, 1)) runs/s"
        if let left = progress.secondsLeft {
            let seconds = Int(left.rounded(.up))
            let text =
                seconds >= 3600
                ? "\(seconds / 3600):" + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60)
                : "\(seconds / 60):" + twoDigits(seconds % 60)
            line += "  \(text) left"
        }
        return line
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
