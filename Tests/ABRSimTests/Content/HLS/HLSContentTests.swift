import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Reading local HLS master and media playlists into ``Content``, and the errors for broken playlists.
@Suite("reading HLS playlists as content")
struct HLSContentTests {
    @Test("the HLS variants ascend by bandwidth with their attributes, and the first listed is the start variant")
    func variantsAscendByBandwidthAndTheFirstListedIsTheStart() throws {
        let content = try HLSContent.read(masterPath: HLSFixture.presentation())
        #expect(content.variants.map(\.bitrateBps) == [500_000, 3_000_000])
        #expect(content.startVariantIndex == 1)
        #expect(content.variants[1].averageBitrateBps == 2_500_000)
        #expect(content.variants[1].resolution == Resolution(width: 1280, height: 720))
        #expect(content.variants[1].codecs == "avc1.64001f,mp4a.40.2")
        #expect(content.variants[0].resolution == nil)
    }

    @Test("the HLS segments keep their durations, and sizes come from byte ranges or else bandwidth × duration")
    func segmentsKeepTheirOwnDurationsAndSizes() throws {
        let content = try HLSContent.read(masterPath: HLSFixture.presentation())
        #expect(content.segmentDurations == [6, 4.5, 2.25])
        #expect(content.duration == 12.75)
        // Byte ranges × 8 bits; without them, BANDWIDTH × duration.
        #expect(content.sizeBits(segment: 1, variant: 1) == 12_000_000)
        #expect(content.sizeBits(segment: 2, variant: 0) == 500_000 * 2.25)
        let two = try HLSContent.read(masterPath: HLSFixture.presentation(), segments: 2)
        #expect(two.segmentCount == 2)
    }

    @Test("the shipped Apple example has Apple's ladder, and each variant averages its AVERAGE-BANDWIDTH")
    func theShippedExampleFollowsApplesTable() throws {
        let path = TestPaths.scenarios + "/content/hls-apple/master.m3u8"
        let content = try HLSContent.read(masterPath: path)
        #expect(content.variants.map { $0.averageBitrateBps! / 1000 } == [145, 730, 2000, 4500, 7800])
        #expect(content.variants.map(\.resolution!.height) == [234, 432, 540, 720, 1080])
        #expect(content.startVariantIndex == 2)  // 2000 kbit/s is listed first
        #expect(Set(content.segmentDurations).count > 1)
        // Each variant's mean rate over the presentation is its AVERAGE-BANDWIDTH, within one byte per segment.
        for variant in 0..<content.variantCount {
            let bits = (0..<content.segmentCount).reduce(0.0) { $0 + content.sizeBits(segment: $1, variant: variant) }
            let average = content.variants[variant].averageBitrateBps!
            #expect(abs(bits / content.duration - average) <= 8 * Double(content.segmentCount) / content.duration + 1)
            #expect(bits / content.duration <= content.variants[variant].bitrateBps)
        }
    }

    /// The error reading `master` throws, or nil (recorded).
    func readError(_ master: String) -> InputError? {
        do {
            _ = try HLSContent.read(masterPath: master)
            Issue.record("no error")
        } catch let error as InputError {
            return error
        } catch {
            Issue.record("\(error)")
        }
        return nil
    }

