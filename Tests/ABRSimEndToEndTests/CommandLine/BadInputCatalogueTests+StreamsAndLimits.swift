import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// The catalogue's second round (issue 14, classes 1–4 and 6), through the built binary: inputs read from pipes
/// and FIFOs, total loss, empty list items and out-of-range counts on the command line, memory bounds, and
/// degenerate but valid numbers. Fixtures are `Tests/Fixtures/bad/limits-*`.
extension BadInputCatalogueTests {
    /// `compare` of `ok/constant.csv` over `ok/movie.json` with `extra` arguments (policies included).
    static func compareWith(_ label: String, _ extra: [String], _ mentions: String...) -> Case {
        Case(
            fixture: label,
            arguments: [
                "compare", "--traces", "ok/constant.csv", "--content", "ok/movie.json", "--out", out + "/results",
                "--plots", out + "/plots",
            ] + extra, mentions: mentions)
    }

    /// `sweep ok/scenario.json` with `extra` arguments.
    static func sweepWith(_ label: String, _ extra: [String], _ mentions: String...) -> Case {
        Case(
            fixture: label, arguments: ["sweep", "ok/scenario.json", "--out", out + "/sweep"] + extra,
            mentions: mentions)
    }

    static let streamsAndLimitsCases: [Case] = [
        // Class 3: empty items in any list and out-of-range counts are bad input, never a crash.
        compareWith("--policies ','", ["--policies", ","], "--policies", "missing item 1 of ','"),
        compareWith("--policies 'bba,,bola'", ["--policies", "bba,,bola"], "--policies", "item 2 of 'bba,,bola'"),
        compareWith("--policies 'bba,'", ["--policies", "bba,"], "--policies", "missing item 2 of 'bba,'"),
        compareWith("--policies ' , bba'", ["--policies", " , bba"], "--policies", "item 1"),
        compareWith("--policies 'bba)'", ["--policies", "bba)"], "--policies", "')' in 'bba)' without its '('"),
        sweepWith("sweep --policies 'bba('", ["--policies", "bba("], "--policies", "'(' in 'bba(' without its ')'"),
        sweepWith(
            "sweep --policies 'bba,' --policies bola", ["--policies", "bba,", "--policies", "bola"], "--policies",
            "item 2 of 'bba,'"),
        Case(
            fixture: "tune --grid '1,,2'", arguments: ["tune", "ok/scenario.json", "--grid", "1,,2", "--out", out],
            mentions: ["--grid", "missing item 2 of '1,,2'"]),
        Case(
            fixture: "tune --grid of 65 ratios",
            arguments: [
                "tune", "ok/scenario.json", "--grid", (1...65).map(String.init).joined(separator: ","), "--out", out,
            ], mentions: ["--grid", "65 ratios, more than the limit of 64"]),
        sweepWith(
            "sweep --jobs 2^63-1", ["--jobs", "9223372036854775807"], "--jobs", "must be in 1…1024",
            "got 9223372036854775807"),
        sweepWith("sweep --batch 10^9", ["--batch", "1000000000"], "--batch", "must be in 1…100000"),
        compareWith(
            "compare --traces ''", ["--policies", "bba", "--traces", ""], "--traces",
            "expected a path, found an empty one"),
        compareWith("compare --segments 0", ["--policies", "bba", "--segments", "0"], "--segments", "1…1000000"),
        compareWith("compare --rtt-ms 1e300", ["--policies", "bba", "--rtt-ms", "1e300"], "--rtt-ms", "0…60000"),
        // Class 4: every parameter that sizes memory has an upper bound; a run whose records would not fit is
        // refused before it starts, naming the key and the limit. `run` streams its tables, so it holds records
        // only with more players than its plots draw while reading them.
        run("limits-records-too-many-players.json", "$.content:", "3000000 in all", "limit of 4096 MiB"),
        Case(
            fixture: "limits-records-too-many.json (sweep, keeping segments)",
            arguments: ["sweep", "limits-records-too-many.json", "--out", out + "/sweep"],
            mentions: ["limits-records-too-many.json", "$.content:", "limit of 4096 MiB", "--no-segments"]),
        Case(
            fixture: "limits-records-too-many.json (tune)",
            arguments: ["tune", "limits-records-too-many.json", "--out", out + "/tune"],
            mentions: ["limits-records-too-many.json", "$.content:", "limit of 4096 MiB"]),
        compareWith(
            "festive(window=999999999)", ["--policies", "festive(window=999999999)"], "--policies",
            "window must be a whole number in 1…10000"),
        compareWith(
            "robust-mpc(window=20000)", ["--policies", "robust-mpc(window=20000)"],
            "window must be a whole number in 1…10000"),
        compareWith(
            "bba(reservoir=1e300)", ["--policies", "bba(reservoir=1e300)"],
            "reservoir must be ≥ 0 s and of magnitude at most 1e12"),
        compareWith(
            "external(history=10^6)", ["--policies", "external(command=true,history=1000000)"],
            "history must be a whole number in 0…10000"),
        // Class 6: degenerate but valid numbers are refused at their JSON path or line, with the key's bounds.
        run("limits-segment-seconds-1e-12.json", "$.content.segmentSeconds:", "0.001…3600, found 1e-12"),
        run("limits-ladder-denormal.json", "$.content.ladderKbps[0]:", "denormal 5e-324"),
        run(
            "limits-forward-buffer-1e300.json", "$.players[0].preferredForwardBufferDuration:",
            "0…86400, found 1e+300"),
        run("limits-rate-denormal.json", "$.players[0].rate:", "denormal 5e-324"),
        run("limits-constant-kbps-denormal.json", "$.network.stretches[0].constantKbps:", "denormal"),
        run("limits-rtt-1e300.json", "$.network.stretches[0].rttMs:", "0…600000, found 1e+300"),
        run("limits-duration-1e-12.json", "$.durationSeconds:", "0.001…10000000, found 1e-12"),
        run("limits-retry-timeout-denormal.json", "$.players[0].requests.timeoutSeconds:", "denormal"),
        content("limits-hls-master-denormal-extinf.m3u8", "limits-hls-media-denormal-extinf.m3u8: line 5", "5e-324"),
        content("limits-hls-master-extinf-1e-12.m3u8", "limits-hls-media-extinf-1e-12.m3u8: line 3", "0.001…3600"),
        content(
            "limits-sabre-movie-denormal-size.json",
            "limits-sabre-movie-denormal-size.json: $.segment_sizes_bits[0][0]",
            "denormal"),
        info("limits-csv-denormal-bandwidth.csv", "line 3", "denormal"),
        info("limits-csv-latency-1e300.csv", "line 3", "limit of 600000 ms"),
        info(
            "limits-csv-bandwidth-1e-300.csv", "line 3", "or at least 1 bit/s",
            "0 (no capacity)"),
        info("limits-pensieve-rate-1e-300.log", "line 2", "got 1e-294 bit/s", "or at least 1 bit/s"),
        info("limits-sabre-trace-rate-1e-300.json", "$[1].bandwidth_kbps", "line 2", "or at least 1 bit/s"),
    ]

