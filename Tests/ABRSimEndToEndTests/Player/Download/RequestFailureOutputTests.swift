import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// A failure through the binary: `summary.csv` and `timeline.csv` show the failed player, its reason and its
/// timeouts, while the other player on the link rides out the outage and ends.
@Suite("a request failure in the outputs")
struct RequestFailureOutputTests {
    /// 2 Mbit/s for 10 s, a 100 s outage, then 2 Mbit/s; two players at 1 Mbit/s each download 4 Mbit segments
    /// in 4 s: segment 2 is in flight (since 8 s) when the outage begins at 10 s. `short` (5 s timeout, 2
    /// retries) times out at 15, retries at 16, times out at 21, retries at 23 and fails at 28. `patient`
    /// (defaults) times out at 70, retries at 71, and that request completes when the network returns.
    static let scenario = #"""
        {"name": "outage", "network": {"rttMs": 0, "stretches": [{"constantKbps": 2000, "seconds": 10},
          {"outageSeconds": 100}, {"constantKbps": 2000, "seconds": 1000}]},
         "content": {"ladderKbps": [1000], "segmentSeconds": 4, "segments": 5},
         "players": [{"id": "short", "policy": "fixed", "requests": {"timeoutSeconds": 5, "maxRetries": 2}},
                     {"id": "patient", "policy": "fixed"}]}
        """#

    @Test(
        "the summary, timeline and segments show a timed-out player's failure, reason and retries while the other ends")
    func summaryAndTimelineShowTheFailureAndTheRetries() throws {
        let directory = TestPaths.scratch("failure-output")
        writeFile(directory, "s.json", Self.scenario)
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: directory)
        // Every file is written; the failed player makes `run` exit 1 with one stderr line giving its reason.
        let reason = "segment 2 timed out 3 times (no data for 5 s; retry limit 2)"
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.split(separator: "\n").count == 1)
        #expect(outcome.standardError.contains(reason), "\(outcome.standardError)")
        let summary = try CSVTable.parse(try InputFile.readAll(directory + "/out/summary.csv"), file: "summary.csv")
        #expect(summary.column("player") == ["short", "patient"])
        #expect(summary.column("final_state") == ["failed", "ended"])
        #expect(summary.column("failure_reason") == [reason, ""])
        #expect(summary.column("timeout_count") == ["3", "1"])
        #expect(summary.column("retry_count") == ["2", "1"])
        #expect(summary.column("end_s")?.first == "28")
        let timeline = try CSVTable.parse(try InputFile.readAll(directory + "/out/timeline.csv"), file: "timeline.csv")
        let players = try #require(timeline.column("player"))
        let states = try #require(timeline.column("state"))
        let reasons = try #require(timeline.column("failure_reason"))
        let times = try #require(timeline.column("t_s"))
        let failed = players.indices.filter { players[$0] == "short" && states[$0] == "failed" }
        #expect(failed.count == 1)
        #expect(failed.map { reasons[$0] } == [reason])
        #expect(failed.map { times[$0] } == ["28"])
        let segments = try CSVTable.parse(try InputFile.readAll(directory + "/out/segments.csv"), file: "segments.csv")
        let timedOut = try #require(segments.column("timed_out"))
        let attempts = try #require(segments.column("attempt"))
        let owners = try #require(segments.column("player"))
        #expect(
            owners.indices.filter { owners[$0] == "short" && timedOut[$0] == "true" }.map { attempts[$0] } == [
                "1", "2", "3",
            ])
    }
}
