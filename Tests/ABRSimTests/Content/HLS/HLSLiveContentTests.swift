import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Live HLS playlists (no `#EXT-X-ENDLIST`) read as the VOD ones are, with their live tags, where live is allowed.
@Suite("live HLS playlists")
struct HLSLiveContentTests {
    static let liveMedia = """
        #EXTM3U
        #EXT-X-TARGETDURATION:4
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=12,PART-HOLD-BACK=3.0
        #EXT-X-PART-INF:PART-TARGET=1.0
        #EXT-X-PART:DURATION=1.0,URI="a.0.mp4"
        #EXTINF:4.0,
        a.mp4
        #EXTINF:4.0,
        b.mp4
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="c.0.mp4"

        """

    @Test("a live playlist gives its event: 4 s targets, 1 s parts, 12 s and 3 s hold-backs, preload hints, 8 parts")
    func aLivePlaylistGivesItsPresentation() throws {
        let master = HLSFixture.presentation(low: Self.liveMedia, high: Self.liveMedia)
        let (content, live) = try HLSContent.readLive(masterPath: master)
        #expect(content.segmentCount == 2)
        let stream = try #require(live)
        #expect(stream.kind == .event)
        #expect(stream.targetDurationSeconds == 4)
        #expect(stream.partTargetSeconds == 1)
        #expect(stream.holdBackSeconds == 12)
        #expect(stream.partHoldBackSeconds == 3)
        #expect(stream.refresh == .preloadHint)
        #expect(try content.playedLive(as: stream).segmentCount == 8)
    }

    @Test("a live playlist is refused where only video on demand is read")
    func aLivePlaylistIsRefusedWhereOnlyVideoOnDemandIs() throws {
        let master = HLSFixture.presentation(low: Self.liveMedia, high: Self.liveMedia)
        #expect(throws: InputError.self) { try HLSContent.read(masterPath: master) }
    }

    @Test("a master playlist with one live and one on-demand variant is refused")
    func variantsMustAllBeLiveOrAllOnDemand() throws {
        let vod = HLSFixture.media(["4.0", "4.0"])
        let master = HLSFixture.presentation(low: Self.liveMedia, high: vod)
        #expect(throws: InputError.self) { try HLSContent.readLive(masterPath: master) }
    }

    @Test("a live playlist of 6 s targets without parts holds back 18 s and reloads every 6 s")
    func aPlaylistWithoutPartsReloadsEveryTargetDuration() throws {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.mp4\n#EXTINF:6,\nb.mp4\n"
        let master = HLSFixture.presentation(low: media, high: media)
        let stream = try #require(try HLSContent.readLive(masterPath: master).live)
        #expect(stream.holdBackSeconds == 18)
        #expect(stream.refresh == .reload(intervalSeconds: 6))
        #expect(stream.kind == .live)
    }
}
