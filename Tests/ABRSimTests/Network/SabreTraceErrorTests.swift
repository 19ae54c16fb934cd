import Testing

@testable import ABRSim

extension NetworkTests {
    /// Sabre traces are read by the common JSON parser; a bad value is still named by file and JSON path, with the
    /// line and column where it stands.
    @Suite("errors in sabre traces")
    struct SabreTraceErrorTests {
        typealias Support = NetworkTestSupport

        func error(_ json: String) throws -> InputError {
            let path = Support.write(json)
            let error = try #require(throws: InputError.self) { try TraceReader.read(path: path, format: .sabre) }
            #expect(error.file == path)
            return error
        }

        @Test("a bad value deep in the file is named by its JSON path and its line")
        func valueNamedByPathAndLine() throws {
            let json = """
                [
                  {"duration_ms": 1000, "bandwidth_kbps": 5, "latency_ms": 20},
                  {"duration_ms": 1000, "bandwidth_kbps": 7, "latency_ms": 20},
                  {"latency_ms": 20, "duration_ms": 1000, "bandwidth_kbps": -3}
                ]
                """
            let negative = try error(json)
            #expect(negative.place.position == .jsonPath("$[2].bandwidth_kbps"))
            #expect(negative.problem == .located(.mustBe(nil, rule: "≥ 0", found: "-3.0"), at: "line 4, column 61"))
            #expect(negative.message == "must be ≥ 0, got -3.0 (line 4, column 61)")
        }

        @Test("wrong kinds, unknown and missing keys name the period or the key")
        func kindsAndKeys() throws {
            let wrongKind = try error(#"[{"duration_ms": 1, "bandwidth_kbps": 1}, {"duration_ms": [1]}]"#)
            #expect(wrongKind.place.position == .jsonPath("$[1].duration_ms"))
            #expect(wrongKind.problem == .located(.expected("a number", found: "an array"), at: "line 1, column 59"))
            let unknown = try error(#"[{"duration_ms": 1, "bandwidth kbps": 1}]"#)
            #expect(unknown.place.position == .jsonPath(#"$[0]["bandwidth kbps"]"#))
            guard case .located(let unknownKey, _) = unknown.problem else {
                Issue.record("\(unknown) names no line")
                return
            }
            #expect(
                unknownKey
                    == .unknownKeys([#""bandwidth kbps""#], known: ["duration_ms", "bandwidth_kbps", "latency_ms"]))
            let missing = try error("[{\"duration_ms\": 1, \"bandwidth_kbps\": 1},\n {\"duration_ms\": 1}]")
            #expect(missing.place.position == .jsonPath("$[1]"))
            #expect(missing.problem == .located(.missing("bandwidth_kbps"), at: "line 2, column 2"))
            let notPeriod = try error(#"[{"duration_ms": 1, "bandwidth_kbps": 1}, 3]"#)
            #expect(notPeriod.place.position == .jsonPath("$[1]"))
            #expect(
                notPeriod.problem == .located(.expected("a period object", found: "a number"), at: "line 1, column 43"))
            let latency = try error(
                #"[{"duration_ms": 1, "bandwidth_kbps": 1}, {"duration_ms": 1, "bandwidth_kbps": 1, "latency_ms": 2}]"#)
            #expect(latency.place.position == .jsonPath("$[1].latency_ms"))
            guard case .located(let problem, _) = latency.problem else {
                Issue.record("\(latency) is not a problem at a line")
                return
            }
            #expect(problem == .disagrees("latency_ms", found: "present", other: "missing", in: "earlier periods"))
        }

        @Test("syntax errors give the parser's line and column; an empty file is named as such")
        func syntaxAndEmpty() throws {
            let syntax = try error("[\n {\"duration_ms\": 1,, \"bandwidth_kbps\": 1}]")
            #expect(syntax.place.position == .lineColumn(line: 2, column: 20))
            let empty = try error("\u{FEFF} \n\t")
            #expect(empty.place.position == .line(1))
            #expect(empty.problem == .empty("trace", no: "JSON array of periods"))
        }

        @Test("a good file reads the same with a byte-order mark, CRLF line ends and keys in any order")
        func goodFile() throws {
            let trace = try TraceReader.read(
                path: Support.write(
                    "\u{FEFF}[\r\n{\"bandwidth_kbps\": 2000, \"duration_ms\": 1500},\r\n{\"duration_ms\": 500, \"bandwidth_kbps\": 0}]"
                ),
                format: .sabre)
            #expect(trace.starts == [0, 1.5])
            #expect(trace.ratesBps == [2_000_000, 0])
            #expect(trace.duration == 2)
            #expect(trace.latencySeconds == nil)
        }
    }
}
