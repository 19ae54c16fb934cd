import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Feed runs on a constant 1 Mbit/s link with 500 kbit/s, 2 s segments (1 Mbit = 125,000 B each, 1 s alone on the
/// link), computed by hand.
@Suite("A feed's items play in turn, preload over the shared link, and count wasted bytes exactly")
struct FeedSessionTests {
    static func run(items: String, watch: [Double], preload: String, window: Int = 1, player: String = "")
        throws -> RunReport
    {
        let json = """
            {"network": {"stretches": [{"constantKbps": 1000, "seconds": 1000}]},
             "feed": {"player": {"id": "viewer", "policy": "fixed(variant=0)",
                                 "automaticallyWaitsToMinimizeStalling": false\(player)},
                      "items": \(items), "recommendationWindow": \(window),
                      "swipe": {"model": "fixed", "watchSeconds": \(watch)}, "preload": "\(preload)"}}
            """
        let scenario = try ScenarioLoader().load(
            json: Array(json.utf8), label: "feed.json", directory: ".", defaultName: "feed")
        return try ScenarioRunner().run(scenario)
    }

    /// Items a and b of 4 s, each watched to the end, the first segment of b preloaded; `expect` an `expect` list.
    static func twoItems(expect: String? = nil) throws -> Scenario {
        let json = """
            {"network": {"stretches": [{"constantKbps": 1000, "seconds": 1000}]},
             "feed": {"player": {"id": "viewer", "policy": "fixed(variant=0)",
                                 "automaticallyWaitsToMinimizeStalling": false},
                      "items": [\(item("a", seconds: 4)), \(item("b", seconds: 4))],
                      "recommendationWindow": 1, "swipe": {"model": "fixed", "watchSeconds": [4, 4]},
                      "preload": "chunks(count=1,items=1)"}\(expect.map { ", \"expect\": " + $0 } ?? "")}
            """
        return try ScenarioLoader().load(
            json: Array(json.utf8), label: "feed.json", directory: ".", defaultName: "feed")
    }

    static func item(_ id: String, seconds: Int) -> String {
        "{\"id\": \"\(id)\", \"content\": {\"ladderKbps\": [500], \"segmentSeconds\": 2, \"durationSeconds\": \(seconds)}}"
    }

    @Test("one item watched 2.5 s with a 2 s buffer target starts after 1 s and wastes half of the segment in flight")
    func oneItemFixedWatch() throws {
        // Segment 0 by t = 1 (startup 1 s); segment 1 over 1…2; the buffer (3 s at t = 2) drains to the 2 s target at
        // t = 3, when segment 2 is requested; the viewer leaves at 1 + 2.5 = 3.5 s with 62,500 B of it.
        let report = try Self.run(
            items: "[\(Self.item("a", seconds: 10))]", watch: [2.5], preload: "none",
            player: ", \"preferredForwardBufferDuration\": 2")
        let feed = try #require(report.feed)
        #expect(feed.items[0].startupSeconds == 1)
        #expect(feed.items[0].watchedSeconds == 2.5)
        #expect(feed.bytes == 312_500)
        #expect(feed.wastedBytes == 62_500)
        #expect(report.endTime == 3.5)
        #expect(report.players[0].segments.last?.cancelled == true)
        #expect(report.players[0].item == "a")
    }

    @Test("a preloaded item starts in zero time and its preloaded bytes count once")
    func preloadedItemStartsAtOnce() throws {
        // Item a's segment 0 and b's preloaded segment 0 share the link: both done at t = 2 (a starts, 2 s); a's
        // segment 1 over 2…3; a ends at 6, when b starts from its preloaded segment (0 s) and loads segment 1 over 6…7.
        let report = try Self.run(
            items: "[\(Self.item("a", seconds: 4)), \(Self.item("b", seconds: 4))]", watch: [4, 4],
            preload: "chunks(count=1,items=1)")
        let feed = try #require(report.feed)
        #expect(feed.items.map(\.startupSeconds) == [2, 0])
        #expect(feed.items.map(\.playingSince) == [0, 6])
        #expect(feed.items.map(\.preloadedSegments) == [0, 1])
        #expect(feed.items.map(\.bytes) == [250_000, 250_000])
        #expect(feed.bytes == 500_000)
        #expect(feed.wastedBytes == 0)
        #expect(feed.startupMeanSeconds == 1)
        #expect(report.endTime == 10)
        #expect(report.players.map(\.item) == ["a", "b"])
    }

    @Test("a swipe during a download counts the abandoned bytes and the segments past the swipe as waste")
    func swipeDuringDownload() throws {
        // Segments 0…3 done at 1, 2, 3, 4 s; segment 4 is in flight when the viewer leaves at 1 + 3.5 = 4.5 s, with
        // 62,500 B of it; segments 2 and 3 (from 4 s and 6 s of media) were never played.
        let report = try Self.run(items: "[\(Self.item("a", seconds: 20))]", watch: [3.5], preload: "none")
        let feed = try #require(report.feed)
        #expect(feed.items[0].startupSeconds == 1)
        #expect(feed.bytes == 562_500)
        #expect(feed.wastedBytes == 312_500)
        #expect(feed.downloadWatchRatio == 8 / 3.5)
        let cancelled = report.players[0].segments.filter(\.cancelled)
        #expect(cancelled.map(\.bytes) == [62_500])
        #expect(report.players[0].summary.finalState == .ended)
    }

    @Test(
        "the challenge's QoE adds the watched segments' Mbit/s and takes 1.85 per startup second; the score 0.5 per megabit"
    )
    func challengeScore() throws {
        let report = try Self.run(items: "[\(Self.item("a", seconds: 20))]", watch: [3.5], preload: "none")
        let feed = try #require(report.feed)
        // Watched segments 0 and 1 at 0.5 Mbit/s, no switch; startup 1 s; 562,500 B = 4.5 Mbit.
        #expect(abs(feed.qoe - (1.0 - 1.85)) < 1e-12)
        #expect(abs(feed.score - (1.0 - 1.85 - 2.25)) < 1e-12)
    }
}

/// The feed's tables: the `item` column only in feed runs, `items.csv` and `feed.csv`, and `feed.*` expectations.
@Suite("Feed runs add an item column, items.csv and feed.csv, and expectations on feed.csv")
struct FeedTablesTests {
    @Test("segments.csv and timeline.csv end with the item column in feed runs only")
    func itemColumn() throws {
        let report = try FeedSessionTests.run(
            items: "[\(FeedSessionTests.item("a", seconds: 4)), \(FeedSessionTests.item("b", seconds: 4))]",
            watch: [4, 4], preload: "chunks(count=1,items=1)")
        #expect(RunTables.segments(feed: true).names.last == "item")
        #expect(!RunTables.segments(feed: false).names.contains("item"))
        #expect(!RunTables.timeline(live: false).names.contains("item"))
        var writer = RunTables.segments(feed: true).writer()
        RunTables.appendSegments(report, to: &writer)
        let table = try CSVTable.parse(writer.takeBytes(), file: "segments.csv")
        #expect(table.column("item") == ["a", "a", "b", "b"])
        let items = try CSVTable.parse(FeedTables.items(report, try #require(report.feed)), file: "items.csv")
        #expect(items.column("startup_s") == ["2", "0"])
        #expect(items.column("preloaded_segments") == ["0", "1"])
    }

    @Test("an expectation on feed.startup_mean_s is judged on the feed.csv value")
    func feedExpectation() throws {
        let scenario = try FeedSessionTests.twoItems(
            expect: #"[{"player": "viewer", "metric": "feed.startup_mean_s", "max": 1},"#
                + #"{"player": "viewer", "metric": "feed.wasted_bytes", "max": -1}]"#)
        let results = try ExpectationEvaluator.evaluate(scenario, report: try ScenarioRunner().run(scenario))
        #expect(results.map(\.measured) == ["1", "0"])
        #expect(results.map(\.passed) == [true, false])
    }
}

/// The timeline of a feed run: the items as bands, the playing item's rows only.
@Suite("A feed run's timeline shows its items as bands over one viewer")
struct FeedPlotTests {
    @Test(
        "items.csv gives one band per played item; the viewer's rows are the playing item's; every other band is tinted"
    )
    func itemsAreBands() throws {
        let scenario = try FeedSessionTests.twoItems()
        let report = try ScenarioRunner().run(scenario)
        var bundle = RunTables.bundle(for: report)
        bundle.add(name: "capacity.csv", bytes: CapacityTable.csv(curve: scenario.network.curve, end: report.endTime))
        let scratch = TestPaths.scratch("feed-plot")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try bundle.commit(to: scratch)
        let data = try RunPlotData.load(directory: scratch)
        #expect(data.players.map(\.id) == ["viewer"])
        #expect(data.items.map(\.id) == ["a", "b"])
        #expect(data.items.map(\.start) == [0, 6])
        #expect(data.items.map(\.end) == [6, 10])
        // b preloads over 0…2 while a plays: those rows of b are not the viewer's.
        #expect(data.players[0].timeline.allSatisfy { $0.item == ($0.time < 6 ? "a" : "b") })
        let svg = SVGElements(TimelinePlot.svg(data, players: [0]).text)
        // Capacity, bitrate and buffer panels: b's band tinted on each; both labels on the capacity panel only.
        #expect(svg.role("feed-item").count == 3)
        #expect(svg.role("feed-item-label").map(\.text) == ["a", "b"])
    }
}
