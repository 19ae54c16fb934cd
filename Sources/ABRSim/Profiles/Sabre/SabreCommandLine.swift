/// Sabre's command line (`src/sabre.py`'s argparse options, same names, forms and defaults), for `abrsim sabre`,
/// the drop-in replacement of `python3 src/sabre.py`: short (`-b 60`) and long (`--max-buffer 60`,
/// `--max-buffer=60`, unique prefixes such as `--max-b`) forms, repeated options keep the last value, `-ws` and
/// `-hl` take one or more values, `-s` two. Every mistake, and every sabre feature ABRSim does not run (a `.py`
/// ABR or replacement module, the `bba` stub that raises `NotImplementedError`), is an ``InputError`` naming the
/// option (exit 2).
public enum SabreCommandLine {
    enum Kind {
        case flag, text, float, int, floats, ints, pair
    }

    struct Option {
        let short: String
        let long: String
        let kind: Kind
        let help: String
    }

    static let options: [Option] = [
        Option(short: "-n", long: "--network", kind: .text, help: "NETWORK: the network trace JSON (network.json)"),
        Option(short: "-nm", long: "--network-multiplier", kind: .float, help: "MULTIPLIER: scale bandwidth (1)"),
        Option(short: "-m", long: "--movie", kind: .text, help: "MOVIE: the movie JSON (movie.json)"),
        Option(short: "-ml", long: "--movie-length", kind: .float, help: "LEN: movie length, s (the movie's)"),
        Option(
            short: "-a", long: "--abr", kind: .text,
            help: "ABR: bola, bolae, throughput, dynamic, dynamicdash (bolae)"),
        Option(short: "-ab", long: "--abr-basic", kind: .flag, help: "the ABR's basic form"),
        Option(short: "-ao", long: "--abr-osc", kind: .flag, help: "the ABR's oscillation-minimising form"),
        Option(short: "-gp", long: "--gamma-p", kind: .float, help: "GAMMAP: BOLA's γp, s (5)"),
        Option(
            short: "-noibr", long: "--no-insufficient-buffer-rule", kind: .flag,
            help: "no insufficient-buffer rule"),
        Option(short: "-ma", long: "--moving-average", kind: .text, help: "AVERAGE: ewma or sliding (ewma)"),
        Option(short: "-ws", long: "--window-size", kind: .ints, help: "WINDOW_SIZE...: sliding windows ([3])"),
        Option(short: "-hl", long: "--half-life", kind: .floats, help: "HALF_LIFE...: EWMA half-lives, s ([3, 8])"),
        Option(short: "-s", long: "--seek", kind: .pair, help: "WHEN SEEK: seek at WHEN s to SEEK s"),
        Option(short: "-r", long: "--replace", kind: .text, help: "REPLACEMENT: none, left, right (none)"),
        Option(short: "-b", long: "--max-buffer", kind: .float, help: "MAXBUFFER: maximum buffer, s (25)"),
        Option(short: "-noa", long: "--no-abandon", kind: .flag, help: "no abandonment"),
        Option(
            short: "-rmp", long: "--rampup-threshold", kind: .int,
            help: "THRESHOLD: quality that counts as ramped up (the network's)"),
        Option(short: "-v", long: "--verbose", kind: .flag, help: "the per-download log"),
    ]

    /// The `-h` text.
    public static var usage: String {
        var text = "Usage: abrsim sabre [-n NETWORK] [-m MOVIE] [-a ABR] [options]\n"
        text += "Runs sabre's simulator (MMSys'18, src/sabre.py) exactly; same flags, same output.\n\nOptions:\n"
        for option in options {
            let names = option.short + ", " + option.long
            text += "  " + names + String(repeating: " ", count: max(1, 38 - names.count)) + option.help + "\n"
        }
        return text
    }

