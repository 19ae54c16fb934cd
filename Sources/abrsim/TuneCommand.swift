import ABRSim

/// `abrsim tune SCENARIO [--objective TEXT] [--grid LIST] [--search-priorities] [--calibrate MEASURED.csv] …`:
/// searches the `networkResourcePriority` weight table (and optionally the priorities) for the best value of an
/// objective, or calibrates the table to measured per-player throughput; writes `tune.csv` and prints the best
/// point next to the scenario's own table. `--traces SET` scores every table over a set of networks (the mean or
/// a percentile of the objective, `--aggregate`); `--holdout FRACTION` keeps that share of the networks out of
/// the search (a split seeded by the seed) and reports the default and the chosen table on them.
enum TuneCommand {
    static let spec = CommandSpec(
        name: "abrsim tune",
        summary: "search the priority weight table for an objective, or fit it to measurements (--calibrate)",
        positionals: [PositionalSpec("SCENARIO", help: "scenario file (JSON) with players of different priorities")],
        options: [
            .option(
                "objective", valueName: "TEXT",
                help: "what to optimise (default: the scenario's tune.objective, else 'max sum qoe_lin')"),
            .option("grid", valueName: "LIST", help: "weight ratios the grid tries (default: 1,2,4,8,16,32)"),
            .flag("search-priorities", help: "also try every assignment of low/default/high to the players"),
            .option(
                "max-evaluations", valueName: "N", help: "Nelder–Mead budget of runs; 0 = grid only (default: 40)"),
            .option("calibrate", valueName: "CSV", help: "fit the weights to measured throughput (t_s,player,…)"),
            .option(
                "traces", valueName: "PATH_OR_GLOB",
                help: "score every table over these networks instead of the scenario's",
                isRepeatable: true),
            .option(
                "aggregate", valueName: "mean|pN",
                help: "how the objective combines over --traces: mean (default) or a percentile, e.g. p10"),
            .option(
                "holdout", valueName: "FRACTION",
                help: "keep this share of --traces out of the search; report both tables on them"),
            .option("bin-seconds", valueName: "S", help: "calibration time bin (default: 10)"),
            .option("seed", valueName: "N", help: "seed of every run (default: the scenario's seed)"),
            .option("jobs", valueName: "N", help: "parallel runs in the grid (default: all cores)"),
            .option("out", valueName: "DIR", help: "output folder for tune.csv (default: results/<scenario>-tune)"),
            setOption, forceFlag,
        ])

