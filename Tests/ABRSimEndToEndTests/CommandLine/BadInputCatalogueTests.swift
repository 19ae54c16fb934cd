import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The catalogue of bad inputs (issue 7, item 2): the built `abrsim` run as a user would over every malformed
/// file in `Tests/Fixtures/bad/` (each named for what is wrong) and over generated ones (a 1 GB sparse file, an
/// unreadable file). Each must end with exit status 2 and exactly one line on stderr naming the file and the line
/// or JSON path, with no crash report, nothing on stdout and nothing written. `docs/reliability/bad-inputs.md`
/// lists the cases and their messages; BOM and CRLF files that are otherwise fine are accepted ("good despite").
@Suite("the bad-input catalogue")
struct BadInputCatalogueTests {
    /// The fixtures folder; every command runs in it, so paths in the table are relative to it.
    static let fixtures = TestPaths.packageRoot + "/Tests/Fixtures/bad"
    /// Stands for the case's scratch output folder in argument lists.
    static let out = "{OUT}"

    /// One bad input: the fixture (named for what is wrong), the command line, and what the message must say.
    struct Case: CustomTestStringConvertible, Sendable {
        var fixture: String
        var arguments: [String]
        /// Fragments the one line on stderr must contain: the file name and the line or JSON path, at least.
        var mentions: [String]
        var testDescription: String { fixture }
    }

    static func run(_ fixture: String, _ mentions: String...) -> Case {
        Case(
            fixture: fixture, arguments: ["run", fixture, "--out", out + "/results", "--plots", out + "/plots"],
            mentions: [fixture] + mentions)
    }

    static func info(_ fixture: String, _ mentions: String...) -> Case {
        Case(fixture: fixture, arguments: ["trace", "info", fixture], mentions: [fixture] + mentions)
    }

