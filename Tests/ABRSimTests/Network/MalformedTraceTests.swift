import Testing

@testable import ABRSim

extension NetworkTests {
    /// Malformed inputs: each is an ``InputError`` naming the file and the line or JSON path.
    @Suite("malformed traces")
    struct MalformedTraceTests {
        typealias Support = NetworkTestSupport

        /// The error `read` throws, or `nil` (recorded as a failure) if it does not throw one.
        func error(_ path: String, _ format: TraceFormat? = nil) -> InputError? {
            do {
                _ = try TraceReader.read(path: path, format: format)
                Issue.record("no error for \(path)")
            } catch let error as InputError {
                return error
            } catch {
                Issue.record("not an InputError: \(error)")
            }
            return nil
        }

        /// Checks file, location and the problem.
        func check(_ path: String, _ format: TraceFormat?, location: String?, problem: InputProblem) {
            guard let error = error(path, format) else { return }
            #expect(error.file == path)
            #expect(error.location == location)
            #expect(error.problem == problem, "\(error)")
        }

        /// The problem of a sabre trace's value: `problem` and the line and column of the value.
        func sabre(_ problem: InputProblem, at position: String) -> InputProblem { .located(problem, at: position) }

        @Test("a missing trace file is refused as no such file, naming the path")
        func missingFile() {
            check("/tmp/abrsim-no-such-trace.down", nil, location: nil, problem: .unreadable("no such file"))
        }

        @Test("a directory given as a trace is refused as a directory, with or without a format")
        func directory() {
            let path = Support.temporaryDirectory()
            check(path, nil, location: nil, problem: .unreadable("is a directory, expected a file"))
            check(path, .mahimahi, location: nil, problem: .unreadable("is a directory, expected a file"))
        }

        @Test("an empty trace file is refused as empty in every format", arguments: TraceFormat.allCases)
        func emptyFile(format: TraceFormat) {
            let path = Support.write("")
            guard let error = error(path, format) else { return }
            #expect(error.file == path)
            guard case .empty("trace", _) = error.problem else {
                Issue.record("\(error) is not an empty trace")
                return
            }
        }

        @Test("a trace of blank lines is refused as empty at line 2")
        func emptyFileCannotBeDetected() {
            check(
                Support.write("\n\n"), nil, location: "line 2",
                problem: .empty("trace", no: "line to tell its format by"))
        }

        @Test("a fractional mahimahi timestamp is refused as not an integer, naming its line")
        func mahimahiNonInteger() {
            check(
                Support.write("1\n2\n2.5\n"), .mahimahi, location: "line 3",
                problem: .expected("an integer millisecond timestamp", found: "‘2.5’"))
        }

        @Test("a negative mahimahi timestamp is refused, naming its line")
        func mahimahiNegativeTimestamp() {
            check(
                Support.write("-3\n"), .mahimahi, location: "line 1",
                problem: .negative("timestamp", found: "-3", unit: "ms"))
        }

        @Test("a decreasing mahimahi timestamp is refused, naming its line")
        func mahimahiTimestampsGoingBackwards() {
            check(
                Support.write("1\n5\n4\n"), nil, location: "line 3",
                problem: .outOfOrder("timestamps", order: "not decrease", found: "4 ms", after: "5 ms"))
        }

        @Test("a mahimahi trace whose timestamps are all zero is refused as having no duration")
        func mahimahiLastTimestampZero() {
            check(
                Support.write("0\n0\n"), nil, location: "line 2",
                problem: .mustBe(
                    "the last timestamp", rule: "above 0 ms (the trace's duration)", found: "0", unit: "ms"))
        }

        @Test("a negative Pensieve rate is refused, naming its line")
        func pensieveNegativeRate() {
            check(
                Support.write("0 1\n1 -2\n"), nil, location: "line 2",
                problem: .negative("throughput", found: "-2.0", unit: "Mbit/s"))
        }

        @Test("a Pensieve rate that is not a number is refused, naming its line")
        func pensieveNonNumeric() {
            check(
                Support.write("0 1\n1 abc\n"), .pensieve, location: "line 2",
                problem: .isNot("a number", subject: "throughput", found: "‘abc’"))
        }

        @Test("a NaN Pensieve rate is refused as not finite, naming its line")
        func pensieveNaN() {
            check(
                Support.write("0 1\n1 nan\n"), nil, location: "line 2",
                problem: .mustBe("throughput", rule: "a finite number", found: "nan"))
        }

        @Test("a repeated Pensieve timestamp is refused, since timestamps must increase")
        func pensieveEqualTimestamps() {
            check(
                Support.write("0 1\n1 2\n1 3\n"), nil, location: "line 3",
                problem: .outOfOrder("timestamps", order: "increase", found: "1 s", after: "1 s"))
        }

        @Test("a decreasing Pensieve timestamp is refused, since timestamps must increase")
        func pensieveTimestampsGoingBackwards() {
            check(
                Support.write("5 1\n4 2\n"), nil, location: "line 2",
                problem: .outOfOrder("timestamps", order: "increase", found: "4 s", after: "5 s"))
        }

