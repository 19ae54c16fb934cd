import ABRSimTestSupport
import Testing

@testable import ABRSim

/// A run that keeps no segment records (a `--no-segments` sweep, `check`) summarises through a ``SegmentTally``
/// fed as it goes; its summaries must be exactly those of a run that keeps every record, abandoned and timed-out
/// requests included, and it must hold nothing per segment.
@Suite("summaries without segment records")
struct SegmentTallyTests {
    /// Two players (`dynamic`, which abandons, and `exoplayer`) through a drop to 150 kbit/s and a 70-s outage, so
    /// the run has abandoned requests, timeouts and retries, stalls and switches.
    static let scenario = """
        {"name": "tally", "network": {"stretches": [{"constantKbps": 8000, "seconds": 20, "rttMs": 40},
            {"constantKbps": 150, "seconds": 15, "rttMs": 40}, {"outageSeconds": 70},
            {"constantKbps": 3000, "seconds": 200, "rttMs": 40}]},
         "content": {"ladderKbps": [300, 750, 1200, 1850, 2850, 4300], "segmentSeconds": 4, "segments": 40},
         "players": [{"id": "d", "policy": "dynamic", "requests": {"timeoutSeconds": 10, "maxRetries": 10}},
                     {"id": "e", "policy": "exoplayer"}]}
        """

    @Test("summaries tallied without segment records equal those with them, through abandons, timeouts and stalls")
    func summariesWithoutRecordsAreThoseWithRecords() throws {
        let folder = TestPaths.scratch("tally")
        let scenario = try ScenarioLoader().load(writeFile(folder, "s.json", Self.scenario))
        let kept = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let tallied = try ScenarioRunner().run(scenario, recordsTimeline: false, keepsSegmentRecords: false)
        #expect(kept.players.map(\.summary) == tallied.players.map(\.summary))
        #expect(tallied.players.allSatisfy { $0.segments.isEmpty })
        let records = kept.players[0].segments
        #expect(records.contains { $0.timedOut }, "the scenario must time out")
        #expect(records.contains(where: { $0.abandoned && !$0.timedOut }), "and abandon")
        #expect(kept.players.allSatisfy { $0.summary.switchCount > 0 && $0.summary.stallSeconds > 0 })
        // Hand check of the tally against the records.
        let tally = SegmentTally(ladderBps: scenario.players[0].content.variants.map(\.bitrateBps), records: records)
        #expect(tally.requestCount == records.count)
        #expect(tally.segmentCount == records.count(where: { !$0.abandoned }))
        #expect(tally.segmentCount == 40)
    }

    /// The same, with a seek that cancels a download (a `cancelled` row) and a player under slow start (its
    /// `throughput_capacity_ratio` below 1): both must survive the tally too.
    @Test("a tallied summary keeps cancelled downloads and the throughput-to-capacity ratio")
    func tallyKeepsCancelledDownloadsAndTheCapacityRatio() throws {
        let folder = TestPaths.scratch("tally-cancel")
        let text = """
            {"name": "tally-cancel", "network": {"stretches": [{"constantKbps": 2000, "seconds": 300, "rttMs": 80}]},
             "content": {"ladderKbps": [300, 750, 1200], "segmentSeconds": 4, "segments": 30},
             "players": [{"id": "s", "policy": "bba", "actions": [{"atSeconds": 10.05, "seek": 60}]},
                         {"id": "w", "policy": "throughput", "downloadModel": "slow-start"}]}
            """
        let scenario = try ScenarioLoader().load(writeFile(folder, "s.json", text))
        let kept = try ScenarioRunner().run(scenario, recordsTimeline: false)
        let tallied = try ScenarioRunner().run(scenario, recordsTimeline: false, keepsSegmentRecords: false)
        #expect(kept.players.map(\.summary) == tallied.players.map(\.summary))
        #expect(kept.players[0].segments.contains { $0.cancelled }, "the seek must cancel a download")
        let ratio = try #require(tallied.players[1].summary.throughputCapacityRatio)
        #expect(ratio > 0 && ratio < 1)
    }

    @Test("the throughput history counts every sample but keeps only a bounded run of the newest ones")
    func theThroughputHistoryKeepsItsNewestSamplesOnly() {
        let history = ThroughputHistory()
        let total = 3 * ThroughputHistory.retainedCount + 7
        for index in 0..<total {
            let time = Double(index)
            history.append(
                ThroughputSample(bits: 8, requestTime: time, firstByteTime: time, doneTime: time + 1),
                variant: index % 3)
        }
        #expect(history.count == total)
        #expect(history.samples.count >= ThroughputHistory.retainedCount)
        #expect(history.samples.count <= 2 * ThroughputHistory.retainedCount)
        #expect(history.samples.last?.requestTime == Double(total - 1))
        #expect(history.variants.last == (total - 1) % 3)
        #expect(history.samples.count == history.variants.count)
        // Consecutive: nothing in the middle was lost.
        let times = history.samples.map(\.requestTime)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 == $0 + 1 })
    }
}
