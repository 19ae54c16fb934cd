import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim trace …` driven through the built binary: statistics of the shipped traces, conversions that keep the
/// bits, generation, editing, and malformed files (exit 2, the file and the line on stderr, nothing on stdout).
@Suite("abrsim trace")
struct TraceCommandTests {
    /// `name: value` lines of `abrsim trace info`.
    static func info(_ path: String, _ extra: [String] = []) throws -> [String: String] {
        let outcome = try runABRSim(["trace", "info", path] + extra)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        var values: [String: String] = [:]
        for line in outcome.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            values[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    @Test(
        "trace info of each shipped mahimahi trace gives the published mean and seconds at zero, with every statistic",
        arguments: [
            // Mean Mbit/s and seconds at zero from scenarios/data/traces/mahimahi/README.md (EV-DO's mean to three
            // figures from reference-literature.md §4.1, where the README rounds it to 0.52).
            ("TMobile-LTE-short.down", 16.70, 0.0), ("Verizon-LTE-short.down", 5.03, 0),
            ("ATT-LTE-driving-2016.down", 4.56, 0), ("TMobile-UMTS-driving.down", 2.02, 32),
            ("Verizon-EVDO-driving.down", 0.521, 43),
        ])
    func infoMatchesTheDataReadme(file: String, meanMbps: Double, zeroSeconds: Double) throws {
        let values = try Self.info(TestPaths.scenarios + "/traces/" + file)
        let mean = try #require(Double(values["mean_kbps"] ?? "")) / 1000
        // Three significant figures.
        let unit = mean >= 10 ? 0.1 : mean >= 1 ? 0.01 : 0.001
        #expect((mean / unit).rounded() == (meanMbps / unit).rounded(), "\(mean)")
        #expect(Double(values["zero_s"] ?? "") == zeroSeconds)
        for key in ["duration_s", "sd_kbps", "p5_kbps", "p50_kbps", "p95_kbps"] { #expect(values[key] != nil) }
        #expect(values["format"] == "mahimahi")
    }

    @Test("the largest trace converts to sabre and back to mahimahi through the binary, keeping its bits")
    func theLargestTraceConvertsThroughTheBinaryAndBack() throws {
        let folder = TestPaths.scratch("convert")
        let source = TestPaths.scenarios + "/traces/TMobile-LTE-short.down"
        let json = folder + "/t.json"
        let back = folder + "/t.down"
        for (input, format, out) in [(source, "sabre", json), (json, "mahimahi", back)] {
            let outcome = try runABRSim(["trace", "convert", input, "--to", format, "--out", out])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty)
            #expect(try TraceFormat.detect(path: out).rawValue == format)
        }
        let before = try TraceReader.read(path: source).totalBits
        let after = try TraceReader.read(path: back).totalBits
        #expect(abs(after - before) <= 1e-3 * before)
    }

    @Test("trace generate writes the same trace for the same seed, lasting what was asked")
    func generateWritesTheSameTraceForTheSameSeed() throws {
        let model =
            #"{"model": "lognormal", "meanKbps": 2000, "spread": 0.4, "outages": {"perMinute": 1, "meanSeconds": 3}}"#
        let one = try runABRSim(["trace", "generate", model, "--seconds", "120", "--seed", "5", "--to", "pensieve"])
        let two = try runABRSim(["trace", "generate", model, "--seconds", "120", "--seed", "5", "--to", "pensieve"])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == two.standardOutput && !one.standardOutput.isEmpty)
        let path = writeFile(TestPaths.scratch("gen"), "g.txt", one.standardOutput)
        let trace = try TraceReader.read(path: path)
        #expect(abs(trace.duration - 120) < 1e-9)
    }

    @Test("trace concat, scale and slice make a walk with the hand-computed rates, latency and lengths")
    func concatScaleAndSliceMakeTheWalk() throws {
        let folder = TestPaths.scratch("walk")
        let lte = TestPaths.scenarios + "/traces/Verizon-LTE-short.down"
        let walk = folder + "/walk.csv"
        var outcome = try runABRSim([
            "trace", "concat", "preset:wifi=30", "outage=2", lte + "=60", "outage=3", "preset:3g=100", "--out", walk,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let trace = try TraceReader.read(path: walk)
        #expect(trace.duration == 195)
        let curve = try trace.curve(atEnd: .hold)
        #expect(curve.rate(at: 10) == 40e6 && curve.rate(at: 31) == 0 && curve.rate(at: 150) == 780e3)
        #expect(curve.latency(at: 10) == 0.002)
        // Scale by ½ then slice out the 3G stretch: 100 s at 390 kbit/s.
        let half = folder + "/half.csv"
        outcome = try runABRSim(["trace", "scale", walk, "--factor", "0.5", "--out", half])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let threeG = folder + "/3g.csv"
        outcome = try runABRSim(["trace", "slice", half, "--start", "95", "--end", "195", "--out", threeG])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let values = try Self.info(threeG)
        #expect(values["mean_kbps"] == "390" && values["duration_s"] == "100")
    }

    @Test("trace presets lists every preset with its rates")
    func presetsListEveryPreset() throws {
        let outcome = try runABRSim(["trace", "presets"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == NetworkPreset.catalogue.count + 1)
        #expect(lines.contains { $0.hasPrefix("fast-4g") && $0.contains("8100") && $0.contains("165.0") })
    }

    /// Malformed files in every format: the contents, the format option, and the line the message must name.
    @Test(
        "a malformed trace in any format makes trace info exit 2 with one line naming the file and line",
        arguments: [
            ("truncated.down", "100\n200\n3", [String](), "line 3"),  // a cut-off last line goes back in time
            ("text.down", "100\n2x0\n", [], "line 2"),
            ("decreasing.down", "100\n200\n150\n", [], "line 3"),
            ("nan.down", "100\nnan\n", ["--format", "mahimahi"], "line 2"),
            ("truncated.txt", "0 1.5\n1 2.5\n2\n", [], "line 3"),
            ("text.txt", "0 1.5\n1 fast\n", [], "line 2"),
            ("decreasing.txt", "0 1.5\n2 2.5\n1 2.5\n", [], "line 3"),
            ("nan.txt", "0 1.5\n1 NaN\n", [], "line 2"),
            ("truncated.csv", "time_s,bandwidth_kbps\n0,100\n1,\n", [], "line 3"),
            ("text.csv", "time_s,bandwidth_kbps\n0,100\nabc,5\n", [], "line 3"),
            ("decreasing.csv", "time_s,bandwidth_kbps\n0,100\n5,100\n4,100\n", [], "line 4"),
            ("nan.csv", "time_s,bandwidth_kbps\n0,nan\n1,100\n", [], "line 2"),
            (
                "truncated.json", "[{\"duration_ms\": 1000, \"bandwidth_kbps\": 500},\n {\"duration_ms\": 10", [],
                "line 2"
            ),
            ("text.json", "[{\"duration_ms\": 1000,\n \"bandwidth_kbps\": \"fast\"}]", [], "line 2"),
            (
                "decreasing.json",
                "[{\"duration_ms\": 1000, \"bandwidth_kbps\": 5},\n{\"duration_ms\": -5, \"bandwidth_kbps\": 5}]",
                [], "line 2"
            ),
            ("nan.json", "[{\"duration_ms\": 1000, \"bandwidth_kbps\": NaN}]", [], "line 1"),
        ])
    func malformedFilesExitTwoNamingTheFileAndLine(name: String, text: String, options: [String], line: String) throws {
        let path = writeFile(TestPaths.scratch("bad"), name, text)
        let outcome = try runABRSim(["trace", "info", path] + options)
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardError.contains(path) && outcome.standardError.contains(line), "\(outcome.standardError)")
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    /// A 2 GB file (sparse: a hole, no disk used) is never read into memory: a line reader gives up after 1 MiB
    /// without a line end, and a sabre JSON file is refused by its size.
    @Test("a 2 GiB trace is refused quickly in every format, by line length or size")
    func aTwoGigabyteFileIsRefusedQuickly() throws {
        let folder = TestPaths.scratch("huge")
        let path = folder + "/huge.down"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("[".utf8)))
        #expect(truncate(path, 2 << 30) == 0)
        let start = Date()
        for options in [[], ["--format", "mahimahi"], ["--format", "pensieve"], ["--format", "csv"]] {
            let outcome = try runABRSim(["trace", "info", path] + options)
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains(path) && outcome.standardError.contains("line 1"))
            #expect(outcome.standardError.contains("more than the limit of 1048576 bytes"), "\(outcome.standardError)")
        }
        let sabre = try runABRSim(["trace", "info", path, "--format", "sabre"])
        #expect(sabre.status == 2)
        #expect(sabre.standardError.contains(path) && sabre.standardError.contains("limit"), "\(sabre.standardError)")
        #expect(Date().timeIntervalSince(start) < 10 * TestPaths.timeScale)
    }

    @Test("bad trace subcommands, formats, factors, ranges, models or paths exit 2 with a message")
    func badArgumentsExitTwo() throws {
        let trace = TestPaths.scenarios + "/traces/norway_tram_1"
        for arguments in [
            ["trace", "frobnicate"], ["trace", "convert", trace], ["trace", "convert", trace, "--to", "xml"],
            ["trace", "scale", trace, "--factor", "-2"], ["trace", "slice", trace, "--start", "5", "--end", "1"],
            ["trace", "generate", #"{"model": "lognormal", "meanKbps": 5}"#],
            ["trace", "info", "/no/such/trace"],
        ] {
            let outcome = try runABRSim(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardOutput.isEmpty && !outcome.standardError.isEmpty, "\(arguments)")
        }
    }
}
