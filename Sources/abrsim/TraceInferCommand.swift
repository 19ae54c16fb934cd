import ABRSim

/// `abrsim trace infer LOG`: the capacity trace behind a player's throughput log, by inverting a download model
/// (``CapacityInference``). With `--model fluid` it is plain replay (each request's throughput as capacity).
extension TraceCommand {
    static let inferSpec = CommandSpec(
        name: "abrsim trace infer", summary: "the capacity behind a throughput log, under a download model",
        positionals: [
            PositionalSpec("LOG", help: "a throughput log (puffer video_sent, segments.csv, access_log.csv)")
        ],
        options: [
            .option(
                "log-format", valueName: "FORMAT",
                help:
                    "puffer, segments or access-log (default: segments, or access-log for a file with access-log columns)"
            ),
            .option("acked", valueName: "FILE", help: "Puffer's video_acked table (with --log-format puffer)"),
            .option("select", valueName: "ID", help: "the player (or Puffer session) to read (default: the first)"),
            .option(
                "model", valueName: "NAME", help: "fluid, slow-start, veritas-v3, veritas-v7 or tcp",
                defaultValue: "slow-start"),
            .option("rtt-ms", valueName: "MS", help: "the RTT of every request (default: the log's)"),
            toOption(default: "csv"), outOption,
        ])

    static func infer(_ parsed: ParsedArguments) throws -> Int32 {
        let path = parsed.positional("LOG")!
        try InputFile.checkReadable(path)
        let format: ThroughputLogReader.Format
        if let text = parsed.value("log-format") {
            guard let known = ThroughputLogReader.Format(rawValue: text) else {
                throw InputError(
                    .option("--log-format"),
                    .unknownName(text, kind: "log format", known: ThroughputLogReader.Format.allCases.map(\.rawValue)))
            }
            format = known
        } else {
            format = path.hasSuffix("access_log.csv") ? .accessLog : .segments
        }
        let modelName = parsed.value("model") ?? "slow-start"
        guard DownloadModelDecoder.names.contains(modelName) else {
            throw InputError(
                .option("--model"), .unknownName(modelName, kind: "download model", known: DownloadModelDecoder.names))
        }
        let rtt = try parsed.double("rtt-ms").map { value -> Double in
            guard value > 0 else { throw InputError(.none, .mustBe("--rtt-ms", rule: "positive", found: "\(value)")) }
            return value / 1000
        }
        if let acked = parsed.value("acked") { try InputFile.checkReadable(acked) }
        let log = try ThroughputLogReader.read(
            path: path, format: format, acked: parsed.value("acked"), selection: parsed.value("select"))
        let model = try DownloadModelDecoder.model(named: modelName, parameters: [:], rttMs: 0)
        let name = InputFile.fileName(of: path) + ".\(modelName)"
        let (trace, _) = try CapacityInference.trace(log, model: model, rttSeconds: rtt, name: name)
        guard let to = try self.format(parsed, "to") else {
            throw InputError(.none, .required("--to FORMAT"))
        }
        return try emit(trace, to, parsed)
    }
}
