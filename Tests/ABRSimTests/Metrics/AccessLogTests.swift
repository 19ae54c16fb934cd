import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("the access log")
struct AccessLogTests {
    /// A timeline row: `state` decides `timeControlStatus` (playing, paused, or waiting).
    func row(_ t: Double, _ state: PlaybackState, playhead: Double, buffer: Double) -> TimelineRecord {
        let status: TimeControlStatus =
            state == .playing ? .playing : state == .paused || state.isFinal ? .paused : .waitingToPlayAtSpecifiedRate
        return TimelineRecord(
            time: t, player: 0, state: state, timeControlStatus: status, waitingReason: nil, bufferSeconds: buffer,
            playheadSeconds: playhead, bitrateBps: 0, linkShare: 0, isPlaybackLikelyToKeepUp: false,
            isPlaybackBufferEmpty: buffer == 0, isPlaybackBufferFull: false)
    }

    /// A 4 s segment.
    func segment(
        _ index: Int, variant: Int, request: Double, firstByte: Double, done: Double, bytes: Double, stall: Double = 0
    ) -> SegmentRecord {
        SegmentRecord(
            player: 0, segment: index, variant: variant, bitrateBps: variant == 0 ? 1e6 : 2e6, durationSeconds: 4,
            bytes: bytes, requestTime: request, firstByteTime: firstByte, doneTime: done,
            throughputBps: bytes * 8 / (done - firstByte), bufferBeforeSeconds: 0, bufferAfterSeconds: 4,
            stallSeconds: stall)
    }

    /// Startup, a pause and resume, a seek while playing, a stall, the end: three periods.
    @Test("a pause and a seek each start a new access-log event and a stall does not, with each event's fields by hand")
    func pausesAndSeeksSplitPeriodsAndStallsDoNot() {
        let timeline = [
            row(0, .loading, playhead: 0, buffer: 0),
            row(1.1, .playing, playhead: 0, buffer: 4),
            row(3, .paused, playhead: 1.9, buffer: 6.1),
            row(10, .playing, playhead: 1.9, buffer: 6.1),
            row(12, .buffering, playhead: 40, buffer: 0),  // seek to 40 s while playing
            row(13.1, .playing, playhead: 40, buffer: 4),
            row(17.1, .buffering, playhead: 44, buffer: 0),  // stall
            row(18.2, .playing, playhead: 44, buffer: 4),
            row(22.2, .ended, playhead: 48, buffer: 0),
        ]
        let segments = [
            segment(0, variant: 0, request: 0, firstByte: 0, done: 1.1, bytes: 550_000),  // 4 Mbit/s sample
            segment(1, variant: 1, request: 1.1, firstByte: 1.1, done: 2.1, bytes: 1_000_000),  // 8 Mbit/s
            segment(10, variant: 1, request: 12, firstByte: 12.1, done: 13.1, bytes: 1_000_000),  // 8 Mbit/s
            segment(11, variant: 0, request: 13.1, firstByte: 13.2, done: 18.2, bytes: 500_000, stall: 1.1),
        ]
        let events = AccessLog.events(timeline: timeline, segments: segments, endTime: 22.2)
        #expect(events.count == 3)
        guard events.count == 3 else { return }
        let (a, b, c) = (events[0], events[1], events[2])
        #expect(a.startTime == 0 && a.endTime == 3)
        #expect(b.startTime == 10 && b.endTime == 12)
        #expect(c.startTime == 12 && c.endTime == 22.2)

        // First period: segments 0 and 1.
        #expect(a.indicatedBitrate == 1.5e6)
        #expect(a.numberOfBytesTransferred == 1_550_000)
        #expect(abs(a.transferDuration - 2.1) < 1e-12)
        #expect(abs(a.observedBitrate - 1_550_000 * 8 / 2.1) < 1e-6)
        let samples = [550_000 * 8 / 1.1, 8e6]
        #expect(abs(a.observedBitrateStandardDeviation - abs(samples[0] - samples[1]) / 2.0.squareRoot()) < 1e-6)
        #expect(abs(a.switchBitrate - samples[0]) < 1e-6)  // segment 0 had just arrived when 1 was requested
        #expect(a.numberOfStalls == 0)
        #expect(abs(a.startupTime - 1.1) < 1e-12)
        #expect(abs(a.durationWatched - 1.9) < 1e-12)
        #expect(a.segmentsDownloadedDuration == 8)
        #expect(a.numberOfMediaRequests == 2 && a.downloadOverdue == 0)

        // The resumed period downloads nothing: unknowns are −1.
        #expect(b.indicatedBitrate == -1 && b.observedBitrate == -1 && b.observedBitrateStandardDeviation == -1)
        #expect(b.switchBitrate == -1 && b.numberOfMediaRequests == 0 && b.numberOfBytesTransferred == 0)
        #expect(b.startupTime == 0 && b.durationWatched == 2)

        // After the seek: the refill is its startup, the stall is counted, segment 11 was overdue.
        #expect(c.numberOfStalls == 1)
        #expect(abs(c.startupTime - 1.1) < 1e-12)
        #expect(abs(c.durationWatched - 8) < 1e-12)
        #expect(c.indicatedBitrate == 1.5e6)
        #expect(abs(c.transferDuration - 6.2) < 1e-12)
        #expect(abs(c.switchBitrate - 8e6) < 1e-6)  // segment 10's sample, when 11 switched down
        #expect(c.downloadOverdue == 1 && c.numberOfMediaRequests == 2)
    }

