import ABRSim

/// `abrsim compare --profile sabre` and `abrsim sweep --profile sabre`: sabre's model (``SabreBatch``) on every
/// network × policy, in parallel, writing `sabre.csv` (network, movie, abr, options, then sabre's printed names).
/// `sweep` also expands parameter grids (`bola(gp=3..6:1)`) and runs one `--shard K/N`. Policies are sabre ABRs
/// with sabre's flags as parameters (`bola(ao=1,ab=1)`, `bolae(noibr=1)`, `throughput(b=60)`); sabre flags after
/// `--` apply to every policy (`-- -b 60 -noa`).
enum SabreBatchCommand {
    static func spec(sweep: Bool) -> CommandSpec {
        var options: [OptionSpec] = [
            .option("profile", valueName: "NAME", help: "sabre: sabre's own model (MMSys'18), exactly"),
            .option(
                "traces", valueName: "PATH_OR_GLOB", help: "sabre network JSON, folder or glob", isRepeatable: true),
            .option("content", valueName: "PATH", help: "the sabre movie JSON"),
            .option(
                "policies", valueName: "LIST",
                help: "sabre ABRs with sabre flags, e.g. bola,bola(ao=1,ab=1),bolae(noibr=1)", isRepeatable: true),
            .option(
                "out", valueName: "DIR", help: "output folder (default: results/\(sweep ? "sweep" : "compare")-sabre)"),
            .option("jobs", valueName: "N", help: "parallel runs (default: all cores)"),
            forceFlag,
        ]
        if sweep { options.append(.option("shard", valueName: "K/N", help: "run only the K-th of N slices")) }
        return CommandSpec(
            name: sweep ? "abrsim sweep --profile sabre" : "abrsim compare --profile sabre",
            summary: "sabre's model on every network × policy; writes sabre.csv",
            positionals: [PositionalSpec("TRACE", help: "more networks", isOptional: true, isVariadic: true)],
            options: options)
    }

    static func main(_ arguments: [String], sweep: Bool) throws -> Int32 {
        let spec = spec(sweep: sweep)
        let own = Array(arguments.prefix { $0 != "--" })
        let common = Array(arguments.dropFirst(own.count + 1))
        let parsed = try parse(own, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage() + "  -- FLAG...  sabre flags for every policy, e.g. -- -b 60 -noa\n")
            return 0
        }
        let traceArguments = parsed.values("traces") + parsed.positionalValues("TRACE")
        guard !traceArguments.isEmpty else {
            throw InputError(.option("--traces"), .noneGiven("network"))
        }
        guard let movie = parsed.value("content") else {
            throw InputError(.option("--content"), .required())
        }
        var specs: [PolicySpec] = []
        for item in try ListArgument.items(parsed.values("policies"), location: "--policies") {
            specs +=
                sweep
                ? try PolicyGrid.expand(item, source: "--policies") : [try PolicySpec.parse(item, source: "--policies")]
        }
        guard !specs.isEmpty else { throw InputError(.option("--policies"), .noneGiven("policy")) }
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let shard = sweep ? try parsed.value("shard").map { try SweepShard.parse($0) } ?? .whole : .whole
        let networks = try PathExpansion.files(traceArguments)
        let command = sweep ? "sweep" : "compare"
        let out = parsed.value("out") ?? "results/\(command)-sabre"
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: command + "-sabre", subject: movie), force: parsed.flag("force"))
        let start = ContinuousClock.now
        let total = specs.count * networks.count
        let runs = shard == .whole ? nil : (0..<shard.runCount(of: total)).map { shard.globalRun(at: $0) }
        let rows = try SabreBatch.run(
            networks: networks, movie: movie, specs: specs, common: common, runs: runs, jobs: jobs)
        var bundle = OutputBundle()
        bundle.add(name: "sabre.csv", bytes: SabreBatch.csv(rows))
        try folder.commit(bundle)
        writeStandardOutput(
            table(rows)
                + "\(rows.count) sabre runs in \(fixed(secondsElapsed(since: start), 2)) s; wrote \(out)/sabre.csv\n")
        return 0
    }

    /// Per policy: mean time-average bitrate, rebuffer and score over the networks.
    static func table(_ rows: [SabreBatch.Row]) -> String {
        var order: [String] = []
        var groups: [String: [SabreBatch.Row]] = [:]
        for row in rows {
            let key = row.abr + (row.options.isEmpty ? "" : " " + row.options)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        var lines = [["policy", "n", "avg_bitrate_kbps", "rebuffer_s", "rebuffer_events", "score"]]
        for key in order {
            let group = groups[key]!
            func mean(_ name: String, _ digits: Int) -> String {
                let values = group.map { Double($0.result.value(name)!) ?? 0 }
                return fixed(values.reduce(0, +) / Double(values.count), digits)
            }
            lines.append([
                key, String(group.count), mean("time average played bitrate", 0), mean("total rebuffer", 2),
                mean("total rebuffer events", 1), mean("time average score", 3),
            ])
        }
        return alignedColumns(lines)
    }
}