    /// `compare` over a good trace with `fixture` as the content.
    static func content(_ fixture: String, _ mentions: String...) -> Case {
        Case(
            fixture: fixture,
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--content", fixture, "--policies", "bba", "--out",
                out + "/results", "--plots", out + "/plots",
            ], mentions: mentions)
    }

    static let cases: [Case] = [
        // Scenario JSON: syntax, encoding, structure.
        run("scenario-empty.json", "line 1, column 1", "empty document"),
        run("scenario-whitespace-only.json", "line 4, column 1", "empty document"),
        run("scenario-duplicate-key.json", "line 6, column 3", "duplicate key \"name\""),
        run("scenario-trailing-comma.json", "line 5, column 54", "trailing comma"),
        run("scenario-truncated.json", "line 4, column 3", "unterminated string"),
        run("scenario-deeply-nested.json", "line 1, column 95", "nested deeper than 64 levels"),
        run("scenario-invalid-utf8.json", "line 2, column 13", "invalid UTF-8"),
        run("scenario-utf16.json", "line 1, column 1", "invalid UTF-8"),
        run("scenario-binary-garbage.json", "line 1, column 1", "U+0000"),
        run("scenario-nul-in-string.json", "line 2, column 13", "control character U+0000"),
        run("scenario-preset-name-with-newline.json", "$.network.preset:", "U+000A"),
        run("scenario-not-an-object.json", "$:", "expected an object, found an array"),
        run("scenario-players-not-an-array.json", "$.players:", "expected an array, found an object"),
        run("scenario-missing-players.json", "$:", "missing key \"players\""),
        run("scenario-unknown-key.json", "$:", "unknown key \"colour\""),
        run("scenario-wrong-type-segments.json", "$.content.segments:", "expected an integer, found a string"),
        // Numbers: huge, NaN, infinities, negative durations and rates.
        run("scenario-huge-number.json", "line 4, column 60", "out of range: 1e400"),
        run("scenario-huge-segment-count.json", "$.content:", "more than the limit of 1000000"),
        run("scenario-huge-duration-seconds.json", "$.content.durationSeconds:", "0.001…10000000, found 1e+300"),
        run("scenario-nan.json", "line 4, column 60", "'NaN'"),
        run("scenario-infinity.json", "line 6, column 22", "'Infinity'"),
        run("scenario-negative-duration.json", "$.durationSeconds:", "0.001…10000000, found -5"),
        run("scenario-negative-segment-seconds.json", "$.content.segmentSeconds:", "0.001…3600, found -4"),
        run("scenario-negative-rate.json", "$.players[0].rate:", "0.01…100, found -1"),
        run("scenario-negative-constant-kbps.json", "$.network.stretches[0].constantKbps:", "0…100000000, found -100"),
        run("scenario-negative-ladder-rate.json", "$.content.ladderKbps:", "positive"),
        run("scenario-stretch-too-short.json", "$.network.stretches[0].seconds:", "1e-06…10000000, found 1e-300"),
        run("scenario-synthetic-spread-overflows.json", "$.network.synthetic:", "mean or spread is too large"),
        run("scenario-expect-unknown-metric.json", "$.expect[0].metric", "happiness"),
        run("scenario-expect-window-backwards.json", "$.expect[0].toSeconds", "greater than fromSeconds 120"),
        run(
            "scenario-expect-window-on-startup.json", "$.expect[0].toSeconds", "is only for the windowed metrics"),
        // Files a scenario names: missing, a directory, inconsistent; the message gives the JSON path too.
        run("scenario-trace-missing.json", "$.network.trace:", "no-such-trace.down: no such file"),
        run("scenario-trace-is-a-directory.json", "$.network.trace:", "dossier réseau: is a directory"),
        run("scenario-hls-master-missing.json", "$.content.hlsMaster:", "no-such-master.m3u8: no such file"),
        run("scenario-sabre-movie-is-a-directory.json", "$.content.sabreMovie:", "is a directory"),
        run(
            "scenario-pensieve-sizes-ragged.json", "$.content.pensieveSizes:",
            "video_size_1: the number of segment sizes is 2, but"),
        run("scenario-pensieve-sizes-missing-file.json", "$.content.pensieveSizes:", "video_size_2: no such file"),
        Case(
            fixture: "scenario-pensieve-sizes-not-a-number.json",
            arguments: ["run", "scenario-pensieve-sizes-not-a-number.json", "--out", out + "/results"],
            mentions: ["pensieve-sizes-not-a-number/video_size_1: line 2", "5e3"]),
        // External policies that cannot be started (failures during a run fail the player instead; see below).
        run("scenario-external-policy-missing-program.json", "$.players[0].policy:", "cannot start"),
        run("scenario-external-policy-empty-command.json", "$.players[0].policy:", "the command must be non-empty"),
        // Paths with spaces and non-ASCII names; a directory or a missing file where a scenario is expected.
        run("dossier réseau/scénario vide.json", "line 1, column 1", "empty document"),
        run("dossier réseau", "is a directory"),
        run("no-such-scenario.json", "no such file"),
        // Traces, given directly to `abrsim trace info`.
        info("mahimahi-empty.down", "line 1", "empty trace: no line to tell its format by"),
        info("trace-blank-lines-only.down", "line 3", "empty trace: no line to tell its format by"),
        info("mahimahi-timestamps-out-of-order.down", "line 4", "must not decrease"),
        info("mahimahi-negative-timestamp.down", "line 2", "negative timestamp -5 ms"),
        info("mahimahi-fractional-timestamp.down", "line 3", "‘2.5’"),
        info("mahimahi-only-zero.down", "line 3", "above 0 ms (the trace's duration)"),
        info("mahimahi-huge-timestamp.down", "line 3", "more than the limit of 10000000 s"),
        info("mahimahi-timestamp-too-long.down", "line 3", "expected an integer millisecond timestamp"),
        info("pensieve-one-point.log", "line 1", "at least two lines"),
        info("pensieve-nan-rate.log", "line 2", "finite number, got nan"),
        info("pensieve-infinite-time.log", "line 3", "finite number, got inf"),
        info("pensieve-negative-rate.log", "line 2", "negative throughput"),
        info("pensieve-timestamps-out-of-order.log", "line 3", "timestamps must increase, got 1 s after 2 s"),
        info("pensieve-three-fields.log", "line 2", "found 3 fields"),
        info("pensieve-huge-time.log", "line 2", "more than the limit of 10000000 s"),
        info("pensieve-huge-rate.log", "line 2", "more than the limit of 10^15 bit/s"),
        info("sabre-not-an-array.json", "$:", "found an object"),
        info("sabre-empty-array.json", "$:", "needs at least one period"),
        info("sabre-negative-duration.json", "$[1].duration_ms:", "must be > 0"),
        info("sabre-duplicate-key.json", "line 2, column 49:", "duplicate key \"bandwidth_kbps\""),
        info("sabre-wrong-type.json", "$[0].bandwidth_kbps:", "found a string"),
        info("sabre-truncated.json", "line 3, column 21", "unexpected end of input"),
        info("sabre-nan.json", "line 2, column 43", "invalid value 'NaN'"),
        info("sabre-huge-number.json", "line 2, column 43", "number out of range: 1e999"),
        info("sabre-deeply-nested.json", "line 1, column 4", "nested deeper than 3 levels"),
        info("csv-header-only.csv", "line 1", "at least two rows"),
        info("csv-one-point.csv", "line 2", "at least two rows"),
        info("csv-unknown-column.csv", "line 1", "unknown column 'jitter_ms'"),
        info("csv-loss-above-one.csv", "line 3", "loss must be a fraction in [0, 1], got 1.5"),
        info("csv-timestamps-out-of-order.csv", "line 4", "timestamps must increase"),
        info("csv-infinite-bandwidth.csv", "line 3", "not a finite number"),
        info("csv-negative-latency.csv", "line 3", "negative latency"),
        info("csv-missing-field.csv", "line 3", "found 1"),
        info("trace-undetectable.bin", "line 1", "cannot tell the trace format"),
        info("dossier réseau/débit négatif.csv", "line 3", "negative bandwidth"),
        info("dossier réseau", "is a directory"),
        info("no-such-trace.down", "no such file"),
        // Content given to `abrsim compare --content`: HLS playlists, sabre movies, Pensieve size folders.
        content(
            "hls-master-no-bandwidth.m3u8", "hls-master-no-bandwidth.m3u8: line 2",
            "#EXT-X-STREAM-INF: missing BANDWIDTH"),
        content("hls-master-bad-resolution.m3u8", "hls-master-bad-resolution.m3u8: line 2", "RESOLUTION=wide"),
        content("hls-master-missing-media.m3u8", "hls-master-missing-media.m3u8: line 2", "no-such-media.m3u8"),
        content("hls-master-remote-uri.m3u8", "hls-master-remote-uri.m3u8: line 2", "remote"),
        content("hls-master-no-variants.m3u8", "hls-master-no-variants.m3u8", "no #EXT-X-STREAM-INF"),
        content("hls-master-live-media.m3u8", "hls-media-no-endlist.m3u8: line 6", "#EXT-X-ENDLIST by the last line"),
        content("hls-master-negative-extinf.m3u8", "hls-media-negative-extinf.m3u8: line 5", "must be positive"),
        content("sabre-movie-wrong-size-count.json", "sabre-movie-wrong-size-count.json", "$.segment_sizes_bits[1]:"),
        content("sabre-movie-descending-bitrates.json", "sabre-movie-descending-bitrates.json", "$.bitrates_kbps[1]:"),
        content("sabre-movie-negative-size.json", "sabre-movie-negative-size.json", "$.segment_sizes_bits[0][1]:"),
        content("pensieve-sizes-ragged", "pensieve-sizes-ragged/video_size_1", "the number of segment sizes is 2, but"),
        content("no-such-content.json", "no-such-content.json", "no such file"),
        // The other commands' input paths.
        Case(
            fixture: "pensieve-nan-rate.log (trace convert --out)",
            arguments: ["trace", "convert", "pensieve-nan-rate.log", "--to", "csv", "--out", out + "/t.csv"],
            mentions: ["pensieve-nan-rate.log", "line 2"]),
        Case(
            fixture: "ok/constant.csv read as pensieve (trace convert --format)",
            arguments: ["trace", "convert", "ok/constant.csv", "--format", "pensieve", "--to", "csv"],
            mentions: ["ok/constant.csv", "line 1", "found 1 fields"]),
        Case(
            fixture: "kbps:1000=1e300 (trace concat --to mahimahi)",
            arguments: ["trace", "concat", "kbps:1000=1e300", "--to", "mahimahi", "--out", out + "/t.down"],
            mentions: ["1000kbps", "as many packets for a mahimahi trace"]),
        Case(
            fixture: "kbps:1e12=5 (trace concat --to mahimahi)",
            arguments: ["trace", "concat", "kbps:1e12=5", "--to", "mahimahi"],
            mentions: ["as many packets for a mahimahi trace"]),
        Case(
            fixture: "synthetic-model-negative-mean.json (trace generate)",
            arguments: ["trace", "generate", "synthetic-model-negative-mean.json", "--out", out + "/t.csv"],
            mentions: ["synthetic-model-negative-mean.json", "$.meanKbps"]),
        Case(
            fixture: "pensieve-nan-rate.log among compare's traces",
            arguments: [
                "compare", "--traces", "ok/constant.csv", "pensieve-nan-rate.log", "--content", "ok/movie.json",
                "--policies", "bba", "--out", out + "/results", "--plots", out + "/plots",
            ], mentions: ["pensieve-nan-rate.log", "line 2"]),
        Case(
            fixture: "no-such-*.down (compare --traces glob)",
            arguments: [
                "compare", "--traces", "no-such-*.down", "--content", "ok/movie.json", "--policies", "bba", "--out",
                out + "/results",
            ], mentions: ["no-such-*.down", "--traces", "expected at least one file, found none"]),
        Case(
            fixture: "scenario-duplicate-key.json (check, with --junit)",
            arguments: ["check", "ok/scenario.json", "scenario-duplicate-key.json", "--junit", out + "/junit.xml"],
            mentions: ["scenario-duplicate-key.json", "line 6, column 3"]),
        Case(
            fixture: "dossier réseau (check, recursively)",
            arguments: ["check", "dossier réseau", "--junit", out + "/junit.xml"],
            mentions: ["dossier réseau/scénario vide.json", "line 1, column 1"]),
        Case(
            fixture: "csv-loss-above-one.csv among sweep's traces",
            arguments: [
                "sweep", "ok/scenario.json", "--traces", "ok/constant.csv", "--traces", "csv-loss-above-one.csv",
                "--out", out + "/results",
            ], mentions: ["csv-loss-above-one.csv", "line 3"]),
        Case(
            fixture: "a grid of 10^15 policies (sweep --policies)",
            arguments: ["sweep", "ok/scenario.json", "--policies", "bba(reservoir=1..1e15:1)", "--out", out + "/s"],
            mentions: ["--policies", "must be at most 100000, got 1000000000000000"]),
        Case(
            fixture: "csv-loss-above-one.csv as measurements (tune --calibrate)",
            arguments: ["tune", "ok/scenario.json", "--calibrate", "csv-loss-above-one.csv", "--out", out + "/t"],
            mentions: ["csv-loss-above-one.csv", "line 1", "missing column t_s"]),
        Case(
            fixture: "dossier réseau as results (plot)", arguments: ["plot", "dossier réseau"],
            mentions: ["dossier réseau/summary.csv", "no such file"]),
        Case(
            fixture: "no-such-folder/ (sweep --traces)",
            arguments: ["sweep", "ok/scenario.json", "--traces", "no-such-folder/", "--out", out + "/results"],
            mentions: ["no-such-folder/", "no such file"]),
    ]

    @Test(
        "each catalogued bad input exits 2 with one stderr line naming its file and place, writing nothing",
        arguments: cases)
    func badInputExitsWithStatusTwoAndOneLineNamingThePlace(_ badCase: Case) throws {
        let scratch = TestPaths.scratch("catalogue")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let arguments = badCase.arguments.map { $0.replacingOccurrences(of: Self.out, with: scratch) }
        let before = try Self.listing(Self.fixtures)
        let outcome = try runABRSim(arguments, in: Self.fixtures)
        Self.expectOneLineError(outcome, mentions: badCase.mentions)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "nothing written")
        #expect(try Self.listing(Self.fixtures) == before, "nothing written beside the inputs")
    }

    /// Status 2, nothing on stdout, exactly one line on stderr with every fragment, and no crash report.
    static func expectOneLineError(
        _ outcome: CommandOutcome, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let message = outcome.standardError
        #expect(outcome.status == 2, "\(message)", sourceLocation: sourceLocation)
        #expect(outcome.standardOutput.isEmpty, "\(outcome.standardOutput)", sourceLocation: sourceLocation)
        #expect(
            message.hasSuffix("\n") && message.dropLast().split(separator: "\n").count == 1,
            "one line: \(message)", sourceLocation: sourceLocation)
        for mention in mentions {
            #expect(message.contains(mention), "lacks '\(mention)': \(message)", sourceLocation: sourceLocation)
        }
        for crash in ["Fatal error", "Stack dump", "#0 ", "Backtracing", "Program crashed", "Thread 0"] {
            #expect(!message.contains(crash), "crash report: \(message)", sourceLocation: sourceLocation)
        }
    }

    /// Every path under `directory`, sorted.
    static func listing(_ directory: String) throws -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("a bad run leaves an existing output folder unchanged")
    func aBadRunLeavesAnExistingOutputFolderUnchanged() throws {
        let scratch = TestPaths.scratch("catalogue")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(scratch, "summary.csv", "earlier results\n")
        let outcome = try runABRSim(
            ["run", "scenario-trace-missing.json", "--out", scratch, "--plots", scratch + "/plots"], in: Self.fixtures)
        Self.expectOneLineError(outcome, mentions: ["scenario-trace-missing.json", "$.network.trace"])
        #expect(try Self.listing(scratch) == ["summary.csv"])
        #expect(try String(contentsOfFile: scratch + "/summary.csv", encoding: .utf8) == "earlier results\n")
    }
}
