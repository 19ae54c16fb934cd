/// Many sabre runs at once, for `compare --profile sabre` and `sweep --profile sabre`: every policy on every
/// network, in parallel, each run exactly ``SabreSimulation``'s. A policy is a sabre ABR (`bola`, `bolae`,
/// `throughput`, `dynamic`, `dynamicdash`) whose parameters are sabre's flags without the dash: `bola(ao=1,ab=1)`
/// is `-a bola -ao -ab`; numbers as `gp=4`, `b=60`, `nm=0.5`, `ml=300`, `rmp=3`; `ma=sliding`; lists and pairs
/// space-separated (`hl=2 6`, `ws=3 5`, `s=60 30`); `r=left`. A flag given `0` or `false` is left out.
///
/// Rows come back policy-major, networks in the order given, whatever `jobs`; ``csv(_:)`` writes them as
/// `sabre.csv`: `network, movie, abr, options`, then sabre's 24 printed names with the values as sabre prints them.
public enum SabreBatch {
    /// One run's row.
    public struct Row: Sendable {
        /// The network file, as given.
        public var network: String
        /// The movie file, as given.
        public var movie: String
        /// The ABR (`-a`).
        public var abr: String
        /// The other sabre flags, space-separated, in the order given (`-ao -ab`).
        public var options: String
        /// What sabre printed.
        public var result: SabreResult
    }

    /// What `abrsim policies` says about the profile: what it changes and the policies and parameters it takes.
    public static let policiesHelp = """
        Under --profile sabre (compare, sweep) and in `abrsim sabre`, the model is sabre's (MMSys'18, src/sabre.py)
        instead of ABRSim's: one request at a time, latency per request, no startup threshold, segment 0 at the
        lowest quality, abandonment wastes the download and the ABR decides again; sabre.csv holds sabre's 24
        printed metrics (docs/sabre-profile.md). Its policies are sabre's own rules, not ABRSim's of the same name:
        bola — sabre's Bola: BOLA-U, ao=1 BOLA-O, ab=1 basic (no start/end buffer cap, no abandonment)
        bolae — sabre's BolaEnh: BOLA-E with placeholder and insufficient-buffer rule (noibr=1 turns it off)
        throughput — sabre's ThroughputRule: 0.9 × estimate, insufficient-buffer rule, 1.8 × segment abandonment
        dynamic — sabre's Dynamic: bola and throughput, switching at 10 s of buffer
        dynamicdash — sabre's DynamicDash: bolae and throughput, switching at 5 s / 10 s
            parameters: sabre's flags without the dash: ab, ao, noibr, noa (1 or 0); gp (5), b (25 s), nm (1),
            ml (movie), rmp (network's); ma (ewma|sliding); hl (3 8), ws (3), s (WHEN SEEK); r (none|left|right)

        """

    /// The sabre flags a policy's parameters may set, without their dash (all but `-n`, `-m`, `-a` and `-v`).
    static let policyFlags = SabreCommandLine.options.map { String($0.short.dropFirst()) }.filter {
        !["n", "m", "a", "v"].contains($0)
    }

    /// The `sabre.csv` columns.
    public static let columns = ["network", "movie", "abr", "options"] + SabreResult.metricNames

