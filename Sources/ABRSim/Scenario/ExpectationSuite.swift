#if canImport(Glibc)
    import Glibc
#endif

/// A set of scenario files checked together, as `abrsim check` does: find the files, load every one (so bad
/// input is reported before anything runs), run them in parallel, and evaluate their expectations.
///
/// Results come back in file order whatever the number of threads, so the check's output is stable.
public struct ExpectationSuite: Sendable {
    /// The loaded scenarios, in file order.
    public var scenarios: [Scenario]

    /// A suite of already loaded scenarios.
    public init(scenarios: [Scenario]) {
        self.scenarios = scenarios
    }

    /// Finds and loads the scenarios `arguments` name (files, or folders searched recursively for `*.json`).
    /// Throws the first ``InputError`` (a missing path, an empty folder, a bad scenario). With `seed`, every
    /// scenario runs on that seed instead of its own (``ScenarioLoader/load(_:seed:)``).
    public static func load(_ arguments: [String], loader: ScenarioLoader = ScenarioLoader(), seed: UInt64? = nil)
        throws -> ExpectationSuite
    {
        ExpectationSuite(scenarios: try scenarioFiles(arguments).map { try loader.load($0, seed: seed) })
    }

    /// Runs every scenario (its own seed) on up to `jobs` threads and returns each scenario's results, in
    /// scenario order.
    public func run(jobs: Int, runner: ScenarioRunner = ScenarioRunner()) throws -> [[ExpectationResult]] {
        let scenarios = self.scenarios
        let registry = runner.registry
        return try parallelMap(count: scenarios.count, jobs: jobs) { index in
            // The checks read the summary, and segment records only for windowed expectations; no timeline rows.
            let windowed = scenarios[index].expectations.contains { $0.window != nil }
            let report = try ScenarioRunner(registry: registry).run(
                scenarios[index], recordsTimeline: false, keepsSegmentRecords: windowed)
            return try ExpectationEvaluator.evaluate(scenarios[index], report: report)
        }
    }

    /// The scenario files `arguments` name: a file as given; a folder becomes every `*.json` under it,
    /// recursively (hidden entries skipped), sorted by path. Duplicates are dropped; a missing path or a folder
    /// without scenarios is an error.
    public static func scenarioFiles(_ arguments: [String]) throws -> [String] {
        var files: [String] = []
        for argument in arguments {
            if InputFile.isDirectory(argument) {
                var found: [String] = []
                try collectJSON(in: argument, depth: 0, into: &found)
                guard !found.isEmpty else {
                    throw InputError(.file(argument), .noneGiven("*.json scenario", in: "the folder"))
                }
                files.append(contentsOf: found.sorted())
            } else {
                try InputFile.checkReadable(argument)
                files.append(argument)
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }

    /// Folders nested deeper than this are not searched (a guard against symbolic-link loops).
    static let maximumDepth = 32

    static func collectJSON(in directory: String, depth: Int, into files: inout [String]) throws {
        guard depth <= maximumDepth else { return }
        guard let handle = opendir(directory) else {
            throw InputError(
                .file(directory), .unreadable("cannot open the folder: \(String(cString: strerror(errno)))"))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        for name in names.sorted() {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if InputFile.isDirectory(path) {
                try collectJSON(in: path, depth: depth + 1, into: &files)
            } else if name.hasSuffix(".json") {
                files.append(path)
            }
        }
    }
}
