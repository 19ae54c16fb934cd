import ABRSim

/// `abrsim plot RESULTS_DIR [--out DIR] [--baseline NAME]`: redraws the plots and `index.html` of a run (a folder
/// with `timeline.csv`) or of a comparison or sweep (a folder with `summary.csv` and no timeline) from its CSV
/// files alone; the paired differences are against `--baseline`, else `stats.csv`'s baseline, else the first
/// policy.
/// The default plots folder is `plots/<name>` for `results/<name>` (what `abrsim run` and `abrsim compare` use
/// by default), otherwise `RESULTS_DIR/plots`.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "abrsim plot", summary: "redraw the plots and index.html of a results folder from its CSV files",
        positionals: [PositionalSpec("RESULTS_DIR", help: "folder written by abrsim run or abrsim compare")],
        options: [
            .option("out", valueName: "DIR", help: "plots folder (default: see above)"),
            .option(
                "baseline", valueName: "NAME",
                help: "policy the paired differences are against (default: stats.csv's, else the first)"),
            forceFlag,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let results = try resultsFolder(parsed)
        let out = parsed.value("out") ?? defaultPlotsFolder(results)
        let isRun = (try? InputFile.checkReadable(InputFile.resolve("timeline.csv", against: results))) != nil
        if case .valid(let manifest) = OutputManifest.read(directory: results), !manifest.isComplete {
            writeStandardError(
                "abrsim plot: warning: \(results) was not completely written (interrupted?); its files may mix two "
                    + "runs\n")
        }
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "plots", subject: results), force: parsed.flag("force"))
        var writtenBy = ""
        if case .valid(let manifest) = OutputManifest.read(directory: results) {
            writtenBy = "abrsim \(manifest.identity.command) \(manifest.identity.subject)"
        }
        let page = PlotPage(
            command: invokedCommandLine(), resultsWrittenBy: writtenBy,
            resultsLink: PlotPage.relativeLink(from: out, to: results))
        let bundle =
            isRun
            ? try PlotBundles.run(directory: results, page: page)
            : try comparisonBundle(results: results, baseline: parsed.value("baseline"), page: page)
        try folder.commit(bundle)
        writeStandardOutput("plots: \(out)/index.html (\(bundle.names.joined(separator: ", ")))\n")
        return 0
    }

    /// `plots/<name>` beside `results/<name>`; otherwise `RESULTS_DIR/plots`.
    static func defaultPlotsFolder(_ results: String) -> String {
        let name = InputFile.fileName(of: results)
        let parent = InputFile.directory(of: results)
        guard InputFile.fileName(of: parent) == "results" else { return results + "/plots" }
        return InputFile.resolve("plots/" + name, against: InputFile.directory(of: parent))
    }

    /// The comparison plots of the comparison in `results`, drawn from its `summary.csv` (and `stats.csv`, linked
    /// from the index when present, whose `baseline` is the default one); a `baseline` that is not one of the
    /// policies is an error naming `--baseline`.
    static func comparisonBundle(results: String, baseline: String?, page: PlotPage) throws -> OutputBundle {
        let summaryPath = InputFile.resolve("summary.csv", against: results)
        let summary = try CSVTable.parse(try InputFile.readAll(summaryPath), file: summaryPath)
        let samples = try ComparisonSamples(summary: summary, file: summaryPath)
        let statsPath = InputFile.resolve("stats.csv", against: results)
        var chosen = baseline
        let hasStats = (try? InputFile.checkReadable(statsPath)) != nil
        if hasStats {
            let stats = try CSVTable.parse(try InputFile.readAll(statsPath), file: statsPath)
            chosen = chosen ?? stats.column("baseline")?.first
        }
        if let chosen, !samples.policies.contains(chosen) {
            let unknown = InputProblem.unknownName(chosen, kind: "policy", known: samples.policies)
            throw baseline == nil
                ? InputError(.file(statsPath), .within("baseline", unknown))
                : InputError(.option("--baseline"), unknown)
        }
        let title = "\(summary.column("scenario")?.first ?? "compare"): \(samples.policies.count) policies"
        return PlotBundles.comparison(samples, title: title, baseline: chosen, hasStats: hasStats, page: page)
    }
}

/// The command line this process was started with, as `abrsim …` (shell-quoted), for the plots' `index.html`,
/// without the options that only say where the outputs go or how fast they are made (`--out`, `--plots`,
/// `--force`, `--jobs`): the outputs do not depend on them, so neither does the page.
func invokedCommandLine() -> String {
    var kept = ["abrsim"]
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        let name = String(argument.prefix { $0 != "=" })
        if name == "--force" { continue }
        if ["--out", "--plots", "--jobs"].contains(name) {
            if !argument.contains("=") { _ = arguments.popFirst() }
            continue
        }
        kept.append(argument)
    }
    return ShellCommand.line(kept)
}
