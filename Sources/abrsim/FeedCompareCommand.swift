import ABRSim

/// `abrsim compare --scenario FEED --policies a,b [--traces PATH_OR_GLOB...] [--set PATH=VALUE...] [--seed N]
/// [--rtt-ms MS] [--baseline NAME] [--jobs N] [--out DIR]` on a feed scenario (`docs/feed.md`): the feed under every
/// policy (as the viewer's ABR policy) on its own network or on every trace, in parallel. Writes `feed.csv` and
/// `items.csv` (one run's rows after another, policy-major) and `stats.csv` over the `feed.csv` metrics, and prints
/// per-policy means with 95 % confidence intervals. Called by ``CompareCommand`` when `--scenario` is a feed.
enum FeedCompareCommand {
    /// The feed scenario `--scenario` names (edited by `--set`, with `--seed`), or `nil` when none is given or it
    /// has no `feed` key.
    static func feedScenario(_ parsed: ParsedArguments) throws -> Scenario? {
        guard let path = parsed.value("scenario") else { return nil }
        let loader = try scenarioLoader(parsed)
        guard case .object(let root) = try loader.document(path), root["feed"] != nil else { return nil }
        return try loader.load(path, seed: try parsed.seed())
    }

    static func main(_ parsed: ParsedArguments, scenario: Scenario) throws -> Int32 {
        for option in ["content", "player", "profile", "segments", "forward-buffer"] where parsed.value(option) != nil {
            throw InputError(
                InputPlace(file: scenario.file, position: InputPlace.Position(text: "--\(option)")),
                .notApplicable(
                    nil, onlyFor: nil, here: "a feed scenario", hint: "set the feed's keys with --set: docs/feed.md"))
        }
        let (policies, baseline) = try CompareCommand.comparedPolicies(parsed)
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let traceArguments = parsed.values("traces") + parsed.positionalValues("TRACE")
        let traces = traceArguments.isEmpty ? [] : try PathExpansion.files(traceArguments)
        let loader = try scenarioLoader(parsed)
        var rtt = try SweepPlan.defaultRttSeconds(loader.document(scenario.file), file: scenario.file)
        if let milliseconds = try parsed.double("rtt-ms", in: 0...60_000) { rtt = milliseconds / 1000 }
        let plan = FeedComparisonPlan(
            scenario: scenario, policies: policies, traces: traces, rttSeconds: rtt, seed: try parsed.seed())
        let out = parsed.value("out") ?? "results/compare"
        let outFolder = try OutputFolder(
            out, identity: OutputIdentity(command: "compare", subject: scenario.file), force: parsed.flag("force"))
        let reports = try FeedComparison.run(plan, jobs: jobs)
        printWarnings(SettingWarnings.policies(policies), command: "abrsim compare")
        let samples = FeedComparison.samples(reports)
        var bundle = OutputBundle()
        bundle.add(name: "feed.csv", bytes: FeedComparison.sessionTable(reports))
        bundle.add(name: "items.csv", bytes: FeedComparison.itemTable(reports))
        bundle.add(name: "stats.csv", bytes: ComparisonStatistics(samples, baseline: baseline).csv())
        try outFolder.commit(bundle)
        writeStandardOutput(
            table(samples, policies: policies, traceCount: plan.traceCount)
                + "wrote \(out)/feed.csv, items.csv, stats.csv\n")
        let failed = reports.filter { !failedPlayers($0).isEmpty }
        if let first = failed.first.flatMap({ failedPlayers($0).first }) {
            writeStandardError("compare: first failure: \(first.reason)\n")
        }
        return failedRunStatus("compare", failedRuns: failed.count, runs: reports.count, summary: out + "/feed.csv")
    }

    /// Per-policy means with 95 % confidence intervals of the feed's headline metrics over the runs that did not fail.
    static func table(_ samples: ComparisonSamples, policies: [PolicySpec], traceCount: Int) -> String {
        let metrics = [
            ("startup_mean_s", 3), ("stall_s", 2), ("wasted_bytes", 0), ("download_watch_ratio", 3),
            ("score", 2),
        ]
        var rows = [["policy", "n", "failed"] + metrics.map(\.0)]
        var listed: Set<String> = []
        for spec in policies where listed.insert(spec.label).inserted {
            rows.append(
                [
                    spec.label, String(samples.values("score", policy: spec.label).count),
                    String(samples.failureCount(spec.label)),
                ]
                    + metrics.map { CompareCommand.meanCell(samples.values($0.0, policy: spec.label), digits: $0.1) })
        }
        return "\(listed.count) policies × \(traceCount) network\(traceCount == 1 ? "" : "s") of a feed "
            + "(mean ± 95 % CI half-width; failed runs left out)\n" + CompareCommand.aligned(rows)
    }
}
