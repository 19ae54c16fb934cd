import ABRSim

/// `abrsim check [SCENARIO|DIR ...] [--junit FILE] [--jobs N]`: runs scenarios and checks their `expect`
/// lists, for CI. One line per (expectation, player), then `N passed, M failed`. Exit 0 when every expectation
/// holds, 1 when any fails, 2 on bad input (reported before anything runs).
enum CheckCommand {
    static let spec = CommandSpec(
        name: "abrsim check", summary: "run scenarios and check their expectations (exit 1 if any fails)",
        positionals: [
            PositionalSpec(
                "SCENARIO", help: "scenario file, or folder searched recursively for *.json", isVariadic: true)
        ],
        options: [
            .option("junit", valueName: "FILE", help: "also write the results as JUnit XML to FILE"),
            .option("jobs", valueName: "N", help: "scenarios run at once (default: the number of cores)"),
            .option(
                "seed", valueName: "N", help: "seed of every random stream of every scenario (default: each one's)"),
            setOption,
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let jobs = try parsed.int("jobs", in: 1...maximumJobs) ?? min(availableCores, maximumJobs)
        let junitPath = parsed.value("junit")
        if let junitPath, junitPath.isEmpty || junitPath.hasSuffix("/") {
            throw InputError(.option("--junit"), .expected("a file name", found: "'\(junitPath)'"))
        }
        if let junitPath { try OutputPath.checkFile(junitPath, option: "--junit") }
        let suite = try ExpectationSuite.load(
            parsed.positionalValues("SCENARIO"), loader: scenarioLoader(parsed), seed: try parsed.seed())
        let results = try suite.run(jobs: jobs)
        for scenario in suite.scenarios {
            printWarnings(SettingWarnings.scenario(scenario), command: "abrsim check")
        }
        var text = ""
        for (scenario, scenarioResults) in zip(suite.scenarios, results) {
            if scenario.expectations.isEmpty { writeStandardError("abrsim check: \(scenario.file): no expectations\n") }
            for result in scenarioResults { text += result.line + "\n" }
        }
        let all = results.joined()
        let failed = all.filter { !$0.passed }.count
        text += "\(all.count - failed) passed, \(failed) failed\n"
        if let junitPath {
            let directory = InputFile.directory(of: junitPath)
            if directory != "." { try AtomicFileWriter.createDirectory(directory) }
            try AtomicFileWriter.write(Array(junitReport(suite, results).xml.utf8), to: junitPath)
        }
        writeStandardOutput(text)
        return failed == 0 ? 0 : 1
    }

    /// One JUnit suite per scenario file, one case per (expectation, player).
    static func junitReport(_ suite: ExpectationSuite, _ results: [[ExpectationResult]]) -> JUnitReport {
        let suites = zip(suite.scenarios, results).map { scenario, scenarioResults in
            JUnitReport.Suite(
                name: scenario.file,
                cases: scenarioResults.map { result in
                    JUnitReport.TestCase(
                        name: result.caseName, className: result.file, failure: result.failureMessage,
                        failureDetail: result.failureMessage.map {
                            "\(result.line)\nplayer \(result.player) (policy \(result.policy)): \($0)"
                                + "\nexpectation at \(result.file): \(result.expectation.location)"
                        } ?? "")
                })
        }
        return JUnitReport(name: "abrsim check", suites: suites)
    }
}
