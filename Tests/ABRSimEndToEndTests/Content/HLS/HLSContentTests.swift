import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// A local HLS presentation run through the binary: variable segment durations reach the outputs.
@Suite("an HLS presentation through the binary")
struct HLSContentTests {
    /// Variable segment durations flow through the player and the metrics: every segment row carries its own
    /// duration, and the player plays exactly the content's duration.
    @Test(
        "an HLS presentation's variable segment durations reach segments.csv, and the summary plays exactly its length")
    func variableDurationsReachSegmentsAndSummary() throws {
        let master = HLSFixture.presentation()
        let folder = InputFile.directory(of: master)
        let scenario = writeFile(
            folder, "s.json",
            #"{"name": "var", "network": {"preset": "lte"}, "content": {"hlsMaster": "master.m3u8"},"#
                + #" "players": [{"id": "p", "policy": "throughput"}]}"#)
        let out = folder + "/out"
        let outcome = try runABRSim(["run", scenario, "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let segments = try CSVTable.parse(try InputFile.readAll(out + "/segments.csv"), file: "segments.csv")
        #expect(try #require(segments.column("duration_s")).map { Double($0)! } == [6, 4.5, 2.25])
        let summary = try CSVTable.parse(try InputFile.readAll(out + "/summary.csv"), file: "summary.csv")
        #expect(Double(try #require(summary.column("played_s"))[0])! == 12.75)
        #expect(try #require(summary.column("final_state"))[0] == "ended")
    }
}