    @Test(
        "the access-log events of a stalling scenario add up to its totals, one CSV row each with Apple's field names")
    func eventsAddUpToTheRunsTotals() throws {
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/tunnel-stall.json")
        let report = try ScenarioRunner().run(scenario)
        let player = report.players[0]
        let events = AccessLog.events(timeline: player.timeline, segments: player.segments, endTime: report.endTime)
        #expect(!events.isEmpty)
        #expect(events.map(\.numberOfStalls).reduce(0, +) == player.summary.stallCount)
        #expect(abs(events.map(\.numberOfBytesTransferred).reduce(0, +) - player.summary.bytes) < 1e-6)
        #expect(events.map(\.numberOfMediaRequests).reduce(0, +) == player.segments.count)
        #expect(abs(events[0].startupTime - (player.summary.startupSeconds ?? -1)) < 1e-9)
        #expect(abs(events.map(\.durationWatched).reduce(0, +) - player.summary.playedSeconds) < 1e-6)
        // The CSV has one row per event with Apple's field names.
        var writer = CSVWriter(columns: RunTables.accessLogColumns)
        RunTables.appendAccessLog(report, to: &writer)
        let table = try CSVTable.parse(writer.takeBytes(), file: "access_log.csv")
        #expect(table.rows.count == events.count)
        #expect(table.column("number_of_stalls")!.compactMap { Int($0) }.reduce(0, +) == player.summary.stallCount)
        #expect(table.columns.contains("observed_bitrate_standard_deviation"))
    }

    /// A sequence that counts how many times it is iterated.
    final class Passes: @unchecked Sendable { var count = 0 }
    struct Counted<Element>: Sequence {
        let elements: [Element]
        let passes: Passes
        func makeIterator() -> IndexingIterator<[Element]> {
            passes.count += 1
            return elements.makeIterator()
        }
    }

    @Test(
        "the events read front to back from the records in order, at most twice each, are those of the records in any order"
    )
    func eventsReadFrontToBackAreThoseOfTheRecordsInAnyOrder() throws {
        for path in ["ci/pause-seek.json", "ci/cache-seek-back.json", "tunnel-stall.json"] {
            let report = try ScenarioRunner().run(try ScenarioLoader().load(TestPaths.scenarios + "/" + path))
            for player in report.players {
                let segments = player.segments
                #expect(AccessLog.isInRequestOrder(segments) && AccessLog.isInArrivalOrder(segments), "\(path)")
                let events = AccessLog.events(timeline: player.timeline, segments: segments, endTime: report.endTime)
                #expect(!events.isEmpty, "\(path)")
                let (rowPasses, requestPasses, arrivalPasses) = (Passes(), Passes(), Passes())
                let read = AccessLog.events(
                    rows: Counted(elements: player.timeline, passes: rowPasses),
                    ordered: Counted(elements: segments, passes: requestPasses),
                    arrivals: Counted(elements: segments.filter { !$0.abandoned }, passes: arrivalPasses),
                    endTime: report.endTime)
                #expect(read == events, "\(path)")
                #expect(rowPasses.count == 2 && requestPasses.count == 1 && arrivalPasses.count == 2, "\(path)")
                // Sent at distinct instants, the records in reverse order are sorted back to the same events.
                guard Set(segments.map(\.requestTime)).count == segments.count else { continue }
                let reversed = AccessLog.events(
                    timeline: player.timeline, segments: Array(segments.reversed()), endTime: report.endTime)
                #expect(!AccessLog.isInRequestOrder(Array(segments.reversed())) || segments.count < 2)
                #expect(reversed == events, "\(path) reversed")
            }
        }
    }
}
