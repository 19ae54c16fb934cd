import ABRSim

/// `abrsim model download --model NAME ROWS.csv`: evaluates a download model on a table of requests (the
/// columns of the CausalSim and Veritas reference tables) and writes it back with `download_time_s`,
/// `throughput_mbps` and `branch` filled in, through the plan a simulation's player asks for
/// (``DownloadModelTable``).
/// `abrsim model catchup --controller NAME ROWS.csv`: evaluates a live catch-up controller on the columns of the
/// live reference tables and writes them back with its outputs filled in (``LiveCatchUpTable``).
enum ModelCommand {
    static let spec = CommandSpec(
        name: "abrsim model",
        summary: "evaluate a download model (model download) or a live catch-up controller (model catchup) on rows",
        positionals: [
            PositionalSpec("SUBCOMMAND", help: "download or catchup"),
            PositionalSpec(
                "ROWS",
                help: "a CSV of requests (chunk_bytes or size_kb, capacity_mbps, rtt_ms, …) or of catch-up states"),
        ],
        options: [
            .option(
                "model", valueName: "NAME", help: "fluid, slow-start, veritas-v3, veritas-v7 or tcp",
                defaultValue: "fluid"),
            .option(
                "controller", valueName: "NAME", help: "catchup: dashjs, dashjs-lolp, exoplayer, shaka or none",
                defaultValue: "dashjs"),
            .option("out", valueName: "FILE", help: "write here (default: standard output)"),
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let sub = parsed.positional("SUBCOMMAND")!
        guard sub == "download" || sub == "catchup" else {
            throw InputError(.none, .unknownName(sub, kind: "model subcommand", known: ["download", "catchup"]))
        }
        let path = parsed.positional("ROWS")!
        let controller = parsed.value("controller") ?? "dashjs"
        if sub == "catchup" { _ = try LiveCatchUpControllers.controller(named: controller) }
        try InputFile.checkReadable(path)
        let table = try CSVTable.parse(try InputFile.readAll(path), file: path)
        let bytes =
            sub == "catchup"
            ? try LiveCatchUpTable.evaluate(table, file: path, controllerName: controller)
            : try DownloadModelTable.evaluate(table, file: path, modelName: parsed.value("model") ?? "fluid")
        if let out = parsed.value("out") {
            try AtomicFileWriter.write(bytes, to: out)
        } else {
            writeStandardOutput(String(decoding: bytes, as: UTF8.self))
        }
        return 0
    }
}
