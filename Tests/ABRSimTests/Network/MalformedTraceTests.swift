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

        /// Checks file, location and that the message mentions `words`.
        func check(_ path: String, _ format: TraceFormat?, location: String?, mentions words: String) {
            guard let error = error(path, format) else { return }
            #expect(error.file == path)
            #expect(error.location == location)
            #expect(error.message.contains(words), "\(error)")
        }

        @Test("a missing trace file is refused as no such file, naming the path")
        func missingFile() {
            check("/tmp/abrsim-no-such-trace.down", nil, location: nil, mentions: "no such file")
        }

        @Test("a directory given as a trace is refused as a directory, with or without a format")
        func directory() {
            let path = Support.temporaryDirectory()
            check(path, nil, location: nil, mentions: "directory")
            check(path, .mahimahi, location: nil, mentions: "directory")
        }

        @Test("an empty trace file is refused as empty in every format", arguments: TraceFormat.allCases)
        func emptyFile(format: TraceFormat) {
            let path = Support.write("")
            guard let error = error(path, format) else { return }
            #expect(error.file == path)
            #expect(error.message.contains("empty") || error.message.contains("no periods"), "\(error)")
        }

        @Test("a trace of blank lines is refused as empty at line 2")
        func emptyFileCannotBeDetected() {
            check(Support.write("\n\n"), nil, location: "line 2", mentions: "empty")
        }

        @Test("a fractional mahimahi timestamp is refused as not an integer, naming its line")
        func mahimahiNonInteger() {
            check(Support.write("1\n2\n2.5\n"), .mahimahi, location: "line 3", mentions: "integer")
        }

        @Test("a negative mahimahi timestamp is refused, naming its line")
        func mahimahiNegativeTimestamp() {
            check(Support.write("-3\n"), .mahimahi, location: "line 1", mentions: "negative")
        }

        @Test("a decreasing mahimahi timestamp is refused, naming its line")
        func mahimahiTimestampsGoingBackwards() {
            check(Support.write("1\n5\n4\n"), nil, location: "line 3", mentions: "must not decrease")
        }

        @Test("a mahimahi trace whose timestamps are all zero is refused as having no duration")
        func mahimahiLastTimestampZero() {
            check(Support.write("0\n0\n"), nil, location: "line 2", mentions: "no duration")
        }

        @Test("a negative Pensieve rate is refused, naming its line")
        func pensieveNegativeRate() {
            check(Support.write("0 1\n1 -2\n"), nil, location: "line 2", mentions: "negative")
        }

        @Test("a Pensieve rate that is not a number is refused, naming its line")
        func pensieveNonNumeric() {
            check(Support.write("0 1\n1 abc\n"), .pensieve, location: "line 2", mentions: "not a number")
        }

        @Test("a NaN Pensieve rate is refused as not finite, naming its line")
        func pensieveNaN() {
            check(Support.write("0 1\n1 nan\n"), nil, location: "line 2", mentions: "finite")
        }

        @Test("a repeated Pensieve timestamp is refused, since timestamps must increase")
        func pensieveEqualTimestamps() {
            check(Support.write("0 1\n1 2\n1 3\n"), nil, location: "line 3", mentions: "timestamps must increase")
        }

        @Test("a decreasing Pensieve timestamp is refused, since timestamps must increase")
        func pensieveTimestampsGoingBackwards() {
            check(Support.write("5 1\n4 2\n"), nil, location: "line 2", mentions: "timestamps must increase")
        }

        @Test("a one-line Pensieve trace is refused as needing at least two lines")
        func pensieveSingleLine() {
            check(Support.write("0 1\n"), nil, location: "line 1", mentions: "at least two lines")
        }

        @Test("an unknown CSV trace column is refused, naming the column and its line")
        func csvUnknownColumn() {
            check(
                Support.write("\ntime_s,bandwidth_kbps,jitter_ms\n0,1,2\n"), nil, location: "line 2",
                mentions: "unknown column ‘jitter_ms’")
        }

        @Test("a CSV trace without a bandwidth_kbps column is refused at its header")
        func csvMissingBandwidthColumn() {
            check(Support.write("time_s,loss\n0,0\n1,0\n"), nil, location: "line 1", mentions: "bandwidth_kbps")
        }

        @Test("a negative CSV bandwidth is refused, naming its line")
        func csvNegativeBandwidth() {
            check(Support.write("time_s,bandwidth_kbps\n0,5\n1,-5\n"), nil, location: "line 3", mentions: "negative")
        }

        @Test("a CSV trace row with the wrong number of fields is refused, naming its line")
        func csvWrongFieldCount() {
            check(Support.write("time_s,bandwidth_kbps\n0,5,7\n"), nil, location: "line 2", mentions: "fields")
        }

        @Test("a CSV trace of one row is refused as needing two rows")
        func csvSingleRow() {
            check(Support.write("time_s,bandwidth_kbps\n0,5\n"), nil, location: "line 2", mentions: "two rows")
        }

        @Test("a string bandwidth in a sabre trace is refused, naming its JSON path")
        func sabreWrongType() {
            let json = """
                [{"duration_ms": 1000, "bandwidth_kbps": 5},
                 {"duration_ms": 1000, "bandwidth_kbps": "fast"}]
                """
            check(
                Support.write(json), nil, location: "$[1].bandwidth_kbps", mentions: "expected a number, found a string"
            )
        }

        @Test("a sabre trace that is an object, not an array, is refused at $")
        func sabreNotAnArray() {
            check(Support.write("{\"duration_ms\": 1}"), nil, location: "$", mentions: "found an object")
        }

        @Test("a zero sabre period duration is refused, naming its JSON path")
        func sabreZeroDuration() {
            check(
                Support.write("[{\"duration_ms\": 0, \"bandwidth_kbps\": 5}]"), nil, location: "$[0].duration_ms",
                mentions: "> 0")
        }

        @Test("a sabre period without bandwidth_kbps is refused, naming the period")
        func sabreMissingBandwidth() {
            check(Support.write("[{\"duration_ms\": 10}]"), nil, location: "$[0]", mentions: "missing bandwidth_kbps")
        }

        @Test("an unknown key in a sabre period is refused, naming its JSON path")
        func sabreUnknownKey() {
            check(
                Support.write("[{\"duration_ms\": 10, \"bandwidth\": 3}]"), nil, location: "$[0].bandwidth",
                mentions: "unknown key")
        }

        @Test("a JSON syntax error in a sabre trace is refused with its line and column")
        func sabreSyntaxErrorGivesLineAndColumn() {
            check(
                Support.write("[\n  {\"duration_ms\": 10 \"bandwidth_kbps\": 3}]"), .sabre,
                location: "line 2, column 22",
                mentions: "expected ',' or '}'")
        }

        @Test("a trace whose format cannot be told is refused at its first line")
        func undetectableFormat() {
            check(Support.write("1 2 3\n"), nil, location: "line 1", mentions: "cannot tell the trace format")
        }
    }
}
