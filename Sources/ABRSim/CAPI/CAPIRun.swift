/// `abrsim_run`: one run of a scenario, given as a file path or as JSON text, its four tables (`summary.csv`,
/// `segments.csv`, `timeline.csv`, `access_log.csv`; a feed's `items.csv` and `feed.csv` too, `docs/feed.md`)
/// handed back framed (``CAPIResult/frame(_:)``). `json` may
/// be `NULL` (then `path` names the file) or hold `jsonLength` bytes, with relative paths resolved against
/// `directory` and errors naming `label`. `seed` < 0 keeps the scenario's. Returns a ``CAPIStatus``; on failure
/// `out` holds the one-line message the command line prints.
@_cdecl("abrsim_run")
public func abrsim_run(
    _ path: UnsafePointer<CChar>?, _ json: UnsafePointer<UInt8>?, _ jsonLength: Int,
    _ directory: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?, _ seed: Int64,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    CAPIResult.call(out, outLength) {
        let scenario = try CAPIScenario.load(
            path: path, json: json, jsonLength: jsonLength, directory: directory, label: label, seed: seed)
        let report = try ScenarioRunner().run(scenario, seed: seed < 0 ? nil : UInt64(seed))
        return CAPIResult.runTables(report, scenario: scenario)
    }
}

/// `abrsim_compare`: every policy on every trace, as `abrsim compare` does, its `summary.csv`, `segments.csv` and
/// `stats.csv` handed back framed. `traces` and `policies` hold one item per line (trace files, folders or globs;
/// policy specs as on the command line); `profile` is `faithful` or `pensieve` (`NULL`: faithful); `segments` ≤ 0
/// plays every segment; `baseline` `NULL` means the first policy; `jobs` ≥ 1. `policyNames` (may be `NULL`) and the
/// three functions add the caller's policies, as `abrsim_run_policies` does.
@_cdecl("abrsim_compare")
public func abrsim_compare(
    _ traces: UnsafePointer<CChar>?, _ contentPath: UnsafePointer<CChar>?, _ policies: UnsafePointer<CChar>?,
    _ profile: UnsafePointer<CChar>?, _ segments: Int64, _ baseline: UnsafePointer<CChar>?, _ jobs: Int64,
    _ policyNames: UnsafePointer<CChar>?, _ make: CAPIPolicyMake?, _ decide: CAPIPolicyDecide?,
    _ release: CAPIPolicyRelease?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    CAPIResult.call(out, outLength) {
        let registry = try CallbackPolicy.registry(names: policyNames, make: make, decide: decide, release: release)
        let traceArguments = try CAPIResult.string(traces, "traces").split(separator: "\n").map(String.init)
        guard !traceArguments.isEmpty else { throw InputError(.named("traces"), .noneGiven("trace")) }
        let content = try CAPIResult.string(contentPath, "content")
        let specs = try CAPIResult.string(policies, "policies").split(separator: "\n").map {
            try PolicySpec.parse(String($0), source: "policies")
        }
        guard !specs.isEmpty else { throw InputError(.named("policies"), .noneGiven("policy")) }
        let baselineLabel = baseline.map { String(cString: $0) } ?? specs[0].label
        guard specs.contains(where: { $0.label == baselineLabel }) else {
            throw InputError(
                .named("baseline"),
                .oneOf(nil, allowed: specs.map(\.label), found: baselineLabel))
        }
        let modelName = profile.map { String(cString: $0) } ?? "faithful"
        guard let model = ComparisonPlan.Model(rawValue: modelName) else {
            throw InputError(
                .named("profile"), .unknownName(modelName, kind: "profile", known: ["faithful", "pensieve"]))
        }
        guard jobs >= 1 else { throw InputError(.named("jobs"), .mustBe(nil, rule: "at least 1", found: "\(jobs)")) }
        let files = try PathExpansion.files(traceArguments, option: "traces")
        let loaded = try model.definition.loadContent(
            path: content, segments: segments > 0 ? Int(segments) : nil, location: "content")
        var plan = ComparisonPlan(traces: files, content: loaded, policies: specs)
        plan.model = model
        let reports = try Comparison.run(plan, registry: registry, jobs: Int(jobs))
        var summary = CSVWriter(columns: RunTables.summaryColumns(live: plan.content.live != nil))
        var segmentRows = CSVWriter(columns: RunTables.segmentColumns)
        for report in reports {
            RunTables.appendSummary(report, to: &summary, live: plan.content.live != nil)
            RunTables.appendSegments(report, to: &segmentRows)
        }
        let statistics = ComparisonStatistics(ComparisonSamples(reports: reports), baseline: baselineLabel)
        return CAPIResult.frame([
            ("summary.csv", summary.takeBytes()), ("segments.csv", segmentRows.takeBytes()),
            ("stats.csv", statistics.csv()),
        ])
    }
}

