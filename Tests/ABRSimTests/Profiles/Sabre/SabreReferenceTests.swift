import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The sabre profile against the real sabre's outputs (`Tests/Fixtures/reference/sabre/`): the 369 shared
/// reference runs, the extra runs over other networks, the 4K movie and other flags, and sabre's `-v` logs
/// line for line. All in process: one network and movie read per file, one ``SabreSimulation`` per run.
@Suite("the sabre profile against sabre's outputs")
struct SabreReferenceTests {
    static let fixtures = TestPaths.packageRoot + "/Tests/Fixtures/reference/sabre"
    static let data = TestPaths.packageRoot + "/scenarios/data"

    /// The repository copy of a network or movie named as in sabre's checkout (`results.csv`).
    static func localPath(_ sabrePath: String) -> String {
        if sabrePath == "example/network.json" { return data + "/traces/sabre/example-network.json" }
        if sabrePath == "example/movie.json" { return data + "/content/sabre/bbb.json" }  // same JSON as bbb.json
        if sabrePath.hasPrefix("example/mmsys18/3Glogs/") {
            return data + "/traces/sabre/3g/" + sabrePath.dropFirst("example/mmsys18/3Glogs/".count)
        }
        if sabrePath.hasPrefix("example/mmsys18/4Glogs/") {
            return data + "/traces/sabre/4g/" + sabrePath.dropFirst("example/mmsys18/4Glogs/".count)
        }
        return data + "/content/sabre/" + sabrePath.dropFirst("example/mmsys18/".count)
    }

    static func table(_ path: String) throws -> CSVTable {
        try CSVTable.parse(try InputFile.readAll(path), file: path)
    }

    /// Runs sabre's `arguments` (paths already in the repository) in process, caching parsed inputs.
    final class Runner {
        var networks: [String: [SabreNetworkPeriod]] = [:]
        var movies: [String: SabreManifest] = [:]

        func run(_ arguments: [String]) throws -> SabreResult {
            let options = try #require(try SabreCommandLine.parse(arguments))
            var movie = try movies[options.movie] ?? SabreManifest.read(path: options.movie)
            movies[options.movie] = movie
            if let length = options.movieLengthSeconds { movie = try #require(movie.repeated(toSeconds: length)) }
            var network = try networks[options.network] ?? SabreNetworkTrace.read(path: options.network)
            networks[options.network] = network
            for i in network.indices { network[i].bandwidthKbps *= options.networkMultiplier }
            return try SabreSimulation.run(options: options, network: network, manifest: movie)
        }
    }

    /// Every printed value within 1e-6 of the reference (the reference is printed to 6 decimals).
    static func compare(_ result: SabreResult, _ row: [String], columns: [String], label: String) {
        for (position, name) in SabreResult.metricNames.enumerated() {
            guard let column = columns.firstIndex(of: name) else {
                Issue.record("no column \(name)")
                return
            }
            let expected = Double(row[column])
            let actual = Double(result.values[position])
            guard let expected, let actual else {
                Issue.record("\(label): \(name): unreadable \(row[column]) / \(result.values[position])")
                continue
            }
            #expect(
                abs(expected - actual) <= 1e-6,
                "\(label): \(name): sabre \(row[column]), ours \(result.values[position])")
        }
    }

    @Test("all 369 shared sabre reference runs match every metric to the printed digit")
    func all369SharedReferenceRunsMatchEveryMetric() throws {
        let table = try Self.table(Self.fixtures + "/results.csv")
        #expect(table.rows.count == 369)
        let column = { (name: String) in table.columns.firstIndex(of: name)! }
        let runs = table.rows.map { row in
            [
                "-n", Self.localPath(row[column("network")]), "-m", Self.localPath(row[column("movie")]), "-a",
                row[column("abr")],
            ] + row[column("options")].split(separator: " ").map(String.init)
        }
        // Inputs read once, runs on all cores (each run is independent).
        let networkPaths = Array(Set(runs.map { $0[1] })).sorted()
        let networks = try parallelMap(count: networkPaths.count, jobs: 4) {
            try SabreNetworkTrace.read(path: networkPaths[$0])
        }
        let network = Dictionary(uniqueKeysWithValues: zip(networkPaths, networks))
        let movie = try SabreManifest.read(path: Self.data + "/content/sabre/bbb.json")
        let results = try parallelMap(count: runs.count, jobs: 4) { index in
            let options = try SabreCommandLine.parse(runs[index])!
            return try SabreSimulation.run(options: options, network: network[runs[index][1]]!, manifest: movie)
        }
        var exact = 0
        for (row, (arguments, result)) in zip(table.rows, zip(runs, results)) {
            Self.compare(result, row, columns: table.columns, label: arguments.joined(separator: " "))
            exact += zip(SabreResult.metricNames, result.values).filter { row[column($0.0)] == $0.1 }.count
        }
        // Not only within 1e-6: the same digits as sabre printed, every one.
        #expect(exact == 369 * 24)
    }

    @Test("the extra sabre runs over other networks, movies and flags match every metric within 1e-6")
    func extraRunsOnOtherNetworksMoviesAndFlagsMatch() throws {
        let table = try Self.table(Self.fixtures + "/extra/extra.csv")
        #expect(table.rows.count >= 100)
        let runner = Runner()
        var flags = Set<String>()
        for row in table.rows {
            let arguments = row[0].split(separator: " ").map { word in
                word.hasPrefix("scenarios/") ? TestPaths.packageRoot + "/" + word : String(word)
            }
            flags.formUnion(arguments.filter { $0.hasPrefix("-") })
            Self.compare(try runner.run(arguments), row, columns: table.columns, label: row[0])
        }
        for flag in [
            "-b", "-noa", "-ma", "-ws", "-hl", "-gp", "-ao", "-ab", "-noibr", "-r", "-nm", "-ml", "-rmp", "-s",
        ] {
            #expect(flags.contains(flag), "extra.csv exercises \(flag)")
        }
    }

    @Test("sabre's verbose logs, abandonments included, are matched line for line")
    func verboseLogsMatchSabreLineForLine() throws {
        let runs = try String(decoding: InputFile.readAll(Self.fixtures + "/verbose/runs.txt"), as: UTF8.self)
        let runner = Runner()
        var abandonments = 0
        var count = 0
        for line in runs.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            let arguments = parts[1].split(separator: " ").map { word in
                word.hasPrefix("scenarios/") ? TestPaths.packageRoot + "/" + word : String(word)
            }
            let expected = try String(
                decoding: InputFile.readAll(Self.fixtures + "/verbose/\(parts[0]).txt"), as: UTF8.self)
            let actual = try runner.run(arguments).printed
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(expectedLines.count == actualLines.count, "\(parts[0]): line count")
            if let first = zip(expectedLines, actualLines).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record(
                    "\(parts[0]) line \(first.offset + 1): sabre '\(first.element.0)', ours '\(first.element.1)'")
            }
            abandonments += expectedLines.filter { $0.contains("ABANDONED") }.count
            count += 1
        }
        #expect(count >= 3)
        #expect(abandonments > 0)
    }
}
