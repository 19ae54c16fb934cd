/// Builds ``Content`` from a local HLS master playlist and its media playlists (DESIGN §2.3).
///
/// - The ladder is the master's variant streams sorted by `BANDWIDTH`, lowest first (index 0), with
///   `AVERAGE-BANDWIDTH`, `RESOLUTION` and `CODECS`; two variants with the same `BANDWIDTH` are an error.
/// - ``Content/startVariantIndex`` is the variant **listed first** in the master: the one AVPlayer starts with.
/// - Segment i lasts its `#EXTINF` duration, which must be the same in every variant (within 1 ms) and every
///   variant must have the same number of segments; segments may differ in length from each other.
/// - A segment's size is its `#EXT-X-BYTERANGE` length × 8 bits when present, otherwise the variant's declared
///   `BANDWIDTH` × its duration.
///
/// Media playlist URIs resolve against the master's folder; remote (`http://`, `https://`) URIs are refused.
/// Called by the scenario loader (`"hlsMaster"`) and ``ContentSource``; errors name the file and line.
public enum HLSContent {
    /// Two variants' durations for one segment may differ by at most this much, seconds.
    public static let durationTolerance = 0.001

    /// The content described by the master playlist at `path`, optionally cut to its first `segments`; its media
    /// playlists must be video on demand.
    public static func read(masterPath path: String, segments limit: Int? = nil) throws -> Content {
        try read(masterPath: path, segments: limit, allowsLive: false).content
    }

    /// The content described by the master playlist at `path` (optionally cut to its first `segments`) and, when its
    /// media playlists are live (no `#EXT-X-ENDLIST`), the presentation their live tags describe (from the first
    /// variant listed). The content is returned whole: ``Content/playedLive(as:)`` makes its parts.
    public static func readLive(masterPath path: String, segments limit: Int? = nil) throws -> (
        content: Content, live: LiveStream?
    ) {
        try read(masterPath: path, segments: limit, allowsLive: true)
    }

    static func read(masterPath path: String, segments limit: Int?, allowsLive: Bool) throws -> (
        content: Content, live: LiveStream?
    ) {
        let master = try HLSMasterPlaylist.read(path: path)
        let directory = InputFile.directory(of: path)
        var medias: [HLSMediaPlaylist] = []
        for stream in master.variants {
            if stream.uri.contains("://") {
                throw InputError(
                    .line(path, stream.line),
                    .expected("a local media playlist", found: "the remote ‘\(stream.uri)’"))
            }
            let mediaPath = InputFile.resolve(stream.uri, against: directory)
            do {
                try InputFile.checkReadable(mediaPath)
            } catch let error as InputError {
                throw InputError(
                    .line(path, stream.line),
                    .within(
                        "media playlist ‘\(stream.uri)’ cannot be read", .inReferencedFile(mediaPath, error.problem)))
            }
            medias.append(try HLSMediaPlaylist.read(path: mediaPath, allowsLive: allowsLive))
        }
        let order = master.variants.indices.sorted {
            master.variants[$0].bandwidthBps < master.variants[$1].bandwidthBps
        }
        for (a, b) in zip(order, order.dropFirst())
        where master.variants[a].bandwidthBps == master.variants[b].bandwidthBps {
            throw InputError(
                .line(path, master.variants[b].line),
                .duplicate(
                    "\(Int(master.variants[b].bandwidthBps))", of: "BANDWIDTH",
                    alsoAt: "line \(master.variants[a].line)"))
        }
        let reference = medias[order[0]]
        var count = reference.segments.count
        for media in medias where media.segments.count != reference.segments.count {
            throw InputError(
                .file(path),
                .within(
                    media.path,
                    .disagrees(
                        "the segment count", found: "\(media.segments.count)", other: "\(reference.segments.count)",
                        in: reference.path)))
        }
        for media in medias {
            for (i, segment) in media.segments.enumerated() {
                let expected = reference.segments[i].durationSeconds
                if abs(segment.durationSeconds - expected) > durationTolerance {
                    throw InputError(
                        .line(media.path, segment.line),
                        .disagrees(
                            "segment \(i)'s duration", found: "\(segment.durationSeconds) s", other: "\(expected) s",
                            in: "\(reference.path) (line \(reference.segments[i].line))"))
                }
            }
        }
        if let limit {
            guard limit >= 1, limit <= count else {
                throw InputError(
                    .file(path),
                    .mustBe(
                        "the segments asked for", rule: "in 1…\(count), as many as the playlists have",
                        found: "\(limit)"))
            }
            count = limit
        }
        let variants = order.map { index -> Variant in
            let stream = master.variants[index]
            return Variant(
                bitrateBps: stream.bandwidthBps, averageBitrateBps: stream.averageBandwidthBps,
                resolution: stream.resolution, codecs: stream.codecs)
        }
        let durations = reference.segments.prefix(count).map(\.durationSeconds)
        let sizes = (0..<count).map { i in
            order.map { index -> Double in
                let segment = medias[index].segments[i]
                if let bytes = segment.byteRangeLength { return Double(bytes) * 8 }
                return master.variants[index].bandwidthBps * segment.durationSeconds
            }
        }
        let content = try Content(
            variants: variants, segmentDurations: durations, sizesBits: sizes,
            startVariantIndex: order.firstIndex(of: 0)!, file: path)
        let first = medias[0]
        if let media = medias.first(where: { ($0.live == nil) != (first.live == nil) }) {
            throw InputError(
                .file(path),
                .within(
                    media.path,
                    .disagrees(
                        "the kind", found: media.live == nil ? "video on demand" : "live",
                        other: first.live == nil ? "video on demand" : "live", in: first.path)))
        }
        let target = medias.map(\.targetDurationSeconds).max() ?? 0
        return (content, first.live?.stream(targetDurationSeconds: target))
    }
}

extension HLSContent {
    /// Whether the file at `path` starts with `#EXTM3U` (after an optional byte-order mark and blank lines): an
    /// HLS playlist rather than another content description. Throws if the file cannot be opened.
    public static func isPlaylist(_ path: String) throws -> Bool {
        let reader = try LineReader(path: path)
        // A long first line (a one-line JSON movie) is simply not a playlist.
        while let line = (try? reader.nextLine(maxLineBytes: 1 << 16)) ?? nil {
            let text = TraceText.trimmed(line)
            if text.isEmpty { continue }
            return text.elementsEqual("#EXTM3U".utf8)
        }
        return false
    }
}