/// Loads the scenario the C API was given: the file at `path`, or `jsonLength` bytes of JSON text.
enum CAPIScenario {
    /// The scenario, read with the built-in policies plus the caller's
    /// (``CallbackPolicy/registry(names:make:decide:release:)``), and that registry. Called by `abrsim_run_policies`
    /// and `abrsim_sweep`.
    static func load(
        path: UnsafePointer<CChar>?, json: UnsafePointer<UInt8>?, jsonLength: Int, directory: UnsafePointer<CChar>?,
        label: UnsafePointer<CChar>?, seed: Int64, policyNames: UnsafePointer<CChar>?, make: CAPIPolicyMake?,
        decide: CAPIPolicyDecide?, release: CAPIPolicyRelease?
    ) throws -> (scenario: Scenario, registry: PolicyRegistry) {
        let registry = try CallbackPolicy.registry(names: policyNames, make: make, decide: decide, release: release)
        let scenario = try load(
            path: path, json: json, jsonLength: jsonLength, directory: directory, label: label, registry: registry,
            seed: seed)
        return (scenario, registry)
    }

    static func load(
        path: UnsafePointer<CChar>?, json: UnsafePointer<UInt8>?, jsonLength: Int, directory: UnsafePointer<CChar>?,
        label: UnsafePointer<CChar>?, registry: PolicyRegistry = .builtIn, seed: Int64 = -1
    ) throws -> Scenario {
        let loader = ScenarioLoader(registry: registry)
        // A seed reaches every random stream, as `--seed` does (`docs/seeds.md`).
        let override = seed < 0 ? nil : UInt64(seed)
        guard let json else { return try loader.load(try CAPIResult.string(path, "scenario"), seed: override) }
        let name = label.map { String(cString: $0) } ?? "scenario"
        return try loader.load(
            json: Array(UnsafeBufferPointer(start: json, count: max(jsonLength, 0))), label: name,
            directory: directory.map { String(cString: $0) } ?? ".", defaultName: "scenario", seed: override)
    }
}

/// `abrsim_sweep`: a scenario (file or JSON text, as `abrsim_run`) on many traces × policies, as `abrsim sweep`
/// does, its tables written into the empty or absent folder `outDirectory` (resumable there) and handed back
/// framed (`summary.csv`, and `segments.csv` unless `writesSegments` is 0, then the sweep's ``SweepTable``s: a feed's
/// `feed.csv` and `items.csv`, chunked content's `chunks.csv`). `traces` and `policies` hold one item
/// per line (trace files, folders or globs; policy specs with grids such as `bba(reservoir=5..15:5)`), either may
/// be empty; `seed` < 0 keeps the scenario's; `jobs` ≥ 1. `policyNames` (may be `NULL`) and the three functions add
/// the caller's policies, as `abrsim_run_policies` does.
@_cdecl("abrsim_sweep")
public func abrsim_sweep(
    _ path: UnsafePointer<CChar>?, _ json: UnsafePointer<UInt8>?, _ jsonLength: Int,
    _ directory: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?, _ traces: UnsafePointer<CChar>?,
    _ policies: UnsafePointer<CChar>?, _ seed: Int64, _ jobs: Int64, _ writesSegments: Int32,
    _ outDirectory: UnsafePointer<CChar>?,
    _ policyNames: UnsafePointer<CChar>?, _ make: CAPIPolicyMake?, _ decide: CAPIPolicyDecide?,
    _ release: CAPIPolicyRelease?,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    CAPIResult.call(out, outLength) {
        let (scenario, registry) = try CAPIScenario.load(
            path: path, json: json, jsonLength: jsonLength, directory: directory, label: label, seed: seed,
            policyNames: policyNames, make: make, decide: decide, release: release)
        guard jobs >= 1 else { throw InputError(.named("jobs"), .mustBe(nil, rule: "at least 1", found: "\(jobs)")) }
        let traceArguments = try CAPIResult.string(traces, "traces").split(separator: "\n").map(String.init)
        let files = traceArguments.isEmpty ? [] : try PathExpansion.files(traceArguments, option: "traces")
        var specs: [PolicySpec] = []
        for item in try CAPIResult.string(policies, "policies").split(separator: "\n") {
            specs += try PolicyGrid.expand(String(item), source: "policies")
        }
        let bytes =
            try json.map { Array(UnsafeBufferPointer(start: $0, count: max(jsonLength, 0))) }
            ?? InputFile.readAll(scenario.file)
        var plan = try SweepPlan(
            scenario: scenario, scenarioBytes: bytes, traces: files, policies: specs,
            seed: seed < 0 ? nil : UInt64(seed))
        plan.writesSegments = writesSegments != 0
        var runner = SweepRunner(jobs: Int(jobs))
        runner.registry = registry
        try runner.validate(plan)
        let folder = try CAPIResult.string(outDirectory, "out")
        let store = try SweepStore(
            directory: folder, manifest: plan.manifest(shard: .whole), runCount: plan.runCount,
            writesSegments: plan.writesSegments)
        _ = try runner.run(plan, shard: .whole, store: store)
        var tables = [("summary.csv", try InputFile.readAll(folder + "/summary.csv", limitBytes: Int.max))]
        if plan.writesSegments {
            tables.append(("segments.csv", try InputFile.readAll(folder + "/segments.csv", limitBytes: Int.max)))
        }
        for table in plan.extraTables {
            tables.append(
                (table.fileName, try InputFile.readAll(folder + "/" + table.fileName, limitBytes: Int.max)))
        }
        return CAPIResult.frame(tables)
    }
}