        @Test("a one-line Pensieve trace is refused as needing at least two lines")
        func pensieveSingleLine() {
            check(
                Support.write("0 1\n"), nil, location: "line 1",
                problem: .expected(
                    "at least two lines (each interval runs at the rate of the sample at its end)", found: "1"))
        }

        @Test("an unknown CSV trace column is refused, naming the column and its line")
        func csvUnknownColumn() {
            check(
                Support.write("\ntime_s,bandwidth_kbps,jitter_ms\n0,1,2\n"), nil, location: "line 2",
                problem: .unknownName(
                    "jitter_ms", kind: "column", known: ["time_s", "bandwidth_kbps", "latency_ms", "loss"]))
        }

        @Test("a CSV trace without a bandwidth_kbps column is refused at its header")
        func csvMissingBandwidthColumn() {
            check(
                Support.write("time_s,loss\n0,0\n1,0\n"), nil, location: "line 1",
                problem: .missing("column ‘bandwidth_kbps’ (time_s,bandwidth_kbps[,latency_ms][,loss])"))
        }

        @Test("a negative CSV bandwidth is refused, naming its line")
        func csvNegativeBandwidth() {
            check(
                Support.write("time_s,bandwidth_kbps\n0,5\n1,-5\n"), nil, location: "line 3",
                problem: .negative("bandwidth", found: "-5.0", unit: "kbit/s"))
        }

        @Test("a CSV trace row with the wrong number of fields is refused, naming its line")
        func csvWrongFieldCount() {
            check(
                Support.write("time_s,bandwidth_kbps\n0,5,7\n"), nil, location: "line 2",
                problem: .expected("2 fields as in the header", found: "3"))
        }

        @Test("a CSV trace of one row is refused as needing two rows")
        func csvSingleRow() {
            check(
                Support.write("time_s,bandwidth_kbps\n0,5\n"), nil, location: "line 2",
                problem: .expected("at least two rows (the last row marks the end of the trace)", found: "1"))
        }

        @Test("a string bandwidth in a sabre trace is refused, naming its JSON path")
        func sabreWrongType() {
            let json = """
                [{"duration_ms": 1000, "bandwidth_kbps": 5},
                 {"duration_ms": 1000, "bandwidth_kbps": "fast"}]
                """
            check(
                Support.write(json), nil, location: "$[1].bandwidth_kbps",
                problem: sabre(.expected("a number", found: "a string"), at: "line 2, column 42"))
        }

        @Test("a sabre trace that is an object, not an array, is refused at $")
        func sabreNotAnArray() {
            check(
                Support.write("{\"duration_ms\": 1}"), nil, location: "$",
                problem: sabre(
                    .expected(
                        "an array of periods [{duration_ms, bandwidth_kbps, latency_ms}, …]", found: "an object"),
                    at: "line 1, column 1"))
        }

        @Test("a zero sabre period duration is refused, naming its JSON path")
        func sabreZeroDuration() {
            check(
                Support.write("[{\"duration_ms\": 0, \"bandwidth_kbps\": 5}]"), nil, location: "$[0].duration_ms",
                problem: sabre(.mustBe(nil, rule: "> 0", found: "0.0"), at: "line 1, column 18"))
        }

        @Test("a sabre period without bandwidth_kbps is refused, naming the period")
        func sabreMissingBandwidth() {
            check(
                Support.write("[{\"duration_ms\": 10}]"), nil, location: "$[0]",
                problem: sabre(.missing("bandwidth_kbps"), at: "line 1, column 2"))
        }

        @Test("an unknown key in a sabre period is refused, naming its JSON path")
        func sabreUnknownKey() {
            check(
                Support.write("[{\"duration_ms\": 10, \"bandwidth\": 3}]"), nil, location: "$[0].bandwidth",
                problem: sabre(
                    .unknownKeys([#""bandwidth""#], known: ["duration_ms", "bandwidth_kbps", "latency_ms"]),
                    at: "line 1, column 35"))
        }

        @Test("a JSON syntax error in a sabre trace is refused with its line and column")
        func sabreSyntaxErrorGivesLineAndColumn() {
            let path = Support.write("[\n  {\"duration_ms\": 10 \"bandwidth_kbps\": 3}]")
            guard let error = error(path, .sabre) else { return }
            #expect(error.place == .lineColumn(path, 2, 22))
            guard case .syntax = error.problem else {
                Issue.record("\(error) is not a syntax error")
                return
            }
        }

        @Test("a trace whose format cannot be told is refused at its first line")
        func undetectableFormat() {
            let expected = listedAsAlternatives(TraceFormat.registry.members.map(\.appearance))
            check(
                Support.write("1 2 3\n"), nil, location: "line 1",
                problem: .within("cannot tell the trace format", .expected(expected, found: "‘1 2 3’")))
        }
    }
}
