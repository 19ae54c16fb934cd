import ABRSimTestSupport
import Testing

@testable import ABRSim

/// The external preload policy end to end with `Tests/Fixtures/feed/preload-next.py`.
@Suite("An external preload policy answers JSON lines that choose the item and its variant")
struct ExternalPreloadPolicyTests {
    @Test("the child's choice preloads item b's first segment at the lowest rung, so b starts at once")
    func childPreloadsTheNextItem() throws {
        let path = TestPaths.packageRoot + "/Tests/Fixtures/feed/external-preload.json"
        let report = try ScenarioRunner().run(try ScenarioLoader().load(path))
        let feed = try #require(report.feed)
        #expect(feed.items.map(\.preloadedSegments) == [0, 1])
        #expect(feed.items[1].startupSeconds == 0)
        // b's preloaded segment is at rung 0 (500 kbit/s) although the ABR policy plays rung 1.
        #expect(report.players[1].segments.map(\.variant) == [0, 1])
        #expect(feed.items.map(\.finalState) == [.ended, .ended])
    }

    @Test("a request line names the playing item and each upcoming one with what is loaded of it")
    func requestLine() throws {
        let content = try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 2, segmentCount: 2)
        let state = FeedItemState(
            position: 1, id: "b", content: content, segmentsRequested: 1, isLoading: true, bufferSeconds: 0,
            bytes: 125_000)
        let view = FeedView(
            time: 1.5, current: state, upcoming: [state], swipe: try FixedWatchTimes(seconds: []))
        let line = ExternalPreloadPolicy.request(for: view)
        let item =
            #"{"item":1,"id":"b","segmentsRequested":1,"segmentCount":2,"segmentDuration":2,"ladderKbps":[500],"#
            + #""buffer":0,"bytes":125000,"loading":true}"#
        #expect(line == #"{"type":"preload","time":1.5,"current":"# + item + #","upcoming":["# + item + "]}")
        #expect(
            ExternalPreloadPolicy.parseReply(#"{"item": 2, "variant": 1}"#) == .success(.preload(item: 2, variant: 1)))
        #expect(ExternalPreloadPolicy.parseReply(#"{"sleep": 0.5}"#) == .success(.sleep(seconds: 0.5)))
        #expect((try? ExternalPreloadPolicy.parseReply(#"{"item": 1.5}"#).get()) == nil)
    }
}