    /// Sabre's options from `arguments`, or `nil` for `-h`/`--help`.
    public static func parse(_ arguments: [String]) throws -> SabreOptions? {
        var result = SabreOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return nil }
            var name = argument
            var attached: String? = nil
            if argument.hasPrefix("-"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            let option = try find(name, original: argument)
            var values: [String] = []
            if let attached { values.append(attached) }
            switch option.kind {
            case .flag:
                guard attached == nil else {
                    throw InputError(.option(option.short), .expected("no value", found: "'\(attached ?? "")'"))
                }
            case .text, .float, .int:
                if values.isEmpty {
                    guard index < arguments.count, isValue(arguments[index]) else {
                        throw InputError(.option(option.short), .expected("one argument", found: "none"))
                    }
                    values.append(arguments[index])
                    index += 1
                }
            case .floats, .ints:
                while attached == nil, index < arguments.count, isValue(arguments[index]) {
                    values.append(arguments[index])
                    index += 1
                }
                guard !values.isEmpty else {
                    throw InputError(.option(option.short), .expected("at least one argument", found: "none"))
                }
            case .pair:
                while values.count < 2, attached == nil, index < arguments.count, isValue(arguments[index]) {
                    values.append(arguments[index])
                    index += 1
                }
                guard values.count == 2 else {
                    throw InputError(.option(option.short), .expected("2 arguments", found: "\(values.count)"))
                }
            }
            try apply(option, values, to: &result)
        }
        return result
    }

    /// Whether `text` is an option's value rather than an option (argparse: not starting with `-`, or a negative
    /// number).
    static func isValue(_ text: String) -> Bool {
        guard text.hasPrefix("-") else { return true }
        return Double(text) != nil && text.count > 1
    }

    static func find(_ name: String, original: String) throws -> Option {
        if let exact = options.first(where: { $0.short == name || $0.long == name }) { return exact }
        if name.hasPrefix("--"), name.count > 2 {
            let matches = options.filter { $0.long.hasPrefix(name) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw InputError(
                    InputPlace(position: InputPlace.Position(text: name)),
                    .expected(
                        "a unique option prefix", found: "a prefix of \(listedAsAlternatives(matches.map(\.long)))"))
            }
        }
        throw InputError(
            InputPlace(position: InputPlace.Position(text: original)),
            .unknownName(original, kind: "argument", known: options.map(\.short)))
    }

    static func float(_ text: String, _ option: Option) throws -> Double {
        guard let value = Double(text.trimmingWhitespace()) else {
            throw InputError(.option(option.short), .expected("a float", found: "'\(text)'"))
        }
        guard value.isFinite else {
            throw InputError(.option(option.short), .mustBe(nil, rule: "finite", found: "'\(text)'"))
        }
        return value
    }

    static func int(_ text: String, _ option: Option) throws -> Int {
        guard let value = Int(text.trimmingWhitespace()) else {
            throw InputError(.option(option.short), .expected("an integer", found: "'\(text)'"))
        }
        return value
    }

    /// What is wrong with a movie length of `seconds` (`-ml`) that repeats the movie to no segment or to more than
    /// sabre's runs take.
    static func movieLengthOutOfRange(_ seconds: Double) -> InputProblem {
        .outOfRange(what: "a length", bound: "of 1 to 10,000,000 segments", found: JSONPath.format(seconds), unit: "s")
    }

    static func apply(_ option: Option, _ values: [String], to result: inout SabreOptions) throws {
        let value = values.first ?? ""
        switch option.short {
        case "-n": result.network = value
        case "-m": result.movie = value
        case "-nm":
            let multiplier = try float(value, option)
            guard multiplier > 0 else {
                throw InputError(
                    .option("-nm"),
                    .unsupported(
                        by: "sabre", supports: "a multiplier > 0", found: "'\(value)'", reason: "it loops forever at 0")
                )
            }
            result.networkMultiplier = multiplier
        case "-ml": result.movieLengthSeconds = try float(value, option)
        case "-a":
            if value.hasSuffix(".py") {
                throw InputError(
                    .option("-a"),
                    .unsupported(
                        by: "abrsim sabre", supports: "built-in ABRs", found: "'\(value)'",
                        reason: "it runs no custom ABR module"))
            }
            if value == "bba" {
                throw InputError(
                    .option("-a"),
                    .unsupported(
                        by: "sabre", supports: "implemented ABRs", found: "'bba'",
                        reason: "its Bba raises NotImplementedError"))
            }
            guard let abr = SabreOptions.ABR(rawValue: value) else {
                throw InputError(
                    .option("-a"),
                    .unknownName(value, kind: "ABR", known: SabreOptions.ABR.allCases.map(\.rawValue)))
            }
            result.abr = abr
        case "-ab": result.abrBasic = true
        case "-ao": result.abrOsc = true
        case "-gp": result.gammaP = try float(value, option)
        case "-noibr": result.noInsufficientBufferRule = true
        case "-ma":
            guard let average = SabreOptions.Average(rawValue: value) else {
                throw InputError(
                    .option("-ma"), .oneOf(nil, allowed: SabreOptions.Average.allCases.map(\.rawValue), found: value))
            }
            result.movingAverage = average
        case "-ws": result.windowSize = try values.map { try int($0, option) }
        case "-hl": result.halfLife = try values.map { try float($0, option) }
        case "-s": result.seek = (try float(values[0], option), try float(values[1], option))
        case "-r":
            if value.hasSuffix(".py") {
                throw InputError(
                    .option("-r"),
                    .unsupported(
                        by: "abrsim sabre", supports: "built-in replacements", found: "'\(value)'",
                        reason: "it runs no custom replacement module"))
            }
            // Sabre: anything but left and right means no replacement.
            result.replace = SabreOptions.Replacement(rawValue: value) ?? .none
        case "-b":
            let seconds = try float(value, option)
            guard seconds > 0 else { throw InputError(.option("-b"), .mustBe(nil, rule: "> 0", found: "'\(value)'")) }
            result.maxBufferSeconds = seconds
            result.maxBufferGiven = true
        case "-noa": result.noAbandon = true
        case "-rmp": result.rampupThreshold = try int(value, option)
        case "-v": result.verbose = true
        default: break
        }
    }
}

extension SabreSimulation {
    /// Reads the movie and network `options` name (relative to the working directory, as sabre does), applies
    /// `-ml` and `-nm`, and runs.
    public static func run(options: SabreOptions) throws -> SabreResult {
        var manifest = try SabreManifest.read(path: options.movie)
        if let length = options.movieLengthSeconds {
            guard let cut = manifest.repeated(toSeconds: length) else {
                throw InputError(.option("-ml"), SabreCommandLine.movieLengthOutOfRange(length))
            }
            manifest = cut
        }
        let network = try SabreNetworkTrace.read(path: options.network, multiplier: options.networkMultiplier)
        return try run(options: options, network: network, manifest: manifest)
    }
}
