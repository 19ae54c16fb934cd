import ABRSim

/// `abrsim tune SCENARIO [--objective TEXT] [--grid LIST] [--search-priorities] [--calibrate MEASURED.csv] …`:
/// searches the `networkResourcePriority` weight table (and optionally the priorities) for the best value of an
/// objective, or calibrates the table to measured per-player throughput; writes `tune.csv` and prints the best
/// point next to the scenario's own table.
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
            .option("bin-seconds", valueName: "S", help: "calibration time bin (default: 10)"),
            .option("seed", valueName: "N", help: "seed of every run (default: the scenario's seed)"),
            .option("jobs", valueName: "N", help: "parallel runs in the grid (default: all cores)"),
            .option("out", valueName: "DIR", help: "output folder for tune.csv (default: results/<scenario>-tune)"),
            forceFlag,
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
        let jobs = try parsed.int("jobs") ?? availableCores
        guard jobs >= 1 else { throw InputError(location: "--jobs", "must be at least 1") }
        let scenario = try ScenarioLoader().load(path, seed: seed)
        var settings = scenario.tune ?? TuneSettings()
        var objectiveSource = (location: "$.tune.objective", file: Optional(path))
        if let text = parsed.value("objective") {
            settings.objective = try TuneObjective.parse(text, source: "--objective")
            objectiveSource = ("--objective", nil)
        }
        if let text = parsed.value("grid") {
            let values = try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                guard let value = Double(item.trimmingCharacters()) else {
                    throw InputError(location: "--grid", "expected ratios separated by commas, got '\(text)'")
                }
                return value
            }
            settings.grid = try TuneSettings.checkedGrid(values, location: "--grid")
        }
        if parsed.flag("search-priorities") { settings.searchesPriorities = true }
        if let count = try parsed.int("max-evaluations") {
            guard count >= 0 else { throw InputError(location: "--max-evaluations", "must be ≥ 0") }
            settings.maxSimplexEvaluations = count
        }
        if let seconds = try parsed.double("bin-seconds") {
            guard seconds > 0 else { throw InputError(location: "--bin-seconds", "must be > 0") }
            settings.binSeconds = seconds
        }
        let scoring: TuneScoring
        let measuredPath = parsed.value("calibrate")
        if let measuredPath {
            guard !settings.searchesPriorities else {
                throw InputError(
                    location: "--search-priorities", "calibration fits the weights of the given priorities")
            }
            let measured = try MeasuredThroughput.load(measuredPath, scenario: scenario)
            let levels = Set(measured.players.map { scenario.players[$0].settings.networkResourcePriority })
            guard levels.count >= 2 else {
                throw InputError(
                    file: measuredPath,
                    "the measured players all have the same networkResourcePriority; their weights cannot be fitted")
            }
            scoring = .fit(try ShareFit(measured: measured, binSeconds: settings.binSeconds, file: measuredPath))
        } else {
            scoring = .objective(
                try settings.objective.bind(
                    to: scenario, source: objectiveSource.location, file: objectiveSource.file))
        }
        let out = parsed.value("out") ?? "results/\(scenario.name)-tune"
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "tune", subject: scenario.file), force: parsed.flag("force"))
        let tuner = try Tuner(scenario: scenario, scoring: scoring, settings: settings, seed: seed, jobs: jobs)
        let outcome = try tuner.run()
        let ids = scenario.players.map(\.id)
        var bundle = OutputBundle()
        bundle.add(name: "tune.csv", bytes: TuneTable.bytes(outcome.points, players: ids, isFit: measuredPath != nil))
        try folder.commit(bundle)
        let heading =
            measuredPath.map {
                "calibrating to \($0) (RMS share error, \(formatCSVNumber(settings.binSeconds)) s bins)"
            }
            ?? "objective: \(settings.objective)"
        writeStandardOutput(report(outcome, heading: heading, isFit: measuredPath != nil) + "wrote \(out)/tune.csv\n")
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
        for (index, player) in outcome.best.report.players.enumerated() {
            let s = player.summary
            players.append([
                player.id, outcome.best.priorities[index].rawValue, fixed(s.qoeLinear, 2), fixed(s.stallSeconds, 2),
                fixed(s.rebufferRatio, 4), fixed(s.averageBitrateKbps, 0),
                s.averageLinkShare.map { fixed($0, 3) } ?? "-",
            ])
        }
        return text + "best point's players:\n" + align(players, leftColumns: 2)
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

extension Substring {
    /// The text without surrounding white space.
    func trimmingCharacters() -> String {
        var slice = self
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