    @Test(
        "each bad list item, out-of-range count or memory limit exits 2 with one line naming the place",
        arguments: streamsAndLimitsCases)
    func streamsAndLimitsExitWithStatusTwoAndOneLine(_ badCase: Case) throws {
        try badInputExitsWithStatusTwoAndOneLineNamingThePlace(badCase)
    }

    @Test("a comparison whose records would not fit in memory is refused quickly, before any run")
    func aComparisonWhoseRecordsWouldNotFitIsRefusedBeforeItRuns() throws {
        let scratch = TestPaths.scratch("compare-memory")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // 100 000 segments of content × 30 traces × 4 policies: 12 million records kept for segments.csv.
        var media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
        for index in 0..<100_000 { media += "#EXTINF:4,\ns\(index).ts\n" }
        writeFile(scratch, "media.m3u8", media + "#EXT-X-ENDLIST\n")
        writeFile(scratch, "master.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000\nmedia.m3u8\n")
        try FileManager.default.createDirectory(atPath: scratch + "/traces", withIntermediateDirectories: true)
        for index in 0..<30 {
            try FileManager.default.copyItem(
                atPath: Self.fixtures + "/ok/constant.csv", toPath: scratch + "/traces/t\(index).csv")
        }
        let start = ContinuousClock.now
        let outcome = try runABRSim(
            [
                "compare", "--traces", "traces", "--content", "master.m3u8", "--policies",
                "bba,bola,throughput,festive",
                "--out", "out",
            ], in: scratch)
        Self.expectOneLineError(
            outcome, mentions: ["--traces", "30 traces × 4 policies × 100000 segments", "limit of 4096 MiB"])
        #expect(ContinuousClock.now - start < .seconds(20 * TestPaths.timeScale), "refused before any run")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/out"))
    }

