import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Long sessions keep their accounting exact: the buffer is never negative, every segment is played once, the
/// played time is the content minus what was skipped (checked in integer microseconds), and each player's time
/// adds up (startup + stalls + played = its session). The suite runs one simulated hour for four players; the
/// full day for sixteen (`scenarios/long/day-16-players.json`) runs with `ABRSIM_LONG=1`.
@Suite("exact accounts over long runs")
struct LongRunInvariantTests {
    /// Microseconds, rounded: exact integer arithmetic for the accounting.
    static func micros(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }

    /// What is wrong with `report` of a run of `content` (empty when every invariant holds).
    static func violations(_ report: RunReport, content: Content, startSeconds: [Double]) -> [String] {
        var found: [String] = []
        let contentMicros = content.segmentDurations.reduce(Int64(0)) { $0 + micros($1) }
        for (index, player) in report.players.enumerated() {
            let id = player.id
            for row in player.timeline where row.bufferSeconds < 0 || row.playheadSeconds < 0 {
                found.append("\(id): negative buffer or playhead at t = \(row.time)")
            }
            for r in player.segments where r.bufferBeforeSeconds < 0 || r.bufferAfterSeconds < 0 {
                found.append("\(id): negative buffer around segment \(r.segment) at t = \(r.doneTime)")
            }
            let completed = player.segments.filter { !$0.abandoned }
            if completed.map(\.segment) != Array(0..<content.segmentCount) {
                found.append("\(id): segments not downloaded exactly once each, in order")
            }
            let downloadedMicros = completed.reduce(Int64(0)) { $0 + micros($1.durationSeconds) }
            let s = player.summary
            let playedMicros = micros(s.playedSeconds)
            if downloadedMicros != contentMicros || playedMicros != contentMicros - micros(s.skippedSeconds) {
                found.append(
                    "\(id): played \(playedMicros) µs, downloaded \(downloadedMicros) µs, content \(contentMicros) µs")
            }
            // Stall time again, from the timeline's buffering intervals, with a compensated (Kahan) sum.
            var stall = 0.0
            var compensation = 0.0
            for (row, next) in zip(player.timeline, player.timeline.dropFirst()) where row.state == .buffering {
                let term = (next.time - row.time) - compensation
                let sum = stall + term
                compensation = (sum - stall) - term
                stall = sum
            }
            if abs(stall - s.stallSeconds - s.seekWaitSeconds) > 1e-6 {
                found.append("\(id): stalls \(s.stallSeconds) s in the summary, \(stall) s in the timeline")
            }
            guard let end = s.endTime, let startup = s.startupSeconds else {
                found.append("\(id): did not end")
                continue
            }
            let session = end - startSeconds[index]
            let accounted = startup + s.stallSeconds + s.seekWaitSeconds + s.playedSeconds
            if abs(session - accounted) > 1e-6 {
                found.append("\(id): session \(session) s but startup + stalls + played = \(accounted) s")
            }
        }
        return found
    }

    /// Runs `scenarios/long/NAME.json` and returns what is wrong with it.
    static func check(_ name: String) throws -> (RunReport, [String]) {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/long/\(name).json")
        let report = try ScenarioRunner().run(scenario)
        let content = scenario.players[0].content
        let starts = scenario.players.map(\.settings.startSeconds)
        return (report, violations(report, content: content, startSeconds: starts))
    }

    /// The hour's run, shared by the tests that read it (run once: it is the slowest part of the suite).
    static let hour = Result { try check("hour-4-players") }

    @Test("an hour for four players keeps exact accounts: no negative buffer, each segment once, time adding up")
    func anHourForFourPlayersKeepsExactAccounts() throws {
        let (report, violations) = try Self.hour.get()
        #expect(report.players.count == 4)
        #expect(report.players.allSatisfy { $0.summary.finalState == .ended && $0.summary.segments == 600 })
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the invariant check catches a negative buffer and a missing second of play")
    func theCheckCatchesANegativeBufferAndAMissingSecond() throws {
        let (report, _) = try Self.hour.get()
        var broken = report
        broken.players[0].timeline[5].bufferSeconds = -1e-12
        broken.players[1].summary.playedSeconds -= 1
        let content = try ScenarioLoader().load(TestPaths.scenarios + "/long/hour-4-players.json").players[0].content
        let found = Self.violations(broken, content: content, startSeconds: [0, 7, 14, 21])
        #expect(found.contains { $0.hasPrefix("p00: negative buffer") })
        #expect(found.contains { $0.hasPrefix("p01: played") })
        #expect(found.contains { $0.hasPrefix("p01: session") })
    }

    @Test(
        "a day for sixteen players keeps exact accounts: no negative buffer, each segment once, time adding up",
        .enabled(if: ProcessInfo.processInfo.environment["ABRSIM_LONG"] == "1"))
    func aDayForSixteenPlayersKeepsExactAccounts() throws {
        let (report, violations) = try Self.check("day-16-players")
        #expect(report.players.count == 16)
        #expect(report.players.allSatisfy { $0.summary.finalState == .ended && $0.summary.segments == 14_400 })
        #expect(violations.isEmpty, "\(violations)")
    }
}