    /// The objective language and the measurement format, appended to the help.
    static let details = """

        Objective: ("max"|"min") TERM ["subject to" CONSTRAINT {"and" CONSTRAINT}]
          TERM        [sum|mean|min|max] METRIC[[SELECTOR,...]]   (no selector: every player)
          CONSTRAINT  TERM (<=|>=) NUMBER[%]   (without an aggregate: every selected player)
          SELECTOR    player id, '*' matches any text; @low/@default/@high: the players the scenario gives
                      that priority
          METRIC      qoe_lin qoe_log qoe_hd avg_bitrate_kbps stall_s stall_count rebuffer_ratio startup_s
                      switches link_share throughput_kbps; per run: jain_throughput jain_bitrate jain_qoe
          e.g. "max qoe_lin[main] subject to rebuffer_ratio[tile*] <= 2%", "max sum qoe_lin", "max min qoe_lin"
        Constraints are hard: a point missing one ranks below every point meeting all of them (among those,
        the smaller total excess wins). Weights keep low <= default <= high; only ratios matter.

        Over networks: with --traces, each table runs on every trace (the scenario's network replaced, looping,
        with its network.rttMs) and scores the --aggregate of the per-network objective (mean, or pN: the N-th
        percentile, e.g. p10 for the worst tenth of a max objective); constraints must hold on every network.
        --holdout F keeps round(F × traces) of them (at least one each side; a shuffle seeded by --seed or the
        scenario's seed) out of the search and reports the default and the best table on them (holdout rows of
        tune.csv).

        Calibration: MEASURED.csv has a header with t_s, player (an id of the scenario) and throughput_kbps
        (or observed_bitrate in bit/s); other columns are ignored. Shares are compared per time bin (least
        squares) and the RMS share error is reported.

        """

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage() + details)
            return 0
        }
        let path = parsed.positional("SCENARIO")!
        let seed = try parsed.seed()
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let scenario = try scenarioLoader(parsed).load(path, seed: seed)
        try refuseFeed(scenario, command: "abrsim tune")
        if let error = scenario.recordMemoryError { throw error }
        var settings = scenario.tune ?? TuneSettings()
        var objectiveSource = (location: "$.tune.objective", file: Optional(path))
        if let text = parsed.value("objective") {
            settings.objective = try TuneObjective.parse(text, source: "--objective")
            objectiveSource = ("--objective", nil)
        }
        if let text = parsed.value("grid") {
            let values = try ListArgument.items(text, location: "--grid").map { item in
                guard let value = Double(item), value.isFinite else {
                    throw InputError(.option("--grid"), .expected("ratios separated by commas", found: "'\(text)'"))
                }
                return value
            }
            settings.grid = try TuneSettings.checkedGrid(values, location: "--grid")
        }
        if parsed.flag("search-priorities") { settings.searchesPriorities = true }
        if let count = try parsed.int("max-evaluations", in: 0...TuneSettings.maximumSimplexEvaluations) {
            settings.maxSimplexEvaluations = count
        }
        if let seconds = try parsed.double("bin-seconds", in: TuneSettings.binSecondsRange) {
            settings.binSeconds = seconds
        }
        let scoring: TuneScoring
        let measuredPath = parsed.value("calibrate")
        if let measuredPath {
            guard !settings.searchesPriorities else {
                throw InputError(
                    .option("--search-priorities"),
                    .notApplicable(
                        nil, onlyFor: nil, here: "--calibrate",
                        hint: "calibration fits the weights of the given priorities"))
            }
            let measured = try MeasuredThroughput.load(measuredPath, scenario: scenario)
            let levels = Set(measured.players.map { scenario.players[$0].settings.networkResourcePriority })
            guard levels.count >= 2 else {
                throw InputError(
                    .file(measuredPath),
                    .expected(
                        "measured players of at least 2 networkResourcePriority levels, to fit their weights",
                        found: "all \(levels.first?.rawValue ?? "")"))
            }
            scoring = .fit(try ShareFit(measured: measured, binSeconds: settings.binSeconds, file: measuredPath))
        } else {
            scoring = .objective(
                try settings.objective.bind(
                    to: scenario, source: objectiveSource.location, file: objectiveSource.file))
        }
        let (networks, held) = try tuneNetworks(parsed, scenario: scenario, loader: scenarioLoader(parsed), seed: seed)
        if networks != nil, measuredPath != nil {
            throw InputError(
                .option("--traces"),
                .conflicting(
                    ["--traces", "--calibrate"],
                    reason: "calibration fits one measured network; drop --traces or --calibrate"
                ))
        }
        let out = parsed.value("out") ?? "results/\(scenario.name)-tune"
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "tune", subject: scenario.file), force: parsed.flag("force"))
        var tuner = try Tuner(scenario: scenario, scoring: scoring, settings: settings, seed: seed, jobs: jobs)
        tuner.networks = networks
        let outcome = try tuner.run()
        let heldOut = try held.map { try tuner.heldOut(outcome, on: $0) } ?? []
        printWarnings(SettingWarnings.scenario(scenario), command: "abrsim tune")
        let ids = scenario.players.map(\.id)
        var bundle = OutputBundle()
        bundle.add(
            name: "tune.csv", bytes: TuneTable.bytes(outcome.points + heldOut, players: ids, isFit: measuredPath != nil)
        )
        try folder.commit(bundle)
        let heading =
            measuredPath.map {
                "calibrating to \($0) (RMS share error, \(formatCSVNumber(settings.binSeconds)) s bins)"
            }
            ?? "objective: \(settings.objective)"
            + (networks.map { " (\($0.aggregate) over \($0.traces.count) networks)" } ?? "")
        var text = report(outcome, heading: heading, isFit: measuredPath != nil)
        if let held, heldOut.count == 2 {
            text +=
                "on the \(held.traces.count) held-out network\(held.traces.count == 1 ? "" : "s") "
                + "(\(held.aggregate)): default table \(heldOut[0].score.value.map { fixed($0, 4) } ?? "-")"
                + (heldOut[0].score.isFeasible ? "" : " (infeasible)")
                + ", best table \(heldOut[1].score.value.map { fixed($0, 4) } ?? "-")"
                + (heldOut[1].score.isFeasible ? "" : " (infeasible)") + "\n"
        }
        writeStandardOutput(text + "wrote \(out)/tune.csv\n")
        return 0
    }

    /// The baseline and the best point, then the best point's players.
    static func report(_ outcome: Tuner.Outcome, heading: String, isFit: Bool) -> String {
        let phases = ["baseline", "grid", "simplex"].map { phase in
            "\(outcome.points.filter { $0.phase == phase }.count) \(phase)"
        }
        var text = heading + "\n\(outcome.points.count) points evaluated (\(phases.joined(separator: ", ")))\n"
        let scoreName = isFit ? "rms_share_error" : "objective"
        var rows = [["", "weights low/default/high", "priorities", scoreName] + (isFit ? [] : ["feasible"])]
        for (label, point) in [("default table", outcome.baseline), ("best (#\(outcome.bestIndex + 1))", outcome.best)]
        {
            let weights = [point.weights.low, point.weights.standard, point.weights.high].map { compact($0) }
            var row = [
                label, weights.joined(separator: " / "), point.priorities.map(\.rawValue).joined(separator: ","),
                point.score.value.map { fixed($0, 4) } ?? "-",
            ]
            if !isFit { row.append(point.score.isFeasible ? "yes" : "no") }
            rows.append(row)
        }
        text += align(rows, leftColumns: 3)
        var players = [["player", "priority", "qoe_lin", "stall_s", "rebuffer_ratio", "avg_kbps", "link_share"]]
        let best = outcome.best
        for (index, player) in best.report.players.enumerated() {
            func cell(_ metric: TuneMetric, _ digits: Int) -> String {
                best.value(metric, player: index).map { fixed($0, digits) } ?? "-"
            }
            players.append([
                player.id, best.priorities[index].rawValue, cell(.qoeLinear, 2), cell(.stallSeconds, 2),
                cell(.rebufferRatio, 4), cell(.averageBitrateKbps, 0), cell(.linkShare, 3),
            ])
        }
        let over = best.networkReports.count > 1 ? " (means over \(best.networkReports.count) networks)" : ""
        return text + "best point's players\(over):\n" + align(players, leftColumns: 2)
    }

    /// The networks `--traces` names (all, or those `--holdout` leaves to the search) and the held-out ones.
    static func tuneNetworks(_ parsed: ParsedArguments, scenario: Scenario, loader: ScenarioLoader, seed: UInt64?)
        throws -> (search: TuneNetworks?, held: TuneNetworks?)
    {
        let aggregate = try parsed.value("aggregate").map { try NetworkAggregate.parse($0, location: "--aggregate") }
        guard !parsed.values("traces").isEmpty else {
            if aggregate != nil {
                throw InputError(
                    .option("--aggregate"),
                    .missingPrerequisite(nil, needs: "--traces", reason: "it combines over them"))
            }
            if parsed.value("holdout") != nil {
                throw InputError(
                    .option("--holdout"),
                    .missingPrerequisite(nil, needs: "--traces", reason: "it holds out some of them"))
            }
            return (nil, nil)
        }
        let files = try PathExpansion.files(parsed.values("traces"))
        var search = files
        var held: [String] = []
        if let fraction = try parsed.double("holdout") {
            (search, held) = try TuneNetworks.split(files, holdout: fraction, seed: seed ?? scenario.seed)
        }
        let rtt = try SweepPlan.defaultRttSeconds(loader.document(scenario.file), file: scenario.file)
        func networks(_ paths: [String]) throws -> TuneNetworks? {
            guard !paths.isEmpty else { return nil }
            return TuneNetworks(
                traces: try paths.map { try TraceReader.readForRuns(path: $0) }, rttSeconds: rtt,
                aggregate: aggregate ?? .mean
            )
        }
        return (try networks(search), try networks(held))
    }

    /// A weight with at most four decimals, trailing zeros dropped.
    static func compact(_ value: Double) -> String {
        var text = fixed(value, 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func align(_ rows: [[String]], leftColumns: Int) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column < leftColumns
                    ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
