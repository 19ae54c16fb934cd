/// A feed scenario (`docs/feed.md`) under several ABR policies, on its own network or on each of several traces
/// replacing it: what `abrsim compare --scenario FEED` runs. One run per (policy, trace), policy-major as
/// ``Comparison`` orders them; each run is the feed with its viewer's policy replaced, with the plan's seed.
public struct FeedComparisonPlan: Sendable {
    /// The feed scenario every run starts from (with its `--set` edits applied).
    public var scenario: Scenario
    /// The viewer's policies, in run order.
    public var policies: [PolicySpec]
    /// Trace files replacing the scenario's network (looping at their end), in run order; empty: its own network.
    public var traces: [String]
    /// RTT in seconds of trace networks whose trace carries no latency.
    public var rttSeconds: Double
    /// The seed of every run (the swipe draws and the policies' streams).
    public var seed: UInt64

    /// A plan over the feed `scenario`; `seed` defaults to the scenario's.
    public init(
        scenario: Scenario, policies: [PolicySpec], traces: [String] = [], rttSeconds: Double = 0,
        seed: UInt64? = nil
    ) {
        self.scenario = scenario
        self.policies = policies
        self.traces = traces
        self.rttSeconds = rttSeconds
        self.seed = seed ?? scenario.seed
    }

    /// Number of trace choices (1 on the scenario's own network).
    public var traceCount: Int { max(traces.count, 1) }
    /// Number of runs: policies × traces.
    public var runCount: Int { policies.count * traceCount }

    /// The scenario of run `index` (policy `index / traceCount`, trace `index % traceCount`); `trace` is that
    /// trace, loaded (ignored without traces).
    public func scenario(forRun index: Int, trace: Trace?) throws -> Scenario {
        var run = scenario
        run.seed = seed
        if !traces.isEmpty, let trace {
            run.network = try NetworkTimeline.build(
                [.trace(trace, seconds: nil, rttSeconds: nil)], defaultRttSeconds: rttSeconds, atEnd: .loop)
            run.networkLabel = trace.name
        }
        run.feed = run.feed?.withPrivateContent()
        run.feed?.viewer.policy = policies[index / traceCount]
        run.feed?.viewer.policyLocation = "--policies"
        return run
    }
}

/// Runs a ``FeedComparisonPlan`` and tabulates its runs: `feed.csv` and `items.csv` with one run's rows after
/// another, and the per-policy samples of the `feed.csv` metrics that `stats.csv` summarises.
public enum FeedComparison {
    /// The report of every run of `plan`, in run order, on up to `jobs` threads (the same whatever `jobs`).
    public static func run(_ plan: FeedComparisonPlan, registry: PolicyRegistry = .builtIn, jobs: Int) throws
        -> [RunReport]
    {
        guard let feed = plan.scenario.feed else {
            throw InputError(.jsonPath(plan.scenario.file, "$.feed"), .required("a feed, for a feed comparison,"))
        }
        for spec in plan.policies {
            try registry.validate(spec, location: "--policies", content: feed.items[0].content)
        }
        let traces = try parallelMap(count: plan.traces.count, jobs: jobs) {
            try TraceReader.readForRuns(path: plan.traces[$0])
        }
        return try parallelMap(count: plan.runCount, jobs: jobs) { index in
            let trace = traces.isEmpty ? nil : traces[index % plan.traceCount]
            let scenario = try plan.scenario(forRun: index, trace: trace)
            return try ScenarioRunner(registry: registry).run(
                scenario, seed: plan.seed, recordsTimeline: false, keepsSegmentRecords: true)
        }
    }

    /// `feed.csv` of `reports`: each run's session row, in order.
    public static func sessionTable(_ reports: [RunReport]) -> [UInt8] {
        var writer = FeedTables.session.writer()
        for report in reports {
            guard let feed = report.feed else { continue }
            FeedTables.session.append(FeedTables.sessionRow(report, feed), to: &writer)
        }
        return writer.takeBytes()
    }

    /// `items.csv` of `reports`: each run's item rows, in order.
    public static func itemTable(_ reports: [RunReport]) -> [UInt8] {
        var writer = FeedTables.items.writer()
        for report in reports {
            guard let feed = report.feed else { continue }
            FeedTables.appendItems(report, feed, to: &writer)
        }
        return writer.takeBytes()
    }

    /// The samples of the `feed.csv` metrics (``FeedTables/sessionMetrics``) per policy and trace; a run with a
    /// failed item is counted as failed and adds no values.
    public static func samples(_ reports: [RunReport]) -> ComparisonSamples {
        var samples = ComparisonSamples(metrics: FeedTables.sessionMetrics)
        for report in reports {
            guard let feed = report.feed else { continue }
            let failed = report.players.contains { $0.summary.finalState.isFailed }
            samples.add(policy: report.players.first?.policy ?? "", trace: report.trace, failed: failed) {
                feed.value(of: $0)
            }
        }
        return samples
    }
}

extension FeedSummary {
    /// The value of a `feed.csv` metric column by name (`nil` for an unknown name, or a mean startup or ratio the
    /// session does not have).
    public func value(of metric: String) -> Double? {
        switch metric {
        case "items_played": Double(itemsPlayed)
        case "watched_s": watchedSeconds
        case "startup_mean_s": startupMeanSeconds
        case "stall_count": Double(stallCount)
        case "stall_s": stallSeconds
        case "bytes": bytes
        case "wasted_bytes": wastedBytes
        case "download_watch_ratio": downloadWatchRatio
        case "qoe_shortvideo": qoe
        case "bandwidth_cost": bandwidthCost
        case "score": score
        default: nil
        }
    }
}
