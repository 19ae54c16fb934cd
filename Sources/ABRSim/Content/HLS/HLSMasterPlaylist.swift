/// An HLS master (multivariant) playlist: the variant streams a player chooses among (RFC 8216 §4.3.4.2).
///
/// Reads `#EXT-X-STREAM-INF` with its `BANDWIDTH` (required), `AVERAGE-BANDWIDTH`, `RESOLUTION`, `CODECS` and
/// `FRAME-RATE` attributes, each followed by the URI of the variant's media playlist. Variants keep the order in
/// which they are listed: the first is the one AVPlayer starts with. `#EXT-X-I-FRAME-STREAM-INF`, `#EXT-X-MEDIA`
/// and other tags are ignored. Called by ``HLSContent``; errors are ``InputError``s naming the file and line.
public struct HLSMasterPlaylist: Sendable {
    /// One `#EXT-X-STREAM-INF` entry.
    public struct VariantStream: Sendable, Equatable {
        /// `BANDWIDTH`: peak bit rate, bit/s.
        public var bandwidthBps: Double
        /// `AVERAGE-BANDWIDTH`, bit/s, when given.
        public var averageBandwidthBps: Double?
        /// `RESOLUTION`, when given.
        public var resolution: Resolution?
        /// `CODECS`, when given.
        public var codecs: String?
        /// `FRAME-RATE`, frames per second, when given.
        public var frameRate: Double?
        /// The media playlist's URI as written.
        public var uri: String
        /// The line of the `#EXT-X-STREAM-INF` tag.
        public var line: Int
    }

    /// The path the playlist was read from.
    public var path: String
    /// The variant streams in listed order.
    public var variants: [VariantStream]

    /// Reads the master playlist at `path`.
    public static func read(path: String) throws -> HLSMasterPlaylist {
        let lines = try HLSPlaylistLines(path: path).lines
        var variants: [VariantStream] = []
        var pending: (attributes: HLSAttributeList, line: Int)?
        for line in lines {
            if let text = HLSPlaylistLines.value(of: "#EXT-X-STREAM-INF", in: line.text) {
                if let pending {
                    throw InputError(
                        .line(path, line.number),
                        .unpaired("#EXT-X-STREAM-INF on line \(pending.line)", missing: "a URI after it"))
                }
                pending = (try HLSAttributeList(String(text), file: path, line: line.number), line.number)
            } else if line.text.hasPrefix("#EXTINF") {
                throw InputError(
                    .line(path, line.number),
                    .expected("a master playlist (#EXT-X-STREAM-INF)", found: "a media playlist (#EXTINF)"))
            } else if line.text.hasPrefix("#") {
                continue
            } else {
                guard let (attributes, tagLine) = pending else {
                    throw InputError(
                        .line(path, line.number),
                        .unpaired("URI ‘\(line.text)’", missing: "an #EXT-X-STREAM-INF before it"))
                }
                variants.append(try variant(attributes, uri: line.text, path: path, line: tagLine))
                pending = nil
            }
        }
        if let pending {
            throw InputError(.line(path, pending.line), .unpaired("#EXT-X-STREAM-INF", missing: "a URI after it"))
        }
        guard !variants.isEmpty else {
            throw InputError(.file(path), .empty("master playlist", no: "#EXT-X-STREAM-INF variant streams"))
        }
        return HLSMasterPlaylist(path: path, variants: variants)
    }

    static func variant(_ attributes: HLSAttributeList, uri: String, path: String, line: Int) throws -> VariantStream {
        func bitRate(_ name: String) throws -> Double? {
            guard let text = attributes[name] else { return nil }
            guard let value = UInt64(text), value > 0 else {
                throw InputError(
                    .line(path, line),
                    .isNot("a positive whole number of bit/s", subject: nil, found: "\(name)=\(text)"))
            }
            return Double(value)
        }
        guard let bandwidth = try bitRate("BANDWIDTH") else {
            throw InputError(.line(path, line), .within("#EXT-X-STREAM-INF", .missing("BANDWIDTH")))
        }
        var resolution: Resolution?
        if let text = attributes["RESOLUTION"] {
            guard let parsed = Resolution(parsing: text) else {
                throw InputError(.line(path, line), .isNot("WIDTHxHEIGHT", subject: nil, found: "RESOLUTION=\(text)"))
            }
            resolution = parsed
        }
        var frameRate: Double?
        if let text = attributes["FRAME-RATE"] {
            guard let value = HLSPlaylistLines.number(Substring(text)), value > 0 else {
                throw InputError(
                    .line(path, line), .isNot("a positive number", subject: nil, found: "FRAME-RATE=\(text)"))
            }
            frameRate = value
        }
        return VariantStream(
            bandwidthBps: bandwidth, averageBandwidthBps: try bitRate("AVERAGE-BANDWIDTH"), resolution: resolution,
            codecs: attributes["CODECS"], frameRate: frameRate, uri: uri, line: line)
    }
}
