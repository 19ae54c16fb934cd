import Foundation
import Testing

@testable import ABRSim

/// `abrsim sabre`'s network file, decoded period by period as the parser reads it: values as written, and every
/// problem named by the file and JSON path.
@Suite("sabre's network file")
struct SabreNetworkInputTests {
    func write(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "abrsim-sabre-network-\(UUID().uuidString).json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func error(_ json: String) throws -> InputError {
        let path = try write(json)
        let error = try #require(throws: InputError.self) { try SabreNetworkTrace.read(path: path) }
        #expect(error.file == path)
        return error
    }

    @Test("periods are read raw, bandwidths scaled by the multiplier, other keys ignored")
    func readsRaw() throws {
        let path = try write(
            #"[{"duration_ms": 1000, "bandwidth_kbps": 0.1, "latency_ms": 75, "note": "x"},"#
                + #" {"latency_ms": 0, "duration_ms": 0, "bandwidth_kbps": 3e3}]"#)
        let periods = try SabreNetworkTrace.read(path: path, multiplier: 2)
        #expect(
            periods == [
                SabreNetworkPeriod(durationMs: 1000, bandwidthKbps: 0.1 * 2, latencyMs: 75),
                SabreNetworkPeriod(durationMs: 0, bandwidthKbps: 6000, latencyMs: 0),
            ])
    }

    @Test("a bad period is named by its JSON path, whatever comes after it")
    func errorsNameThePath() throws {
        let good = #"{"duration_ms": 1, "bandwidth_kbps": 1, "latency_ms": 1}"#
        let negative = try error("[\(good), {\"duration_ms\": 1, \"bandwidth_kbps\": -2, \"latency_ms\": 3}]")
        #expect(negative.place.position == .jsonPath("$[1].bandwidth_kbps"))
        #expect(negative.problem == .outOfRange(what: "a number", bound: ">= 0", found: "-2"))
        let missing = try error("[\(good), \(good), {\"duration_ms\": 1, \"bandwidth_kbps\": 2}]")
        #expect(missing.place.position == .jsonPath("$[2]"))
        #expect(missing.problem == .missing(#"key "latency_ms""#))
        let kind = try error(#"[{"duration_ms": "1", "bandwidth_kbps": 1, "latency_ms": 1}]"#)
        #expect(kind.place.position == .jsonPath("$[0].duration_ms"))
        #expect(kind.problem == .expected("a number", found: "a string"))
        let notObject = try error("[\(good), [1]]")
        #expect(notObject.place.position == .jsonPath("$[1]"))
        #expect(notObject.problem == .expected("an object", found: "an array"))
        let denormal = try error(#"[{"duration_ms": 1e-310, "bandwidth_kbps": 1, "latency_ms": 1}]"#)
        #expect(denormal.place.position == .jsonPath("$[0].duration_ms"))
    }

    @Test("the whole file: not an array, no periods, nothing that downloads, a syntax error's line and column")
    func wholeFile() throws {
        #expect(try error(#"{"a": 1}"#).problem == .expected("an array", found: "an object"))
        #expect(try error("[]").problem == .empty("network", no: "periods"))
        let idle = try error(#"[{"duration_ms": 0, "bandwidth_kbps": 5, "latency_ms": 1}]"#)
        #expect(idle.place.position == .jsonPath("$"))
        #expect(idle.problem == .noneGiven("period with both a duration and a bandwidth above 0", in: "the network"))
        let syntax = try error("[\n {\"duration_ms\": 1,}]")
        #expect(syntax.place.position == .lineColumn(line: 2, column: 19))
        #expect(syntax.problem == .syntax("trailing comma before '}'"))
    }
}
