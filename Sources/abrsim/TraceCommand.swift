import ABRSim

/// `abrsim trace SUBCOMMAND`: look at, convert, generate and edit trace files.
///
/// `info` prints statistics as `name: value` lines; `convert`, `generate`, `concat`, `scale` and `slice` write a
/// trace in any format (to `--out`, atomically, or to stdout); `presets` lists the network presets. Each
/// subcommand has `--help`.
enum TraceCommand {
    static let spec = CommandSpec(
        name: "abrsim trace", summary: "trace files: info, convert, generate, concat, scale, slice, presets, infer",
        positionals: [
            PositionalSpec("SUBCOMMAND", help: "info, convert, generate, concat, scale, slice, presets or infer"),
            PositionalSpec(
                "ARGS", help: "the subcommand's arguments (see abrsim trace SUBCOMMAND --help)",
                isOptional: true, isVariadic: true),
        ])

    static let subcommands: [(name: String, spec: CommandSpec, run: @Sendable (ParsedArguments) throws -> Int32)] = [
        (infoSpec.name, infoSpec, info), (convertSpec.name, convertSpec, convert),
        (generateSpec.name, generateSpec, generate), (concatSpec.name, concatSpec, concat),
        (scaleSpec.name, scaleSpec, scale), (sliceSpec.name, sliceSpec, slice),
        (presetsSpec.name, presetsSpec, presets), (inferSpec.name, inferSpec, infer),
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        guard let first = arguments.first, first != "-h", first != "--help" else {
            var text = spec.usage() + "\nSubcommands:\n"
            for sub in subcommands { text += "  \(sub.spec.name.padding(toLength: 22))  \(sub.spec.summary)\n" }
            writeStandardOutput(text)
            return arguments.isEmpty ? 2 : 0
        }
        guard let sub = subcommands.first(where: { $0.name == "abrsim trace " + first }) else {
            let names = subcommands.map { String($0.name.dropFirst("abrsim trace ".count)) }
            throw InputError(
                .none, .unknownName(first, kind: "trace subcommand", known: names))
        }
        let parsed = try parse(Array(arguments.dropFirst()), spec: sub.spec)
        if parsed.helpRequested {
            writeStandardOutput(sub.spec.usage())
            return 0
        }
        return try sub.run(parsed)
    }

    // MARK: - Shared options

    static let formatNames = TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")
    static let fromOption = OptionSpec.option(
        "format", valueName: "FORMAT", help: "the input's format (\(formatNames); default: detected)")
    static let outOption = OptionSpec.option("out", valueName: "FILE", help: "write here (default: standard output)")
    static func toOption(default value: String? = nil) -> OptionSpec {
        .option("to", valueName: "FORMAT", help: "output format: \(formatNames)", defaultValue: value)
    }

    static func format(_ parsed: ParsedArguments, _ name: String) throws -> TraceFormat? {
        guard let text = parsed.value(name) else { return nil }
        guard let format = TraceFormat(rawValue: text) else {
            throw InputError(
                .option("--\(name)"),
                .unknownName(text, kind: "trace format", known: TraceFormat.allCases.map(\.rawValue)))
        }
        return format
    }

    static func readInput(_ parsed: ParsedArguments) throws -> (Trace, TraceFormat) {
        let path = parsed.positional("FILE")!
        try InputFile.checkReadable(path)
        let format = try format(parsed, "format") ?? TraceFormat.detect(path: path)
        return (try TraceReader.read(path: path, format: format), format)
    }

    /// Writes `trace` in `format` to `--out` (atomically) or standard output.
    static func emit(_ trace: Trace, _ format: TraceFormat, _ parsed: ParsedArguments) throws -> Int32 {
        if let out = parsed.value("out") { try OutputPath.checkFile(out, option: "--out") }
        let bytes = try TraceWriter.write(trace, format: format)
        if let out = parsed.value("out") {
            try AtomicFileWriter.write(bytes, to: out)
        } else {
            writeStandardOutput(String(decoding: bytes, as: UTF8.self))
        }
        return 0
    }

    // MARK: - info

    static let infoSpec = CommandSpec(
        name: "abrsim trace info", summary: "duration, mean, sd, percentiles of 1-s bins, seconds at zero",
        positionals: [PositionalSpec("FILE", help: "a trace file")], options: [fromOption])

    static func info(_ parsed: ParsedArguments) throws -> Int32 {
        let (trace, format) = try readInput(parsed)
        let statistics = try TraceStatistics(trace)
        var text = "file: \(parsed.positional("FILE")!)\nformat: \(format.rawValue)\n"
        for line in statistics.lines { text += "\(line.name): \(line.value)\n" }
        writeStandardOutput(text)
        return 0
    }

    // MARK: - convert, scale, slice

    static let convertSpec = CommandSpec(
        name: "abrsim trace convert", summary: "write a trace in another format",
        positionals: [PositionalSpec("FILE", help: "a trace file")], options: [toOption(), fromOption, outOption])

    static func convert(_ parsed: ParsedArguments) throws -> Int32 {
        guard let to = try format(parsed, "to") else {
            throw InputError(.none, .required("--to FORMAT (\(formatNames))"))
        }
        let (trace, _) = try readInput(parsed)
        return try emit(trace, to, parsed)
    }

    static let scaleSpec = CommandSpec(
        name: "abrsim trace scale", summary: "multiply every rate by a factor",
        positionals: [PositionalSpec("FILE", help: "a trace file")],
        options: [
            .option("factor", valueName: "X", help: "the multiplier (≥ 0)"), toOption(), fromOption, outOption,
        ])

