import Foundation
import Testing

@testable import ABRSim

/// A trace format of the test's own, registered for one test: lines `rate KBPS for SECONDS`, one constant piece
/// each. It shows that a new format is one conforming type plus one registration.
private struct StepsTrace: TraceFileFormat {
    var name: String { "steps" }
    var appearance: String { "`rate KBPS for SECONDS` lines (steps)" }

    func recognises(firstLine line: ArraySlice<UInt8>) -> Bool { line.starts(with: Array("rate ".utf8)) }

    func read(path: String, binMs: Int) throws -> Trace {
        var starts: [Double] = []
        var rates: [Double] = []
        var time = 0.0
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (index, line) in text.split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[0] == "rate", fields[2] == "for", let kbps = Double(fields[1]),
                let seconds = Double(fields[3])
            else { throw InputError(.line(path, index + 1), .expected("`rate KBPS for SECONDS`", found: "‘\(line)’")) }
            starts.append(time)
            rates.append(kbps * 1000)
            time += seconds
        }
        return Trace(name: "steps", starts: starts, ratesBps: rates, duration: time)
    }

    func write(_ trace: Trace) throws -> [UInt8] {
        Array(
            trace.ratesBps.indices.map {
                "rate \(trace.ratesBps[$0] / 1000) for \(trace.end(ofPiece: $0) - trace.starts[$0])\n"
            }.joined().utf8)
    }
}

@Suite("the trace format registry")
struct TraceFormatRegistryTests {
    @Test("a registered trace format is detected, read, named in scenarios and listed in errors")
    func aRegisteredFormatIsReachedThroughThePublicPaths() throws {
        let path = NetworkTestSupport.write("rate 1000 for 2\nrate 250 for 4\n", name: "link.steps")
        try TraceFormat.registry.withRegistered(StepsTrace(), name: "steps") {
            #expect(try TraceFormat.detect(path: path).rawValue == "steps")
            let trace = try TraceReader.read(path: path)
            #expect(trace.starts == [0, 2] && trace.ratesBps == [1_000_000, 250_000] && trace.duration == 6)
            // 2 s at 1 Mbit/s then 4 s at 250 kbit/s: 3 Mbit in a period.
            #expect(try trace.curve(atEnd: .loop).totalBitsPerPeriod == 3_000_000)
            // Written and read back through the writer.
            let back = NetworkTestSupport.writeBytes(
                try TraceWriter.write(trace, format: TraceFormat(rawValue: "steps")!))
            #expect(try TraceReader.read(path: back).ratesBps == trace.ratesBps)
            // A file no format recognises: the message lists every registered format, this one last.
            let unknown = NetworkTestSupport.write("hello there\n")
            let undetected = try #require(throws: InputError.self) { try TraceFormat.detect(path: unknown) }
            let appearances = TraceFormat.registry.members.map(\.appearance)
            #expect(appearances.last == "`rate KBPS for SECONDS` lines (steps)")
            #expect(
                undetected.problem
                    == .within(
                        "cannot tell the trace format",
                        .expected(listedAsAlternatives(appearances), found: "‘hello there’")))
            // A scenario names it, and plays it as it plays the same link written as CSV.
            func run(_ trace: String, format: String) throws -> [Double] {
                let scenario = NetworkTestSupport.write(
                    #"{"network": {"trace": "\#(trace)", "format": "\#(format)", "rttMs": 0}, "#
                        + #""content": {"ladderKbps": [200, 600], "segmentSeconds": 4, "segments": 3}, "#
                        + #""players": [{"id": "p", "policy": "bba"}]}"#, name: "scenario.json")
                let report = try ScenarioRunner().run(try ScenarioLoader().load(scenario), recordsTimeline: false)
                return report.players[0].segments.map(\.doneTime)
            }
            let csv = NetworkTestSupport.write("time_s,bandwidth_kbps\n0,1000\n2,250\n6,250\n", name: "link.csv")
            let done = try run(path, format: "steps")
            let viaCSV = try run(csv, format: "csv")
            #expect(done.count == 3 && done == viaCSV)
        }
        #expect(TraceFormat(rawValue: "steps") == nil)
        #expect(TraceFormat.allCases.map(\.rawValue) == ["mahimahi", "pensieve", "sabre", "csv"])
    }
}