    /// Sabre's arguments for `spec` (without `-n`/`-m`): `-a NAME` first, then `common` (sabre flags given for
    /// every policy, after `--` on the command line), then the policy's flags in the order given.
    public static func arguments(_ spec: PolicySpec, common: [String] = [], source: String = "--policies") throws
        -> [String]
    {
        if let bad = common.first(where: {
            ["-n", "--network", "-m", "--movie", "-a", "--abr", "-v", "--verbose"].contains($0)
        }) {
            throw InputError(
                .option("--"),
                .within(
                    bad,
                    .notApplicable(
                        nil, onlyFor: nil, here: "the flags after --", hint: "--traces, --content and --policies set it"
                    ))
            )
        }
        var arguments = ["-a", spec.name] + common
        for (key, value) in spec.parameters {
            var name = key
            while name.hasPrefix("-") { name.removeFirst() }
            let flag = "-" + name
            guard let option = SabreCommandLine.options.first(where: { $0.short == flag }),
                !["-n", "-m", "-a", "-v"].contains(flag)
            else {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: source)),
                    .within("'\(spec.label)'", .unknownParameter(key, known: policyFlags)))
            }
            if option.kind == .flag {
                switch value.description {
                case "1", "true": arguments.append(flag)
                case "0", "false": break
                default:
                    throw InputError(
                        InputPlace(position: InputPlace.Position(text: source)),
                        .within(
                            "'\(spec.label)'", .within(key, .oneOf(nil, allowed: ["1", "0"], found: value.description)))
                    )
                }
            } else {
                arguments.append(flag)
                arguments += value.description.split(separator: " ").map(String.init)
            }
        }
        return arguments
    }

    /// Sabre's options for `spec` (with the `common` flags), checked as sabre's command line checks them.
    public static func options(_ spec: PolicySpec, common: [String] = [], source: String = "--policies") throws
        -> SabreOptions
    {
        do {
            return try SabreCommandLine.parse(arguments(spec, common: common, source: source))!
        } catch let error as InputError where error.location != source {
            let problem = error.location.map { .within($0, error.problem) } ?? error.problem
            throw InputError(
                InputPlace(position: InputPlace.Position(text: source)), .within("'\(spec.label)'", problem))
        }
    }

    /// Every spec on every network playing `movie`, with the sabre flags `common` for all, on up to `jobs` threads;
    /// with `runs`, only those positions of the policy-major grid (a shard), in that order.
    public static func run(
        networks: [String], movie: String, specs: [PolicySpec], common: [String] = [], runs: [Int]? = nil, jobs: Int
    ) throws -> [Row] {
        let parsed = try specs.map { spec in
            (spec, try options(spec, common: common), try arguments(spec, common: common).dropFirst(2))
        }
        let manifest = try SabreManifest.read(path: movie)
        let traces = try parallelMap(count: networks.count, jobs: jobs) { index in
            try SabreNetworkTrace.read(path: networks[index])
        }
        var manifests: [SabreManifest] = []
        for (spec, options, _) in parsed {
            guard let length = options.movieLengthSeconds else {
                manifests.append(manifest)
                continue
            }
            guard let cut = manifest.repeated(toSeconds: length) else {
                throw InputError(
                    .option("--policies"),
                    .within("'\(spec.label)'", .within("ml", SabreCommandLine.movieLengthOutOfRange(length))))
            }
            manifests.append(cut)
        }
        let cut = manifests
        let positions = runs ?? Array(0..<(parsed.count * networks.count))
        return try parallelMap(count: positions.count, jobs: jobs) { slot in
            let index = positions[slot]
            let position = index / networks.count
            var (_, options, flags) = parsed[position]
            options.network = networks[index % networks.count]
            options.movie = movie
            var periods = traces[index % networks.count]
            if options.networkMultiplier != 1 {
                for i in periods.indices { periods[i].bandwidthKbps *= options.networkMultiplier }
            }
            let result = try SabreSimulation.run(options: options, network: periods, manifest: cut[position])
            return Row(
                network: networks[index % networks.count], movie: movie, abr: options.abr.rawValue,
                options: flags.joined(separator: " "), result: result)
        }
    }

    /// `sabre.csv`.
    public static func csv(_ rows: [Row]) -> [UInt8] {
        var writer = CSVWriter(columns: columns)
        for row in rows {
            writer.beginRow()
            writer.append(row.network)
            writer.append(row.movie)
            writer.append(row.abr)
            writer.append(row.options)
            for value in row.result.values { writer.append(value) }
            writer.endRow()
        }
        return writer.takeBytes()
    }
}
