import ABRSim

/// `abrsim plot RESULTS_DIR [--out DIR]`: redraws the plots and `index.html` of a run (a folder with
/// `timeline.csv`) or of a comparison (a folder with `summary.csv` and no timeline) from its CSV files alone.
/// The default plots folder is `plots/<name>` for `results/<name>` (what `abrsim run` and `abrsim compare` use
/// by default), otherwise `RESULTS_DIR/plots`.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "abrsim plot", summary: "redraw the plots and index.html of a results folder from its CSV files",
        positionals: [PositionalSpec("RESULTS_DIR", help: "folder written by abrsim run or abrsim compare")],
        options: [.option("out", valueName: "DIR", help: "plots folder (default: see above)"), forceFlag])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        var results = parsed.positional("RESULTS_DIR")!
        while results.count > 1, results.hasSuffix("/") { results.removeLast() }
        guard InputFile.isDirectory(results) else { throw InputError(file: results, "is not a folder") }
        let out = parsed.value("out") ?? defaultPlotsFolder(results)
        let isRun = (try? InputFile.checkReadable(InputFile.resolve("timeline.csv", against: results))) != nil
        if case .valid(let manifest) = OutputManifest.read(directory: results), !manifest.isComplete {
            writeStandardError(
                "abrsim plot: warning: \(results) was not completely written (interrupted?); its files may mix two "
                    + "runs\n")
        }
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "plots", subject: results), force: parsed.flag("force"))
        let bundle =
            isRun ? PlotBundles.run(try RunPlotData.load(directory: results)) : try comparisonBundle(results: results)
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

    /// The comparison plots of the comparison in `results`, drawn from its `summary.csv` (and `stats.csv`, shown
    /// in the index when present).
    static func comparisonBundle(results: String) throws -> OutputBundle {
        let summaryPath = InputFile.resolve("summary.csv", against: results)
        let summary = try CSVTable.parse(try InputFile.readAll(summaryPath), file: summaryPath)
        let samples = try ComparisonSamples(summary: summary, file: summaryPath)
        let statsPath = InputFile.resolve("stats.csv", against: results)
        var stats: CSVTable?
        if (try? InputFile.checkReadable(statsPath)) != nil {
            stats = try CSVTable.parse(try InputFile.readAll(statsPath), file: statsPath)
        }
        let title = "\(summary.column("scenario")?.first ?? "compare"): \(samples.policies.count) policies"
        return PlotBundles.comparison(samples, title: title, stats: stats)
    }
}
