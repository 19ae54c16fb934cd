import Testing

@testable import ABRSim

extension NetworkTests {
    /// Malformed inputs: each is an ``InputError`` naming the file and the line or JSON path.
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

        @Test func missingFile() {
            check("/tmp/abrsim-no-such-trace.down", nil, location: nil, mentions: "no such file")
        }

        @Test func directory() {
            let path = Support.temporaryDirectory()
            check(path, nil, location: nil, mentions: "directory")
            check(path, .mahimahi, location: nil, mentions: "directory")
        }

        @Test(arguments: TraceFormat.allCases)
        func emptyFile(format: TraceFormat) {
            let path = Support.write("")
            guard let error = error(path, format) else { return }
            #expect(error.file == path)
            #expect(error.message.contains("empty") || error.message.contains("no periods"), "\(error)")
        }

        @Test func emptyFileCannotBeDetected() {
            check(Support.write("\n\n"), nil, location: "line 2", mentions: "empty")
        }

        @Test func mahimahiNonInteger() {
            check(Support.write("1\n2\n2.5\n"), .mahimahi, location: "line 3", mentions: "integer")
        }

        @Test func mahimahiNegativeTimestamp() {
            check(Support.write("-3\n"), .mahimahi, location: "line 1", mentions: "negative")
        }

        @Test func mahimahiTimestampsGoingBackwards() {
            check(Support.write("1\n5\n4\n"), nil, location: "line 3", mentions: "must not decrease")
        }

        @Test func mahimahiLastTimestampZero() {
            check(Support.write("0\n0\n"), nil, location: "line 2", mentions: "no duration")
        }

        @Test func pensieveNegativeRate() {
            check(Support.write("0 1\n1 -2\n"), nil, location: "line 2", mentions: "negative")
        }

        @Test func pensieveNonNumeric() {
            check(Support.write("0 1\n1 abc\n"), .pensieve, location: "line 2", mentions: "not a number")
        }

        @Test func pensieveNaN() {
            check(Support.write("0 1\n1 nan\n"), nil, location: "line 2", mentions: "finite")
        }

        @Test func pensieveEqualTimestamps() {
            check(Support.write("0 1\n1 2\n1 3\n"), nil, location: "line 3", mentions: "timestamps must increase")
        }

        @Test func pensieveTimestampsGoingBackwards() {
            check(Support.write("5 1\n4 2\n"), nil, location: "line 2", mentions: "timestamps must increase")
        }

        @Test func pensieveSingleLine() {
            check(Support.write("0 1\n"), nil, location: "line 1", mentions: "at least two lines")
        }

        @Test func csvUnknownColumn() {
            check(
                Support.write("\ntime_s,bandwidth_kbps,jitter_ms\n0,1,2\n"), nil, location: "line 2",
                mentions: "unknown column ‘jitter_ms’")
        }

        @Test func csvMissingBandwidthColumn() {
            check(Support.write("time_s,loss\n0,0\n1,0\n"), nil, location: "line 1", mentions: "bandwidth_kbps")
        }

        @Test func csvNegativeBandwidth() {
            check(Support.write("time_s,bandwidth_kbps\n0,5\n1,-5\n"), nil, location: "line 3", mentions: "negative")
        }

        @Test func csvWrongFieldCount() {
            check(Support.write("time_s,bandwidth_kbps\n0,5,7\n"), nil, location: "line 2", mentions: "fields")
        }

        @Test func csvSingleRow() {
            check(Support.write("time_s,bandwidth_kbps\n0,5\n"), nil, location: "line 2", mentions: "two rows")
        }

        @Test func sabreWrongType() {
            let json = """
                [{"duration_ms": 1000, "bandwidth_kbps": 5},
                 {"duration_ms": 1000, "bandwidth_kbps": "fast"}]
                """
            check(
                Support.write(json), nil, location: "$[1].bandwidth_kbps", mentions: "expected a number, found a string"
            )
        }

        @Test func sabreNotAnArray() {
            check(Support.write("{\"duration_ms\": 1}"), nil, location: "$", mentions: "found an object")
        }

        @Test func sabreZeroDuration() {
            check(
                Support.write("[{\"duration_ms\": 0, \"bandwidth_kbps\": 5}]"), nil, location: "$[0].duration_ms",
                mentions: "> 0")
        }

        @Test func sabreMissingBandwidth() {
            check(Support.write("[{\"duration_ms\": 10}]"), nil, location: "$[0]", mentions: "missing bandwidth_kbps")
        }

        @Test func sabreUnknownKey() {
            check(
                Support.write("[{\"duration_ms\": 10, \"bandwidth\": 3}]"), nil, location: "$[0].bandwidth",
                mentions: "unknown key")
        }

        @Test func sabreSyntaxErrorGivesLineAndColumn() {
            check(
                Support.write("[\n  {\"duration_ms\": 10 \"bandwidth_kbps\": 3}]"), .sabre,
                location: "line 2, column 22",
                mentions: "expected ',' or '}'")
        }

        @Test func undetectableFormat() {
            check(Support.write("1 2 3\n"), nil, location: "line 1", mentions: "cannot tell the trace format")
        }
    }
}
