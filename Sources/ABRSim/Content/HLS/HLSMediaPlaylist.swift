/// An HLS media playlist: the segments of one variant (RFC 8216 §4.3.2–4.3.3).
///
/// Reads `#EXT-X-TARGETDURATION` (required), each `#EXTINF:<duration>,[title]` (segments may differ in length)
/// with an optional `#EXT-X-BYTERANGE:<length>[@<offset>]`, the segment URIs, and `#EXT-X-ENDLIST`. Without
/// `#EXT-X-ENDLIST` the playlist is live (read only where live content is allowed): it lists every segment the
/// stream will have, and its live tags are read too — `#EXT-X-PART-INF:PART-TARGET`,
/// `#EXT-X-SERVER-CONTROL` (`HOLD-BACK`, `PART-HOLD-BACK`, `CAN-BLOCK-RELOAD`), `#EXT-X-PRELOAD-HINT`,
/// `#EXT-X-PLAYLIST-TYPE:EVENT`; `#EXT-X-PART` lines are accepted (parts are made from the part target). Other tags
/// are ignored. Called by ``HLSContent``; errors are ``InputError``s naming the file and line.
public struct HLSMediaPlaylist: Sendable {
    /// One media segment.
    public struct Segment: Sendable, Equatable {
        /// `#EXTINF` duration, seconds.
        public var durationSeconds: Double
        /// `#EXT-X-BYTERANGE` length in bytes, when given.
        public var byteRangeLength: Int?
        /// The segment's URI as written.
        public var uri: String
        /// The line of the `#EXTINF` tag.
        public var line: Int
    }

    /// The path the playlist was read from.
    public var path: String
    /// `#EXT-X-TARGETDURATION`, seconds.
    public var targetDurationSeconds: Double
    /// The segments in order.
    public var segments: [Segment]
    /// The live tags of a playlist without `#EXT-X-ENDLIST` (`nil`: video on demand).
    public var live: HLSLiveTags?

    /// Reads the media playlist at `path`; a live one (no `#EXT-X-ENDLIST`) is an error unless `allowsLive`.
    public static func read(path: String, allowsLive: Bool = false) throws -> HLSMediaPlaylist {
        let lines = try HLSPlaylistLines(path: path).lines
        var target: Double?
        var segments: [Segment] = []
        var duration: (seconds: Double, line: Int)?
        var byteRange: Int?
        var ended = false
        var tags = HLSLiveTags()
        for line in lines {
            let n = line.number
            if try tags.read(line.text, file: path, line: n) { continue }
            if ended, !line.text.hasPrefix("#") {
                throw InputError(.line(path, n), .expected("no segment after #EXT-X-ENDLIST", found: "‘\(line.text)’"))
            }
            if let text = HLSPlaylistLines.value(of: "#EXT-X-TARGETDURATION", in: line.text) {
                guard let value = UInt64(text.trimmingBlanks()), value > 0 else {
                    throw InputError(
                        .line(path, n),
                        .isNot("a positive whole number", subject: nil, found: "#EXT-X-TARGETDURATION:\(text)"))
                }
                target = Double(value)
            } else if let text = HLSPlaylistLines.value(of: "#EXTINF", in: line.text) {
                if let duration {
                    throw InputError(
                        .line(path, n), .unpaired("#EXTINF on line \(duration.line)", missing: "a URI after it"))
                }
                let field = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0]
                guard let seconds = HLSPlaylistLines.number(field) else {
                    throw InputError(
                        .line(path, n), .isNot("a number", subject: "#EXTINF duration", found: "‘\(field)’"))
                }
                guard seconds > 0 else {
                    throw InputError(.line(path, n), .mustBe("#EXTINF duration", rule: "positive", found: "\(field)"))
                }
                guard ScenarioBounds.segmentSeconds.contains(seconds) else {
                    throw InputError(
                        .line(path, n), .mustBe("#EXTINF duration", rule: "in 0.001…3600 s", found: "\(field)"))
                }
                duration = (seconds, n)
            } else if let text = HLSPlaylistLines.value(of: "#EXT-X-BYTERANGE", in: line.text) {
                let length = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
                guard let bytes = Int(length.trimmingBlanks()), bytes > 0 else {
                    throw InputError(
                        .line(path, n),
                        .isNot("a positive integer", subject: "#EXT-X-BYTERANGE length", found: "‘\(length)’"))
                }
                byteRange = bytes
            } else if line.text == "#EXT-X-ENDLIST" {
                ended = true
            } else if line.text.hasPrefix("#EXT-X-STREAM-INF") {
                throw InputError(
                    .line(path, n),
                    .expected("a media playlist's tag", found: "the master playlist tag #EXT-X-STREAM-INF"))
            } else if line.text.hasPrefix("#") {
                continue
            } else {
                guard let (seconds, tagLine) = duration else {
                    throw InputError(
                        .line(path, n), .unpaired("segment URI ‘\(line.text)’", missing: "an #EXTINF before it"))
                }
                segments.append(
                    Segment(durationSeconds: seconds, byteRangeLength: byteRange, uri: line.text, line: tagLine))
                duration = nil
                byteRange = nil
            }
        }
        if let duration {
            throw InputError(.line(path, duration.line), .unpaired("#EXTINF", missing: "a URI after it"))
        }
        guard let target else { throw InputError(.file(path), .missing("#EXT-X-TARGETDURATION")) }
        guard !segments.isEmpty else { throw InputError(.file(path), .noneGiven("segment", in: "the media playlist")) }
        guard ended || allowsLive else {
            throw InputError(
                .line(path, lines[lines.count - 1].number),
                .expected(
                    "video on demand, #EXT-X-ENDLIST by the last line (a live playlist is read only as a scenario's"
                        + " hlsMaster content)", found: "a live playlist"))
        }
        if !ended { try tags.validate(file: path) }
        return HLSMediaPlaylist(
            path: path, targetDurationSeconds: target, segments: segments, live: ended ? nil : tags)
    }
}