    @Test("a missing media playlist is refused, naming the master playlist's line and the file")
    func aMissingMediaPlaylistNamesTheMasterLineAndTheFile() throws {
        let master = HLSFixture.presentation()
        try FileManager.default.removeItem(atPath: InputFile.directory(of: master) + "/low.m3u8")
        let error = try #require(readError(master))
        #expect(error.place == .line(master, 4))
        let low = InputFile.directory(of: master) + "/low.m3u8"
        #expect(
            error.problem
                == .within(
                    "media playlist ‘low.m3u8’ cannot be read", .inReferencedFile(low, .unreadable("no such file"))))
    }

    @Test("a variant without BANDWIDTH is refused, naming its master playlist line")
    func aVariantWithoutBandwidthIsAnError() throws {
        let master = HLSFixture.presentation(master: "#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=640x360\nlow.m3u8\n")
        let error = try #require(readError(master))
        #expect(error.place == .line(master, 2))
        #expect(error.problem == .within("#EXT-X-STREAM-INF", .missing("BANDWIDTH")))
    }

    @Test("a negative segment duration is refused, naming the media playlist and line")
    func aNegativeDurationNamesTheMediaPlaylistLine() throws {
        let master = HLSFixture.presentation(low: HLSFixture.media(["6.0", "-4.5", "2.25"]))
        let error = try #require(readError(master))
        #expect(error.file?.hasSuffix("low.m3u8") == true && error.place.position == .line(5))
        #expect(error.problem == .mustBe("#EXTINF duration", rule: "positive", found: "-4.5"))
    }

    @Test("bytes that are not UTF-8 in a media playlist are refused, naming the file and line")
    func nonUTF8BytesNameTheLine() throws {
        let master = HLSFixture.presentation()
        let path = InputFile.directory(of: master) + "/low.m3u8"
        var bytes = Array(HLSFixture.media(["6.0", "4.5", "2.25"]).utf8)
        bytes.insert(contentsOf: [0x23, 0xFF, 0xFE, 0x0A], at: 8)  // "#\xFF\xFE\n" as line 2
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(readError(master))
        #expect(error == InputError(.line(path, 2), .expected("UTF-8 text", found: "bytes that are not UTF-8")))
    }

    @Test("segment durations that differ between variants are refused, naming both playlists and the segment")
    func durationsMustMatchAcrossVariants() throws {
        let master = HLSFixture.presentation(low: HLSFixture.media(["6.0", "4.0", "2.25"]))
        let error = try #require(readError(master))
        // Located in one playlist, naming the other (the lowest variant's is the reference).
        #expect(error.file?.hasSuffix("high.m3u8") == true && error.place.position == .line(6))
        let low = InputFile.directory(of: master) + "/low.m3u8"
        #expect(
            error.problem
                == .disagrees("segment 1's duration", found: "4.5 s", other: "4.0 s", in: "\(low) (line 5)"),
            "\(error)")
    }

    @Test(
        "a missing ENDLIST or TARGETDURATION, a bad duration, a duplicate or missing URI, a wrong playlist is refused")
    func otherBrokenPlaylists() throws {
        let cases: [(master: String?, low: String?, problem: InputProblem)] = [
            (
                nil, HLSFixture.media(["6.0", "4.5", "2.25"], endList: false),
                .expected(
                    "video on demand, #EXT-X-ENDLIST by the last line (a live playlist is read only as a scenario's"
                        + " hlsMaster content)", found: "a live playlist")
            ),
            (
                nil, "#EXTM3U\n#EXTINF:6,\nv.mp4\n#EXT-X-ENDLIST\n",
                .missing("#EXT-X-TARGETDURATION")
            ),
            (
                nil, HLSFixture.media(["6.0", "abc", "2.25"]),
                .isNot("a number", subject: "#EXTINF duration", found: "‘abc’")
            ),
            (
                nil, HLSFixture.media(["6.0", "nan", "2.25"]),
                .isNot("a number", subject: "#EXTINF duration", found: "‘nan’")
            ),
            (
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=5\nhigh.m3u8\n", nil,
                .duplicate("5", of: "BANDWIDTH", alsoAt: "line 2")
            ),
            (
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5\n", nil,
                .unpaired("#EXT-X-STREAM-INF", missing: "a URI after it")
            ),
            ("not a playlist\n", nil, .expected("#EXTM3U first (an HLS playlist)", found: "‘not a playlist’")),
            (
                HLSFixture.media(["6.0"]), nil,
                .expected("a master playlist (#EXT-X-STREAM-INF)", found: "a media playlist (#EXTINF)")
            ),
        ]
        for item in cases {
            let master = HLSFixture.presentation(master: item.master, low: item.low)
            let error = try #require(readError(master))
            #expect(error.problem == item.problem, "\(error)")
        }
    }

    @Test("a scenario's hlsMaster and a content source path both read a master playlist")
    func scenariosAndTheCommandLineReadMasterPlaylists() throws {
        let master = HLSFixture.presentation()
        let folder = InputFile.directory(of: master)
        let scenario = writeFile(
            folder, "s.json",
            #"{"network": {"preset": "lte"}, "content": {"hlsMaster": "master.m3u8", "segments": 2},"#
                + #" "players": [{"id": "p", "policy": {"name": "fixed", "variant": 1}}]}"#)
        let loaded = try ScenarioLoader().load(scenario)
        #expect(loaded.players[0].content.segmentCount == 2)
        let viaSource = try ContentSource.load(master)
        #expect(viaSource.segmentDurations == [6, 4.5, 2.25])
    }
}
