import ABRSim

/// `abrsim run SCENARIO [--out DIR] [--plots DIR] [--seed N]`: one run of a scenario, its CSV tables (and
/// `capacity.csv`, `stretches.csv` and `scenario.csv` for the plots) written atomically to DIR (default `results/<name>/`), the plots and
/// `index.html` drawn from those files into the plots folder (default `plots/<name>/`, or `DIR/plots` with
/// `--out`), and a per-player summary table on stdout. A player that failed (an external policy that crashed, say)
/// gets a line on stderr with its reason, and the exit status is then 1 (every file is still written).
enum RunCommand {
    static let spec = CommandSpec(
        name: "abrsim run", summary: "run one scenario; write its CSV tables, plots and index.html",
        positionals: [PositionalSpec("SCENARIO", help: "scenario file (JSON)")],
        options: [
            .option("out", valueName: "DIR", help: "output folder (default: results/<scenario name>)"),
            .option("plots", valueName: "DIR", help: "plots folder (default: plots/<name>, or DIR/plots with --out)"),
            .option("seed", valueName: "N", help: "seed of every random stream (default: the scenario's seed)"),
            setOption, forceFlag,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let path = parsed.positional("SCENARIO")!
        let seed = try parsed.seed()
        let scenario = try scenarioLoader(parsed).load(path, seed: seed)
        if let error = StreamedRunTables.memoryError(runningWithEveryOutput: scenario) { throw error }
        let out = parsed.value("out") ?? "results/\(scenario.name)"
        let plots = parsed.value("plots") ?? (parsed.value("out").map { $0 + "/plots" } ?? "plots/\(scenario.name)")
        let force = parsed.flag("force")
        let outFolder = try OutputFolder(out, identity: OutputIdentity(command: "run", subject: path), force: force)
        let plotsFolder = try OutputFolder(
            plots, identity: OutputIdentity(command: "plots", subject: out), force: force,
            option: parsed.value("plots") == nil ? "--out" : "--plots")
        // Every record goes to the tables as it is made (a feed's summaries read its records: it keeps them).
        let tables = scenario.feed == nil ? try StreamedRunTables(for: scenario) : nil
        let report = try ScenarioRunner().run(scenario, seed: seed, recordSink: tables)
        printWarnings(SettingWarnings.scenario(scenario), command: "abrsim run")
        var bundle = RunTables.bundle(for: report, streamed: tables)
        bundle.add(name: "capacity.csv", bytes: CapacityTable.csv(curve: scenario.network.curve, end: report.endTime))
        let network = scenario.network
        let stretches = StretchTable.rows(
            starts: network.stretchStarts, labels: network.labels, duration: network.curve.duration,
            atEnd: network.curve.atEnd, end: report.endTime)
        bundle.add(name: "stretches.csv", bytes: StretchTable.csv(stretches))
        bundle.add(
            name: "scenario.csv", bytes: ScenarioTable.csv(name: scenario.name, description: scenario.descriptionText))
        try outFolder.commit(bundle, folders: ownedSubfolder(plots, of: out))
        let page = PlotPage(command: invokedCommandLine(), resultsLink: PlotPage.relativeLink(from: plots, to: out))
        try plotsFolder.commit(PlotBundles.run(directory: out, page: page))
        writeStandardOutput(
            summaryTable(report) + optimumNotes(scenario) + (report.feed.map(feedLine) ?? "")
                + "wrote \(out)/summary.csv, segments.csv, timeline.csv, access_log.csv"
                + (report.isFeed ? ", items.csv, feed.csv" : "") + (report.isChunked ? ", chunks.csv\n" : "\n")
                + "plots: \(plots)/index.html\n")
        let failures = failedPlayers(report)
        for failure in failures {
            writeStandardError("abrsim run: player \(failure.player) failed: \(failure.reason)\n")
        }
        return failures.isEmpty ? 0 : 1
    }

    /// How `optimal` treated waiting, a line per player that plays it.
    static func optimumNotes(_ scenario: Scenario) -> String {
        scenario.players.filter(\.policy.isOfflineOptimum).map { player in
            OptimumNote.line(
                "optimal (player \(player.id))",
                model: .faithful(
                    waitsToMinimizeStalling: player.settings.automaticallyWaitsToMinimizeStalling,
                    otherPlayers: scenario.players.count - 1))
        }.joined()
    }

    /// A feed run's session in one line: preload policy, mean startup, stalls, bytes and waste, score.
    static func feedLine(_ feed: FeedSummary) -> String {
        "feed (preload \(feed.preload)): \(feed.itemsPlayed) items played, mean startup "
            + (feed.startupMeanSeconds.map { fixed($0, 3) } ?? "-") + " s, \(feed.stallCount) stalls ("
            + fixed(feed.stallSeconds, 2) + " s), " + fixed(feed.bytes / 1e6, 2) + " MB downloaded, "
            + fixed(feed.wastedBytes / 1e6, 2) + " MB wasted, score " + fixed(feed.score, 2) + "\n"
    }

    /// A table of each player's headline numbers.
    static func summaryTable(_ report: RunReport) -> String {
        let header = [
            "player", "policy", "segments", "startup_s", "stalls", "stall_s", "avg_kbps", "switches", "qoe_lin",
            "state",
        ]
        var rows: [[String]] = [header]
        for player in report.players {
            let s = player.summary
            rows.append([
                player.id, player.policy, String(s.segments), s.startupSeconds.map { fixed($0, 2) } ?? "-",
                String(s.stallCount), fixed(s.stallSeconds, 2), fixed(s.averageBitrateKbps, 0), String(s.switchCount),
                fixed(s.qoeLinear, 2), s.finalState.csvName,
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = "\(report.scenario) on \(report.trace): \(fixed(report.endTime, 2)) s simulated\n"
        for row in rows {
            text +=
                row.enumerated().map { column, cell in
                    column < 2 ? cell.padding(toLength: widths[column]) : cell.leftPadding(toLength: widths[column])
                }.joined(separator: "  ") + "\n"
        }
        return text
    }
}