    static func scale(_ parsed: ParsedArguments) throws -> Int32 {
        guard let factor = try parsed.double("factor") else {
            throw InputError(.none, .required("--factor X"))
        }
        let (trace, format) = try readInput(parsed)
        return try emit(try TraceTools.scale(trace, by: factor), try self.format(parsed, "to") ?? format, parsed)
    }

    static let sliceSpec = CommandSpec(
        name: "abrsim trace slice", summary: "keep the part between two times (seconds), starting again at 0",
        positionals: [PositionalSpec("FILE", help: "a trace file")],
        options: [
            .option("start", valueName: "S", help: "first second kept", defaultValue: "0"),
            .option("end", valueName: "S", help: "end of the slice (default: the trace's end)"), toOption(),
            fromOption, outOption,
        ])

    static func slice(_ parsed: ParsedArguments) throws -> Int32 {
        let (trace, format) = try readInput(parsed)
        let start = try parsed.double("start") ?? 0
        let end = try parsed.double("end") ?? trace.duration
        return try emit(
            try TraceTools.slice(trace, from: start, to: end), try self.format(parsed, "to") ?? format, parsed)
    }

    // MARK: - generate

    static let generateSpec = CommandSpec(
        name: "abrsim trace generate", summary: "a synthetic trace (lognormal, Markov-modulated, outages)",
        positionals: [
            PositionalSpec("MODEL", help: "a JSON file or inline JSON object (see docs/scenario-format.md)")
        ],
        options: [
            .option("seconds", valueName: "S", help: "length (default: the model's seconds)"),
            .option("seed", valueName: "N", help: "seed (default: the model's seed, else 1)"),
            toOption(default: "csv"), outOption,
            .option("name", valueName: "NAME", help: "the trace's label", defaultValue: "synthetic"),
        ])

    static func generate(_ parsed: ParsedArguments) throws -> Int32 {
        let argument = parsed.positional("MODEL")!
        let document: JSONValue
        let file: String
        if argument.first == "{" {
            file = "MODEL"
            document = try JSONParser.parse(Array(argument.utf8), file: file)
        } else {
            file = argument
            document = try JSONParser.parseFile(argument)
        }
        let decoded = try SyntheticModelDecoder().decode(JSONReader(document, file: file))
        guard let seconds = try parsed.double("seconds") ?? decoded.seconds else {
            throw InputError(.none, .required("--seconds S (or \"seconds\" in the model)"))
        }
        let seed = try parsed.seed() ?? decoded.seed ?? 1
        let trace: Trace
        do {
            trace = try SyntheticTraceGenerator.generate(
                decoded.model, seconds: seconds, seed: seed, name: parsed.value("name")!)
            _ = try trace.curve(atEnd: .loop)
        } catch var error as InputError where error.file == nil {
            // A problem of the drawn trace as a whole belongs to the model.
            error.file = file
            error.location = "$" + (error.location.map { " (\($0))" } ?? "")
            throw error
        }
        return try emit(trace, try format(parsed, "to")!, parsed)
    }

    // MARK: - concat

    static let concatSpec = CommandSpec(
        name: "abrsim trace concat", summary: "stretches one after another (with outages) as one trace",
        positionals: [
            PositionalSpec(
                "STRETCH",
                help: "FILE[=S] (a trace, looped or cut to S seconds), preset:NAME=S, kbps:K=S or outage=S",
                isVariadic: true)
        ],
        options: [
            toOption(default: "csv"), outOption,
            .option("rtt-ms", valueName: "MS", help: "RTT of stretches without their own", defaultValue: "0"),
            .option("name", valueName: "NAME", help: "the trace's label (default: the stretches joined by +)"),
        ])

    static func concat(_ parsed: ParsedArguments) throws -> Int32 {
        var stretches: [NetworkStretch] = []
        var labels: [String] = []
        for argument in parsed.positionalValues("STRETCH") {
            let (stretch, label) = try TraceTools.stretch(parsing: argument)
            stretches.append(stretch)
            if label != "outage" { labels.append(label) }
        }
        let rtt = try parsed.double("rtt-ms") ?? 0
        guard rtt >= 0 else { throw InputError(.none, .mustBe("--rtt-ms", rule: "≥ 0", found: "\(rtt)")) }
        let timeline = try NetworkTimeline.build(stretches, defaultRttSeconds: rtt / 1000, atEnd: .loop)
        let name = parsed.value("name") ?? labels.joined(separator: "+")
        return try emit(TraceTools.trace(of: timeline, name: name), try format(parsed, "to")!, parsed)
    }

    // MARK: - presets

    static let presetsSpec = CommandSpec(
        name: "abrsim trace presets", summary: "the network presets (NLC, Chrome DevTools) as a table")

    static func presets(_ parsed: ParsedArguments) throws -> Int32 {
        let header = ["name", "title", "down_kbps", "rtt_ms", "loss_pct", "confidence", "source"]
        var rows = [header]
        for preset in NetworkPreset.catalogue {
            rows.append([
                preset.name, preset.title, fixed(preset.downlinkBps / 1000, 0), fixed(preset.rttSeconds * 1000, 1),
                fixed(preset.lossRate * 100, 0), preset.confidence, preset.source,
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            text +=
                row.enumerated().map { column, cell in
                    if column == row.count - 1 { return cell }
                    return (2...4).contains(column)
                        ? cell.leftPadding(toLength: widths[column]) : cell.padding(toLength: widths[column])
                }.joined(separator: "  ") + "\n"
        }
        writeStandardOutput(text)
        return 0
    }
}
