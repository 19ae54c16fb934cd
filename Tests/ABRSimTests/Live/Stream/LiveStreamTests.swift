import Testing

@testable import ABRSim

/// Availability, the seekable range, when a unit may be requested, and the split into parts, by hand.
@Suite("a live stream's availability, seekable range, refresh and parts")
struct LiveStreamTests {
    /// 5 segments of 2 s (1000 kbit/s) from media 0, available from t = 10 s.
    func content(part: Double? = nil, kind: LiveStream.Kind = .live, window: Double? = nil) throws -> Content {
        let stream = LiveStream(
            availabilityStartSeconds: 10, kind: kind, dvrWindowSeconds: window, targetDurationSeconds: 2,
            partTargetSeconds: part)
        return try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 5)
            .playedLive(as: stream)
    }

    @Test("2 s segment i is available at the start + 2(i + 1): 12 to 20 s, with a 6 s hold-back")
    func aWholeSegmentIsAvailableAtTheStartPlusItsEnd() throws {
        let live = try content()
        let stream = try #require(live.live)
        // Segment i: availability start + (i + 1) × duration.
        #expect((0..<5).map { stream.availability(of: $0, in: live) } == [12, 14, 16, 18, 20])
        #expect(stream.availableEnd(at: 11.9, in: live) == 0)
        #expect(stream.availableEnd(at: 12, in: live) == 2)
        #expect(stream.availableEnd(at: 15.5, in: live) == 4)
        #expect(stream.availableEnd(at: 100, in: live) == 10)
        #expect(stream.liveEdge(at: 15.5, duration: live.duration) == 5.5)
        #expect(stream.holdBackSeconds == 6)
        #expect(stream.refresh == .reload(intervalSeconds: 2))
    }

    @Test("0.5 s parts split 5 segments into 20, each available at its end, with a 1.5 s part hold-back")
    func partsSplitEachSegmentAndAreAvailableOneByOne() throws {
        let live = try content(part: 0.5)
        let stream = try #require(live.live)
        #expect(live.segmentCount == 20)
        #expect(live.sizeBits(segment: 3, variant: 0) == 500_000)
        #expect(stream.availability(of: 0, in: live) == 10.5)
        #expect(stream.availability(of: 5, in: live) == 13)
        #expect(stream.partHoldBackSeconds == 1.5)
        #expect(stream.effectiveHoldBackSeconds == 1.5)
        #expect(stream.refresh == .reload(intervalSeconds: 0.5))
    }

    @Test("a 2 s segment in 0.75 s parts ends with a 0.5 s part of 500 kbit")
    func aSegmentThatIsNotAWholeNumberOfPartsEndsWithAShortPart() throws {
        let stream = LiveStream(availabilityStartSeconds: 0, targetDurationSeconds: 2, partTargetSeconds: 0.75)
        let live = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 2)
            .playedLive(as: stream)
        #expect(live.segmentDurations == [0.75, 0.75, 0.5, 0.75, 0.75, 0.5])
        #expect(live.sizeBits(segment: 2, variant: 0) == 500_000)
    }

    @Test("at 19 s a 4 s DVR window seeks from 4 to 8 s and an event from 0 to 8 s")
    func theDVRWindowSlidesAndAnEventKeepsEverything() throws {
        // At 19 s media up to 9 s is encoded, so segments up to the one ending at 8 s are available.
        let sliding = try content(window: 4)
        #expect(sliding.live!.seekableRange(at: 19, in: sliding) == 4...8)
        let event = try content(kind: .event)
        #expect(event.live!.seekableRange(at: 19, in: event) == 0...8)
    }

    @Test("a unit available at 16 s is requested at 16.3 s by 2 s reloads from 0.3 s, 20 s by 5 s, 15.9 s by a hint")
    func theRefreshDecidesWhenAUnitMayBeRequested() throws {
        let live = try content()
        let stream = try #require(live.live)
        // Segment 2 is available at 16 s. Reloads every 2 s from 0.3 s find it at 16.3 s; every 5 s from 0, at 20 s.
        #expect(
            abs(
                stream.requestTime(of: 2, in: live, refresh: .reload(intervalSeconds: 2), origin: 0.3, rttSeconds: 0.1)
                    - 16.3) < 1e-12)
        #expect(
            stream.requestTime(of: 2, in: live, refresh: .reload(intervalSeconds: 5), origin: 0, rttSeconds: 0.1) == 20)
        #expect(stream.requestTime(of: 2, in: live, refresh: .template, origin: 0, rttSeconds: 0.1) == 16)
        #expect(stream.requestTime(of: 2, in: live, refresh: .blockingReload, origin: 0, rttSeconds: 0.1) == 16)
        #expect(stream.requestTime(of: 2, in: live, refresh: .preloadHint, origin: 0, rttSeconds: 0.1) == 15.9)
        // A unit available before the player loaded the playlist is known at once.
        #expect(
            stream.requestTime(of: 0, in: live, refresh: .reload(intervalSeconds: 2), origin: 13, rttSeconds: 0) == 13)
    }
}
