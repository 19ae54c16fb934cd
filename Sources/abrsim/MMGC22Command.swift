import ABRSim

/// `abrsim mmgc22 --data DIR --algorithm A --family F --trace N --user-sample J|default [--seeds 'a:b,…'] [--clips N]`: one
/// session of the ACM MM'22 short-video challenge's simulator, reproduced exactly (``MMGC22Run``), printing its
/// five figures. See docs/mmgc22-profile.md.
enum MMGC22Command {
    static let spec = CommandSpec(
        name: "abrsim mmgc22", summary: "the MM'22 short-video challenge's simulator exactly: one session",
        options: [
            .option(
                "data", valueName: "DIR",
                help: "the challenge's data folder (network_traces, short_video_size, user_ret)"),
            .option("algorithm", valueName: "NAME", help: "no_save, fixed_preload or solution (the template)"),
            .option("family", valueName: "NAME", help: "trace family: high, low, medium or mixed"),
            .option("trace", valueName: "N", help: "trace index in the family (0-based, load_trace's order)"),
            .option("user-sample", valueName: "J|default", help: "test_user_samples' user J, or run.py's fixed user"),
            .option("seeds", valueName: "a:b,…", help: "the user's seed pairs directly (replaces --user-sample)"),
            .option(
                "clips", valueName: "N",
                help: "play N clips cycling through the data's, with the users drawn for N clips (default: each once)"),
            .option(
                "last-chunk-levels", valueName: "l0|l1|…",
                help:
                    "run.py's last_chunk_bitrate before the run, as --last-chunk-levels=-1|2|… (default: all -1, a fresh process)"
            ),
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        func required(_ name: String) throws -> String {
            guard let value = parsed.value(name) else {
                throw InputError(.option("--\(name)"), .required())
            }
            return value
        }
        let data = try required("data")
        let algorithmName = try required("algorithm")
        guard let algorithm = MMGC22Algorithm(rawValue: algorithmName) else {
            throw InputError(
                .option("--algorithm"),
                .unknownName(algorithmName, kind: "algorithm", known: MMGC22Algorithm.allCases.map(\.rawValue)))
        }
        let family = try required("family")
        guard MMGC22Run.families.contains(family) else {
            throw InputError(
                .option("--family"),
                .unknownName(family, kind: "family", known: MMGC22Run.families))
        }
        let traceText = try required("trace")
        guard let trace = Int(traceText), trace >= 0 else {
            throw InputError(
                .option("--trace"), .isNot("a trace index (an integer ≥ 0)", subject: nil, found: "'\(traceText)'"))
        }
        let user: MMGC22Run.User
        if let seeds = parsed.value("seeds") {
            user = .seeds(try MMGC22Run.parseSeeds(seeds))
        } else {
            let sample = try required("user-sample")
            if sample == "default" {
                user = .defaultUser
            } else if let index = Int(sample), (0..<MMGC22Users.sampleSeedCount).contains(index) {
                user = .sample(index)
            } else {
                throw InputError(
                    .option("--user-sample"),
                    .isNot(
                        "'default' or a sample 0…\(MMGC22Users.sampleSeedCount - 1)", subject: nil, found: "'\(sample)'"
                    ))
            }
        }
        let levels = try parsed.value("last-chunk-levels").map(MMGC22Run.parseLevels)
        let clipCount = try parsed.value("clips").map { text in
            guard let count = Int(text), count >= 1 else {
                throw InputError(
                    .option("--clips"), .isNot("a number of clips (an integer ≥ 1)", subject: nil, found: "'\(text)'"))
            }
            return count
        }
        let run = MMGC22Run(
            dataFolder: data, algorithm: algorithm, family: family, traceIndex: trace, user: user,
            lastChunkLevels: levels, clipCount: clipCount)
        writeStandardOutput(MMGC22Run.printed(try run.run()))
        return 0
    }
}