    // MARK: - Class 1: every input read once, as a stream

    /// `command` run by `/bin/bash -c` in the fixtures folder, `$0` being the binary; its outcome.
    static func shell(_ command: String) throws -> CommandOutcome {
        try runABRSim([], in: fixtures, launcher: ["/bin/bash", "-c", command])
    }

    /// A mahimahi trace of `lines` delivery opportunities (about 6 bytes a line), written to a scratch file.
    static func longTrace(lines: Int, in folder: String) -> String {
        var text = ""
        for line in 0..<lines { text += "\(line / 3)\n" }
        return writeFile(folder, "long.down", text)
    }

    @Test("a trace piped in, substituted or converted from stdin reads as the file does, whatever its size")
    func aPipedTraceReadsAsTheSameFileWhateverItsSize() throws {
        let scratch = TestPaths.scratch("streams")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let long = Self.longTrace(lines: 30_000, in: scratch)  // 170 KB: more than the 64 KiB read buffer
        #expect(try FileManager.default.attributesOfItem(atPath: long)[.size] as! Int > 1 << 17)
        for file in [Self.fixtures + "/ok/constant.csv", long] {
            let direct = try runABRSim(["trace", "info", file], in: Self.fixtures)
            #expect(direct.status == 0, "\(direct.standardError)")
            let expected = direct.standardOutput.replacingOccurrences(of: "file: \(file)", with: "file: /dev/stdin")
            for way in [
                "cat '\(file)' | \"$0\" trace info /dev/stdin", "\"$0\" trace info /dev/stdin < <(cat '\(file)')",
            ] {
                let piped = try Self.shell(way)
                #expect(piped.status == 0, "\(way): \(piped.standardError)")
                #expect(piped.standardOutput == expected, "\(way)")
            }
            let substituted = try Self.shell("\"$0\" trace info <(cat '\(file)')")
            #expect(substituted.status == 0, "\(substituted.standardError)")
            #expect(
                substituted.standardOutput.split(separator: "\n").dropFirst()
                    == expected.split(separator: "\n").dropFirst(), "process substitution")
            let converted = try Self.shell("cat '\(file)' | \"$0\" trace convert /dev/stdin --to csv")
            let convertedDirect = try runABRSim(["trace", "convert", file, "--to", "csv"], in: Self.fixtures)
            #expect(converted.status == 0 && converted.standardOutput == convertedDirect.standardOutput)
        }
    }

    @Test("a trace read from a FIFO with a writer is read once, as the file would be")
    func aFIFOWithAWriterIsReadOnce() throws {
        let scratch = TestPaths.scratch("fifo")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let fifo = scratch + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let long = Self.longTrace(lines: 30_000, in: scratch)
        let direct = try runABRSim(["trace", "info", long])
        let outcome = try Self.shell("(cat '\(long)' > '\(fifo)' &) ; timeout 60 \"$0\" trace info '\(fifo)'")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.split(separator: "\n").dropFirst()
                == direct.standardOutput.split(separator: "\n")
                .dropFirst())
    }

    @Test("a scenario and a trace it names twice can come from stdin, giving the file's results")
    func aScenarioAndTheTracesItNamesCanAllComeFromPipes() throws {
        let scratch = TestPaths.scratch("stream-scenario")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let long = Self.longTrace(lines: 30_000, in: scratch)
        // Two stretches name the same /dev/stdin: it is read once and serves both.
        func scenario(_ name: String, trace: String) -> String {
            writeFile(
                scratch, name,
                """
                {"name": "s", "network": {"stretches": [{"trace": "\(trace)", "seconds": 30},
                                                         {"trace": "\(trace)", "seconds": 30}]},
                 "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 10},
                 "players": [{"id": "p", "policy": "bba"}]}
                """)
        }
        let piped = try Self.shell(
            "cat '\(long)' | \"$0\" run '\(scenario("s.json", trace: "/dev/stdin"))' --out '\(scratch)/piped'")
        #expect(piped.status == 0, "\(piped.standardError)")
        let file = scenario("f.json", trace: long)
        let direct = try runABRSim(["run", file, "--out", scratch + "/direct"])
        #expect(direct.status == 0, "\(direct.standardError)")
        // Every column but `trace` (the file's name: `stdin` for a pipe) is the same.
        func withoutTrace(_ folder: String) throws -> [[Substring]] {
            try String(contentsOfFile: scratch + "/\(folder)/segments.csv", encoding: .utf8).split(separator: "\n").map
            {
                var fields = $0.split(separator: ",", omittingEmptySubsequences: false)
                fields.remove(at: 3)
                return fields
            }
        }
        let directSegments = try withoutTrace("direct")
        #expect(directSegments.count == 11)
        #expect(try withoutTrace("piped") == directSegments)
        // The scenario itself from a pipe (the manifest fingerprints it, the loader reads it: one read).
        let fromStdin = try Self.shell("cat '\(file)' | \"$0\" run /dev/stdin --out '\(scratch)/stdin'")
        #expect(fromStdin.status == 0, "\(fromStdin.standardError)")
        #expect(try withoutTrace("stdin") == directSegments)
    }

    @Test("a bad piped trace or scenario is refused, naming /dev/stdin and the line or path")
    func aBadPipedInputIsNamedAsTheStreamWithItsLine() throws {
        let trace = try Self.shell("printf '0 1.5\\n1 x\\n' | \"$0\" trace info --format pensieve /dev/stdin")
        Self.expectOneLineError(trace, mentions: ["/dev/stdin", "line 2"])
        let empty = try Self.shell("printf '' | \"$0\" trace info /dev/stdin")
        Self.expectOneLineError(empty, mentions: ["/dev/stdin"])
        let scenario = try Self.shell("cat scenario-unknown-key.json | \"$0\" run /dev/stdin --out /nonexistent/x")
        Self.expectOneLineError(scenario, mentions: ["/dev/stdin", "$:", "unknown key \"colour\""])
    }

    // MARK: - Class 2: total loss delivers nothing, whatever the RTT

    @Test(
        "total loss, by preset, stretch or trace, delivers no byte, and the player fails",
        arguments: [
            "{\"preset\": \"100-loss\"}", "{\"stretches\": [{\"preset\": \"100% Loss\", \"seconds\": 600}]}",
            "{\"trace\": \"loss.csv\"}",
        ])
    func totalLossDeliversNothing(network: String) throws {
        let scratch = TestPaths.scratch("loss")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(scratch, "loss.csv", "time_s,bandwidth_kbps,latency_ms,loss\n0,50000,0,1\n10,50000,0,1\n")
        writeFile(
            scratch, "s.json",
            """
            {"name": "loss", "network": \(network),
             "content": {"ladderKbps": [300, 750], "segmentSeconds": 2, "segments": 3},
             "players": [{"id": "p", "policy": "bba", "requests": {"timeoutSeconds": 5, "maxRetries": 1}}]}
            """)
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: scratch)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let summary = try CSVTable.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: scratch + "/out/summary.csv"))), file: "summary.csv")
        #expect(summary.column("bytes") == ["0"])
        #expect(summary.column("segments") == ["0"])
        #expect(summary.column("final_state") == ["failed"])
        #expect(summary.column("startup_s") == [""])
    }

    @Test("the loss bound is 0 at total loss and unbounded at zero RTT or no loss")
    func theLossBoundAtRTTZero() {
        #expect(SharedLink.lossBound(lossRate: 1, rttSeconds: 0) == 0)
        #expect(SharedLink.lossBound(lossRate: 1, rttSeconds: 0.08) == 0)
        #expect(SharedLink.lossBound(lossRate: 0.1, rttSeconds: 0) == .infinity)
        #expect(SharedLink.lossBound(lossRate: 0.1, rttSeconds: 5e-324) == .infinity)
        #expect(SharedLink.lossBound(lossRate: 0, rttSeconds: 0.1) == .infinity)
    }

    // MARK: - Class 6: no output holds a non-finite number; exit 0 never leaves a player loading

    /// Scenarios at the edges of the bounds (each value valid): tiny and huge rates, segments, buffers, RTTs.
    static let extremeScenarios = [
        (
            "tiny-segments-and-rates",
            #"{"network": {"stretches": [{"constantKbps": 1e8, "seconds": 100, "rttMs": 0}]}, "content": {"ladderKbps": [0.001, 0.002], "segmentSeconds": 0.001, "segments": 5}, "players": [{"id": "m", "policy": "throughput"}]}"#
        ),
        (
            "huge-segments-slow-link",
            #"{"network": {"stretches": [{"constantKbps": 0.001, "seconds": 100, "rttMs": 600000}]}, "content": {"ladderKbps": [1e8], "segmentSeconds": 3600, "segments": 2}, "players": [{"id": "m", "policy": "bba", "rate": 0.01, "preferredForwardBufferDuration": 86400}]}"#
        ),
        (
            "microsecond-stretches",
            #"{"network": {"stretches": [{"constantKbps": 1e8, "seconds": 1e-6, "rttMs": 0}, {"constantKbps": 0, "seconds": 1e-6}, {"constantKbps": 1, "seconds": 1e7}]}, "content": {"ladderKbps": [0.001, 1e8], "segmentSeconds": 1, "segments": 3}, "players": [{"id": "m", "policy": "robust-mpc"}, {"id": "n", "policy": "bola", "rate": 100}]}"#
        ),
        (
            "shortest-run",
            #"{"durationSeconds": 0.001, "network": {"preset": "lte"}, "content": {"ladderKbps": [500], "segmentSeconds": 1, "segments": 3}, "players": [{"id": "m", "policy": "bba"}]}"#
        ),
        (
            "start-at-the-end",
            #"{"durationSeconds": 10, "network": {"preset": "100-loss"}, "content": {"ladderKbps": [500], "segmentSeconds": 1, "segments": 3}, "players": [{"id": "m", "policy": "bba", "startSeconds": 1e7}]}"#
        ),
    ]

    @Test(
        "at the edges of the bounds every number written is finite, and a success never leaves a player loading",
        arguments: extremeScenarios)
    func everyWrittenNumberIsFiniteAndNoSuccessLeavesAPlayerLoading(name: String, body: String) throws {
        let scratch = TestPaths.scratch("extreme")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        writeFile(scratch, "s.json", "{\"name\": \"\(name)\", " + body.dropFirst())
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: scratch)
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.standardError)")
        for token in ["nan", "inf"] {
            let words = outcome.standardOutput.lowercased().split(whereSeparator: { !$0.isLetter })
            #expect(!words.contains(Substring(token)), "stdout holds \(token): \(outcome.standardOutput)")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: scratch + "/out")
        var numbers = 0
        for file in files where file.hasSuffix(".csv") {
            let text = try String(contentsOfFile: scratch + "/out/" + file, encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                for field in line.split(separator: ",", omittingEmptySubsequences: false) {
                    let lowered = field.lowercased()
                    #expect(!["nan", "inf", "-inf", "infinity", "-infinity"].contains(lowered), "\(file): \(line)")
                    if let number = Double(field) {
                        numbers += 1
                        #expect(number.isFinite, "\(file): \(line)")
                    }
                }
            }
        }
        #expect(numbers > 0)
        for file in files where file.hasSuffix(".svg") || file.hasSuffix(".html") {
            let text = try String(contentsOfFile: scratch + "/out/" + file, encoding: .utf8)
            #expect(!text.contains("NaN") && !text.contains("Infinity") && !text.contains("=\"inf"), "\(file)")
        }
        let summary = try String(contentsOfFile: scratch + "/out/summary.csv", encoding: .utf8)
        if outcome.status == 0 {
            #expect(!summary.contains(",loading,"), "exit 0 with a player still loading: \(summary)")
        }
    }
}
