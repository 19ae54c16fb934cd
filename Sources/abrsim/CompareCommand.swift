import ABRSim

/// `abrsim compare --traces PATH_OR_GLOB... --content PATH --policies a,b,c [--profile NAME] [--segments N]
/// [--baseline NAME] [--out DIR] [--plots DIR] [--jobs N]`: every policy on every trace (one player), in
/// parallel; writes `summary.csv`, `segments.csv` and `stats.csv` (per policy and metric, with paired differences
/// against the baseline policy, default the first), draws CDFs and confidence-interval bars with an `index.html`
/// into the plots folder (default `plots/compare`, or `DIR/plots` with `--out`), and prints per-policy means
/// with 95 % confidence intervals. Runs with a failed player are counted on stderr and make the exit status 1.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "abrsim compare", summary: "every policy on every trace, with per-policy means and 95 % intervals",
        positionals: [
            PositionalSpec("TRACE", help: "more trace files (after --traces)", isOptional: true, isVariadic: true)
        ],
        options: [
            .option("traces", valueName: "PATH_OR_GLOB", help: "trace file, folder or glob", isRepeatable: true),
            .option("content", valueName: "PATH", help: "folder of video_size_N files, or a sabre movie JSON"),
            .option(
                "policies", valueName: "LIST", help: "comma-separated policies, e.g. bba,robust-mpc", isRepeatable: true
            ),
            .option("profile", valueName: "NAME", help: "model: faithful (default), pensieve or sabre"),
            .option("segments", valueName: "N", help: "play only the first N segments"),
            .option("baseline", valueName: "NAME", help: "policy the paired differences are against (default: first)"),
            .option("out", valueName: "DIR", help: "output folder (default: results/compare)"),
            .option("plots", valueName: "DIR", help: "plots folder (default: plots/compare, or DIR/plots with --out)"),
            .option("jobs", valueName: "N", help: "parallel runs (default: all cores)"),
            .option("rtt-ms", valueName: "MS", help: "RTT per request when a trace has none (default: 80)"),
            .option("forward-buffer", valueName: "S", help: "preferredForwardBufferDuration (default: 0 = 60 s)"),
            forceFlag,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        if SabreBatchCommand.isRequested(arguments) { return try SabreBatchCommand.main(arguments, sweep: false) }
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let traceArguments = parsed.values("traces") + parsed.positionalValues("TRACE")
        guard !traceArguments.isEmpty else { throw InputError(location: "--traces", "give at least one trace") }
        guard let contentPath = parsed.value("content") else { throw InputError(location: "--content", "is required") }
        let policyText = parsed.values("policies").joined(separator: ",")
        guard !policyText.isEmpty else { throw InputError(location: "--policies", "give at least one policy") }
        let policies = try splitPolicyList(policyText).map { try PolicySpec.parse($0, source: "--policies") }
        let baseline = parsed.value("baseline") ?? policies[0].label
        guard policies.contains(where: { $0.label == baseline }) else {
            throw InputError(
                location: "--baseline",
                "'\(baseline)' is not one of the policies (\(policies.map(\.label).joined(separator: ", ")))")
        }
        var model = ComparisonPlan.Model.faithful
        if let name = parsed.value("profile") {
            guard let chosen = ComparisonPlan.Model(rawValue: name) else {
                throw InputError(location: "--profile", "unknown profile '\(name)' (known: faithful, pensieve, sabre)")
            }
            model = chosen
        }
        let segments = try parsed.int("segments")
        if let count = segments, count < 1 { throw InputError(location: "--segments", "must be at least 1") }
        let jobs = try parsed.int("jobs") ?? availableCores
        guard jobs >= 1 else { throw InputError(location: "--jobs", "must be at least 1") }
        let traces = try PathExpansion.files(traceArguments)
        let content: Content
        if model == .pensieve {
            guard InputFile.isDirectory(contentPath) else {
                throw InputError(
                    file: contentPath, location: "--content",
                    "the pensieve profile needs a folder of video_size_N files")
            }
            content = try PensieveProfile.loadContent(folder: contentPath)
        } else {
            content = try ContentSource.load(contentPath, segments: segments)
        }
        var plan = ComparisonPlan(traces: traces, content: content, policies: policies)
        plan.model = model
        if let rtt = try parsed.double("rtt-ms") {
            guard rtt >= 0 else { throw InputError(location: "--rtt-ms", "must be ≥ 0") }
            plan.rttSeconds = rtt / 1000
        }
        if let buffer = try parsed.double("forward-buffer") {
            guard buffer >= 0 else { throw InputError(location: "--forward-buffer", "must be ≥ 0") }
            plan.settings.preferredForwardBufferDuration = buffer
        }
        let out = parsed.value("out") ?? "results/compare"
        let plots = parsed.value("plots") ?? (parsed.value("out").map { $0 + "/plots" } ?? "plots/compare")
        let force = parsed.flag("force")
        let outFolder = try OutputFolder(
            out, identity: OutputIdentity(command: "compare", subject: contentPath), force: force)
        let plotsFolder = try OutputFolder(
            plots, identity: OutputIdentity(command: "plots", subject: out), force: force,
            option: parsed.value("plots") == nil ? "--out" : "--plots")
        let reports = try Comparison.run(plan, jobs: jobs)
        var summary = CSVWriter(columns: RunTables.summaryColumns)
        var segmentRows = CSVWriter(columns: RunTables.segmentColumns)
        for report in reports {
            RunTables.appendSummary(report, to: &summary)
            RunTables.appendSegments(report, to: &segmentRows)
        }
        var bundle = OutputBundle()
        bundle.add(name: "summary.csv", bytes: summary.takeBytes())
        bundle.add(name: "segments.csv", bytes: segmentRows.takeBytes())
        let statistics = ComparisonStatistics(ComparisonSamples(reports: reports), baseline: baseline)
        bundle.add(name: "stats.csv", bytes: statistics.csv())
        try outFolder.commit(bundle, folders: ownedSubfolder(plots, of: out))
        try plotsFolder.commit(PlotCommand.comparisonBundle(results: out))
        writeStandardOutput(
            table(reports, policies: policies, traceCount: traces.count)
                + "wrote \(out)/summary.csv, segments.csv, stats.csv\nplots: \(plots)/index.html\n")
        let failed = reports.filter { !failedPlayers($0).isEmpty }
        if let first = failed.first.flatMap({ failedPlayers($0).first }) {
            writeStandardError("compare: first failure: \(first.reason)\n")
        }
        return failedRunStatus(
            "compare", failedRuns: failed.count, runs: reports.count, summary: out + "/summary.csv")
    }

    /// Per-policy means with 95 % confidence intervals.
    static func table(_ reports: [RunReport], policies: [PolicySpec], traceCount: Int) -> String {
        var text = "\(policies.count) policies × \(traceCount) traces (mean ± 95 % CI half-width)\n"
        var rows = [["policy", "n", "qoe_lin", "avg_bitrate_kbps", "stall_s", "switches"]]
        for (position, spec) in policies.enumerated() {
            let slice = reports[(position * traceCount)..<((position + 1) * traceCount)].map { $0.players[0].summary }
            func cell(_ values: [Double], _ digits: Int) -> String {
                let stats = SampleStatistics(values)
                return fixed(stats.mean, digits) + " ± " + fixed(stats.confidenceHalfWidth95, digits)
            }
            rows.append([
                spec.label, String(slice.count), cell(slice.map(\.qoeLinear), 2),
                cell(slice.map(\.averageBitrateKbps), 0),
                cell(slice.map(\.stallSeconds), 2), cell(slice.map { Double($0.switchCount) }, 1),
            ])
        }
        // With the offline optimum among the policies: each policy's total QoE over the optimum's.
        if let optimal = policies.firstIndex(where: { $0.name == "optimal" }) {
            let best = reports[(optimal * traceCount)..<((optimal + 1) * traceCount)].reduce(0.0) {
                $0 + $1.players[0].summary.qoeLinear
            }
            rows[0].append("share_of_optimal")
            for position in policies.indices {
                let total = reports[(position * traceCount)..<((position + 1) * traceCount)].reduce(0.0) {
                    $0 + $1.players[0].summary.qoeLinear
                }
                rows[position + 1].append(best > 0 ? fixed(100 * total / best, 1) + " %" : "-")
            }
        }
        let header = rows[0]
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            text +=
                row.enumerated().map { column, cell in
                    column == 0 ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
                }.joined(separator: "  ") + "\n"
        }
        return text
    }
}

/// Splits a policy list at commas outside parentheses (`bba(reservoir=5,cushion=10),throughput`).
func splitPolicyList(_ list: String) -> [String] {
    var items: [String] = []
    var current = ""
    var depth = 0
    for character in list {
        if character == "(" { depth += 1 }
        if character == ")" { depth -= 1 }
        if character == "," && depth == 0 {
            if !current.isEmpty { items.append(current) }
            current = ""
        } else {
            current.append(character)
        }
    }
    if !current.isEmpty { items.append(current) }
    return items
}
