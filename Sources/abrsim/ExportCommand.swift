import ABRSim

/// `abrsim export p1203 RESULTS_DIR [--out DIR] [--scenario FILE] [--resolution WxH] [--codec C] [--fps N]
/// [--device pc|mobile]`: writes, per player of a run's results folder, the ITU-T P.1203 mode-0 input JSON
/// (``P1203Export``) as `DIR/<player>.json` (default DIR: `RESULTS_DIR-p1203`). Resolutions come from the scenario's
/// ladder with `--scenario`, else `--resolution` (default 1920x1080) for every variant.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "abrsim export", summary: "export a run's results for standard QoE tools (p1203: ITU-T P.1203 input)",
        positionals: [
            PositionalSpec("FORMAT", help: "p1203"),
            PositionalSpec("RESULTS_DIR", help: "folder written by abrsim run"),
        ],
        options: [
            .option("out", valueName: "DIR", help: "output folder (default: RESULTS_DIR-p1203)"),
            .option("scenario", valueName: "FILE", help: "the run's scenario, for each variant's resolution"),
            .option("resolution", valueName: "WxH", help: "resolution of variants without one (default 1920x1080)"),
            .option("codec", valueName: "NAME", help: "video codec: h264 (default), h265, hevc or vp9"),
            .option("fps", valueName: "N", help: "frames per second (default 24)"),
            .option("device", valueName: "NAME", help: "IGen device: pc (default) or mobile"),
            forceFlag,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let format = parsed.positional("FORMAT")!
        guard format == "p1203" else {
            throw InputError(.named("FORMAT"), .unknownName(format, kind: "format", known: ["p1203"]))
        }
        let results = try resultsFolder(parsed)
        var settings = P1203Export.Settings()
        if let resolution = parsed.value("resolution") {
            guard Resolution(parsing: resolution) != nil else {
                throw InputError(.option("--resolution"), .expected("WIDTHxHEIGHT", found: "'\(resolution)'"))
            }
            settings.defaultResolution = resolution
        }
        if let codec = parsed.value("codec") {
            guard ["h264", "h265", "hevc", "vp9"].contains(codec) else {
                throw InputError(
                    .option("--codec"), .unknownName(codec, kind: "codec", known: ["h264", "h265", "hevc", "vp9"]))
            }
            settings.codec = codec
        }
        if let fps = try parsed.double("fps") {
            guard fps > 0, fps <= 240 else {
                throw InputError(.option("--fps"), .mustBe(nil, rule: "in (0, 240]", found: parsed.value("fps") ?? ""))
            }
            settings.fps = fps
        }
        if let device = parsed.value("device") {
            guard device == "pc" || device == "mobile" else {
                throw InputError(.option("--device"), .oneOf(nil, allowed: ["pc", "mobile"], found: device))
            }
            settings.device = device
        }
        func table(_ name: String) throws -> CSVTable {
            let path = InputFile.resolve(name, against: results)
            return try CSVTable.parse(try InputFile.readAll(path), file: path)
        }
        let segments = try table("segments.csv")
        let timeline = try table("timeline.csv")
        let summary = try table("summary.csv")
        var ladders: [String: [Int: String]] = [:]
        if let path = parsed.value("scenario") {
            for player in try ScenarioLoader().load(path).players {
                var map: [Int: String] = [:]
                for (index, variant) in player.content.variants.enumerated() {
                    if let resolution = variant.resolution { map[index] = resolution.description }
                }
                ladders[player.id] = map
            }
        }
        // Every session is built before the output folder is touched: bad input leaves nothing behind.
        var bundle = OutputBundle()
        var names: [String] = []
        for player in Set(segments.column("player") ?? []).sorted() {
            var playerSettings = settings
            playerSettings.resolutions = ladders[player]
            let sessions = try P1203Export.sessions(
                segments: CSVTable(
                    columns: segments.columns,
                    rows: segments.rows.filter { $0[segments.columns.firstIndex(of: "player")!] == player }),
                timeline: timeline, summary: summary, settings: playerSettings, file: results)
            for session in sessions {
                guard !session.player.isEmpty, !session.player.contains("/"), session.player != ".",
                    session.player != ".."
                else {
                    throw InputError(
                        .file(results),
                        .isNot("usable as a file name", subject: "player id", found: "'\(session.player)'"))
                }
                bundle.add(name: session.player + ".json", bytes: Array(session.json.utf8))
                names.append(session.player + ".json")
            }
        }
        let out = parsed.value("out") ?? results + "-p1203"
        let folder = try OutputFolder(
            out, identity: OutputIdentity(command: "export p1203", subject: results), force: parsed.flag("force"))
        try folder.commit(bundle)
        writeStandardOutput("wrote \(out)/\(names.joined(separator: ", "))\n")
        return 0
    }
}
