import ABRSim

/// `abrsim compare --traces PATH_OR_GLOB... --content PATH --policies a,b,c [--profile NAME] [--segments N]
/// [--baseline NAME] [--out DIR] [--plots DIR] [--jobs N]`: every policy on every trace (one player), in
/// parallel; writes `summary.csv`, `segments.csv` and `stats.csv` (per policy and metric, with paired differences
/// against the baseline policy, default the first), draws CDFs and confidence-interval bars with an `index.html`
/// into the plots folder (default `plots/compare`, or `DIR/plots` with `--out`), and prints per-policy means
/// with 95 % confidence intervals. Runs with a failed player are counted on stderr and make the exit status 1;
/// they are left out of every mean and paired difference (n and the failure count are printed). `--scenario FILE`
/// takes the player's settings, content, RTT, QoE weights and seed from a scenario's player (edited by `--set`);
/// a feed scenario is compared by ``FeedCompareCommand`` instead.
enum CompareCommand {
    static let spec = CommandSpec(
        name: "abrsim compare", summary: "every policy on every trace, with per-policy means and 95 % intervals",
        positionals: [
            PositionalSpec("TRACE", help: "more trace files (after --traces)", isOptional: true, isVariadic: true)
        ],
        options: [
            .option("traces", valueName: "PATH_OR_GLOB", help: "trace file, folder or glob", isRepeatable: true),
            .option(
                "content", valueName: "PATH",
                help: "folder of video_size_N files, or a sabre movie JSON (default with --scenario: its player's)"),
            .option(
                "scenario", valueName: "FILE",
                help: "take the player's settings, content, RTT, QoE weights and seed from this scenario's player"),
            .option("player", valueName: "ID", help: "the scenario's player to take (default: its only player)"),
            setOption,
            .option(
                "policies", valueName: "LIST", help: "comma-separated policies, e.g. bba,robust-mpc", isRepeatable: true
            ),
            .option("profile", valueName: "NAME", help: "model: faithful (default), pensieve, sabre or mmgc22"),
            .option("segments", valueName: "N", help: "play only the first N segments"),
            .option("baseline", valueName: "NAME", help: "policy the paired differences are against (default: first)"),
            .option("out", valueName: "DIR", help: "output folder (default: results/compare)"),
            .option("plots", valueName: "DIR", help: "plots folder (default: plots/compare, or DIR/plots with --out)"),
            .option("jobs", valueName: "N", help: "parallel runs (default: all cores)"),
            .option("seed", valueName: "N", help: "seed of every random stream (default: 1)"),
            .option("rtt-ms", valueName: "MS", help: "RTT per request when a trace has none (default: 80)"),
            .option("forward-buffer", valueName: "S", help: "preferredForwardBufferDuration (default: 0 = 60 s)"),
            forceFlag,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        if let status = try Profile.runOwnCommand(arguments, sweep: false) { return status }
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        if let feed = try FeedCompareCommand.feedScenario(parsed) {
            return try FeedCompareCommand.main(parsed, scenario: feed)
        }
        let traceArguments = parsed.values("traces") + parsed.positionalValues("TRACE")
        guard !traceArguments.isEmpty else {
            throw InputError(.option("--traces"), .noneGiven("trace"))
        }
        let source = try scenarioSource(parsed)
        guard let contentPath = parsed.value("content") ?? source?.scenario.file else {
            throw InputError(.none, .required("--content or --scenario"))
        }
        let (policies, baseline) = try comparedPolicies(parsed)
        var profile = Profile.faithful
        if let name = parsed.value("profile") {
            guard let chosen = Profile(rawValue: name) else {
                throw InputError(
                    .option("--profile"),
                    .unknownName(name, kind: "profile", known: Profile.registry.names))
            }
            profile = chosen
        }
        try profile.definition.checkArguments(scenarioGiven: source != nil)
        let segments = try parsed.int("segments", in: 1...Content.maximumSegmentCount)
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let traces = try PathExpansion.files(traceArguments)
        var content: Content
        if let source, parsed.value("content") == nil {
            content = source.player.content
            if let segments {
                guard segments <= content.segmentCount else {
                    throw InputError(
                        InputPlace(file: source.scenario.file, position: .option("--segments")),
                        .outOfRange(
                            what: "a segment count",
                            bound:
                                "of at most \(content.segmentCount) (the player's content has \(content.segmentCount))",
                            found: "\(segments)"))
                }
                content = try content.prefix(segments: segments)
            }
        } else {
            content = try profile.definition.loadContent(path: contentPath, segments: segments, location: "--content")
        }
        var plan = ComparisonPlan(traces: traces, content: content, policies: policies)
        plan.model = profile
        if let source {
            plan.settings = source.player.settings
            plan.rttSeconds = source.rttSeconds
            plan.qoe = source.scenario.qoe
            plan.seed = source.scenario.seed
        }
        plan.seed = try parsed.seed() ?? plan.seed
        if let rtt = try parsed.double("rtt-ms", in: 0...60_000) {
            plan.rttSeconds = rtt / 1000
        }
        if let buffer = try parsed.double("forward-buffer", in: 0...PlayerSettings.maximumForwardBufferSeconds) {
            plan.settings.preferredForwardBufferDuration = buffer
        }
        if let error = plan.recordMemoryError { throw error }
        let warnings =
            SettingWarnings.policies(policies)
            + profile.definition.settingWarnings(
                plan, place: source.map { "\($0.scenario.file): player \($0.player.id)" } ?? "the compared player")
        let out = parsed.value("out") ?? "results/compare"
        let plots = parsed.value("plots") ?? (parsed.value("out").map { $0 + "/plots" } ?? "plots/compare")
        let force = parsed.flag("force")
        let outFolder = try OutputFolder(
            out, identity: OutputIdentity(command: "compare", subject: contentPath), force: force)
        let plotsFolder = try OutputFolder(
            plots, identity: OutputIdentity(command: "plots", subject: out), force: force,
            option: parsed.value("plots") == nil ? "--out" : "--plots")
        let reports = try Comparison.run(plan, jobs: jobs)
        printWarnings(warnings, command: "abrsim compare")
        let optimumNote =
            policies.contains(where: \.isOfflineOptimum)
            ? try profile.definition.optimumNote(plan, reports: reports, jobs: jobs) : ""
        let live = plan.content.live != nil
        var summary = CSVWriter(columns: RunTables.summaryColumns(live: live))
        for report in reports { RunTables.appendSummary(report, to: &summary, live: live) }
        var bundle = OutputBundle()
        bundle.add(name: "summary.csv", bytes: summary.takeBytes())
        bundle.add(
            name: "segments.csv",
            streaming: RunTables.streamed(RunTables.segmentColumns, 1 << 20) { rows in
                for report in reports { RunTables.appendSegments(report, to: &rows) }
            })
        let chunked = reports.contains(where: \.isChunked)
        if chunked {
            bundle.add(
                name: "chunks.csv",
                streaming: RunTables.streamed(RunTables.placedChunks.names, 1 << 20) { rows in
                    for report in reports { RunTables.appendPlacedChunks(report, to: &rows) }
                })
        }
        let statistics = ComparisonStatistics(ComparisonSamples(reports: reports), baseline: baseline)
        bundle.add(name: "stats.csv", bytes: statistics.csv())
        try outFolder.commit(bundle, folders: ownedSubfolder(plots, of: out))
        let page = PlotPage(command: invokedCommandLine(), resultsLink: PlotPage.relativeLink(from: plots, to: out))
        try plotsFolder.commit(PlotCommand.comparisonBundle(results: out, baseline: baseline, page: page))
        writeStandardOutput(
            table(reports, policies: policies, traceCount: traces.count)
                + optimumNote
                + "wrote \(out)/summary.csv, segments.csv, stats.csv\(chunked ? ", chunks.csv" : "")\nplots: "
                + "\(plots)/index.html\n")
        let failed = reports.filter { !failedPlayers($0).isEmpty }
        if let first = failed.first.flatMap({ failedPlayers($0).first }) {
            writeStandardError("compare: first failure: \(first.reason)\n")
        }
        return failedRunStatus(
            "compare", failedRuns: failed.count, runs: reports.count, summary: out + "/summary.csv")
    }

    /// The `--policies` given (at least one) and the `--baseline` among them (default: the first).
    static func comparedPolicies(_ parsed: ParsedArguments) throws -> (policies: [PolicySpec], baseline: String) {
        let policyValues = parsed.values("policies")
        guard !policyValues.isEmpty else {
            throw InputError(.option("--policies"), .noneGiven("policy"))
        }
        let policies = try ListArgument.items(policyValues, location: "--policies").map {
            try PolicySpec.parse($0, source: "--policies")
        }
        let baseline = parsed.value("baseline") ?? policies[0].label
        guard policies.contains(where: { $0.label == baseline }) else {
            throw InputError(
                .option("--baseline"),
                .unknownName(baseline, kind: "policy", known: policies.map(\.label)))
        }
        return (policies, baseline)
    }

    /// The scenario and player `--scenario` and `--player` name, with its `network.rttMs` (0 when absent).
    static func scenarioSource(_ parsed: ParsedArguments) throws
        -> (scenario: Scenario, player: PlayerDescription, rttSeconds: Double)?
    {
        guard let path = parsed.value("scenario") else {
            if !parsed.values("set").isEmpty {
                throw InputError(
                    .option("--set"), .missingPrerequisite(nil, needs: "--scenario FILE", reason: "it edits a scenario")
                )
            }
            if let id = parsed.value("player") {
                throw InputError(
                    .option("--player"),
                    .missingPrerequisite(nil, needs: "--scenario FILE", reason: "'\(id)' names a scenario's player"))
            }
            return nil
        }
        let loader = try scenarioLoader(parsed)
        let scenario = try loader.load(path)
        let player: PlayerDescription
        if let id = parsed.value("player") {
            guard let chosen = scenario.players.first(where: { $0.id == id }) else {
                throw InputError(
                    InputPlace(file: path, position: .option("--player")),
                    .unknownName(id, kind: "player", known: scenario.players.map(\.id)))
            }
            player = chosen
        } else {
            guard scenario.players.count == 1 else {
                throw InputError(
                    .jsonPath(path, "$.players"),
                    .missingPrerequisite(
                        nil, needs: "--player ID to choose one of its \(scenario.players.count) players",
                        reason: scenario.players.map(\.id).joined(separator: ", ")))
            }
            player = scenario.players[0]
        }
        let rtt = try SweepPlan.defaultRttSeconds(loader.document(path), file: path)
        return (scenario, player, rtt)
    }

    /// Per-policy means with 95 % confidence intervals over the runs that did not fail: n is their number,
    /// `failed` the runs left out; an interval over fewer than two values is `n/a`.
    static func table(_ reports: [RunReport], policies: [PolicySpec], traceCount: Int) -> String {
        let samples = ComparisonSamples(reports: reports)
        var text =
            "\(Set(policies.map(\.label)).count) policies × \(traceCount) traces (mean ± 95 % CI half-width; failed runs left out)\n"
        var rows = [["policy", "n", "failed", "qoe_lin", "avg_bitrate_kbps", "stall_s", "switches"]]
        var listed: Set<String> = []
        for spec in policies where listed.insert(spec.label).inserted {
            rows.append(
                [
                    spec.label, String(samples.values("qoe_lin", policy: spec.label).count),
                    String(samples.failureCount(spec.label)),
                ]
                    + [("qoe_lin", 2), ("avg_bitrate_kbps", 0), ("stall_s", 2), ("switch_count", 1)].map {
                        meanCell(samples.values($0.0, policy: spec.label), digits: $0.1)
                    })
        }
        // With the offline optimum among the policies: each policy's total QoE over the optimum's, on the traces
        // where neither failed.
        if let optimal = policies.first(where: \.isOfflineOptimum)?.label {
            rows[0].append("share_of_optimal")
            for row in rows.indices.dropFirst() {
                let pairs = samples.pairedValues("qoe_lin", policy: rows[row][0], baseline: optimal)
                let best = pairs.reduce(0.0) { $0 + $1.baseline }
                let total = pairs.reduce(0.0) { $0 + $1.value }
                rows[row].append(best > 0 && !pairs.isEmpty ? fixed(100 * total / best, 1) + " %" : "n/a")
            }
        }
        return text + aligned(rows)
    }

    /// `rows` (the header first) as aligned text: the first column padded on the right, the others on the left.
    static func aligned(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            text +=
                row.enumerated().map { column, cell in
                    column == 0 ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
                }.joined(separator: "  ") + "\n"
        }
        return text
    }

    /// `mean ± half-width`; `mean ± n/a` for one value, `n/a` for none.
    static func meanCell(_ values: [Double], digits: Int) -> String {
        guard !values.isEmpty else { return "n/a" }
        let stats = SampleStatistics(values)
        return fixed(stats.mean, digits) + " ± "
            + (stats.count < 2 ? "n/a" : fixed(stats.confidenceHalfWidth95, digits))
    }
}
