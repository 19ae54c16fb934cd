import Foundation

/// Local HLS presentations for the content tests: media playlists and a two-variant master in a scratch folder.
package enum HLSFixture {
    /// A media playlist with the given `#EXTINF` durations and optional byte-range lengths.
    package static func media(_ durations: [String], bytes: [Int]? = nil, endList: Bool = true) -> String {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        for (i, duration) in durations.enumerated() {
            text += "#EXTINF:\(duration),\n"
            if let bytes { text += "#EXT-X-BYTERANGE:\(bytes[i])@0\n" }
            text += "v.mp4\n"
        }
        return text + (endList ? "#EXT-X-ENDLIST\n" : "")
    }

    /// A folder with `master.m3u8` listing a 3000 kbit/s variant first, then 500, each with its playlist.
    package static func presentation(
        master: String? = nil, low: String? = nil, high: String? = nil
    ) -> String {
        let folder = TestPaths.scratch("hls")
        writeFile(
            folder, "master.m3u8",
            master ?? """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2",FRAME-RATE=29.970
                high.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=500000
                low.m3u8
                """)
        writeFile(folder, "high.m3u8", high ?? media(["6.0", "4.5", "2.25"], bytes: [2_000_000, 1_500_000, 700_000]))
        writeFile(folder, "low.m3u8", low ?? media(["6.0", "4.5", "2.25"]))
        return folder + "/master.m3u8"
    }
}
