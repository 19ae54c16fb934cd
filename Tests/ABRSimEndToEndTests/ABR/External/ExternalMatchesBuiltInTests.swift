import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// An external policy that makes the built-in `bba`'s choices gives byte-identical outputs (but for the
/// `policy` column, which names what the user wrote).
@Suite("an external BBA against the built-in one")
struct ExternalMatchesBuiltInTests {
    @Test("the shipped Python BBA gives byte for byte the built-in BBA's tables, over several rungs")
    func theShippedPythonBBAGivesTheBuiltInBBAsOutputs() throws {
        let directory = TestPaths.scratch("extbba")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = TestPaths.scenarios + "/policies/bba.py"
        func scenario(_ policy: String) -> String {
            #"""
            {"name": "bba-twins",
             "network": {"trace": "\#(TestPaths.scenarios)/traces/norway_tram_1", "rttMs": 80},
             "content": {"ladderKbps": [300, 750, 1200, 1850, 2850, 4300], "segmentSeconds": 4, "segments": 40},
             "players": [{"id": "p", "policy": \#(policy), "preferredForwardBufferDuration": 30}]}
            """#
        }
        let builtIn = try ScenarioLoader().load(writeFile(directory, "builtin.json", scenario(#""bba""#)))
        let external = try ScenarioLoader().load(
            writeFile(
                directory, "external.json", scenario(#"{"name": "external", "command": ["python3", "\#(script)"]}"#)))
        var reports = [try ScenarioRunner().run(builtIn), try ScenarioRunner().run(external)]
        for index in reports.indices { reports[index].players[0].policy = "bba" }
        func tables(_ report: RunReport) -> [[UInt8]] {
            var summary = CSVWriter(columns: RunTables.summaryColumns)
            RunTables.appendSummary(report, to: &summary)
            var segments = CSVWriter(columns: RunTables.segmentColumns)
            RunTables.appendSegments(report, to: &segments)
            var timeline = CSVWriter(columns: RunTables.timelineColumns)
            RunTables.appendTimeline(report, to: &timeline)
            return [summary.takeBytes(), segments.takeBytes(), timeline.takeBytes()]
        }
        let a = tables(reports[0])
        let b = tables(reports[1])
        #expect(a == b)
        // And the choices are not all the same variant: the buffer map is exercised.
        #expect(Set(reports[0].players[0].segments.map(\.variant)).count > 2)
    }
}
