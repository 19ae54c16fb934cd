/// Decodes the live keys of a scenario: a content's `live` object into a ``LiveStream``, and a player's `live`
/// object into ``LivePlaybackSettings``, checking them against each other (docs/scenario-format.md, "Live").
///
/// Every error names the JSON path of the key at fault. Called by ``ContentDecoder`` and ``PlayerDecoder``.
enum LiveDecoder {
    /// The names of `refresh`.
    static let refreshNames = ["template", "reload", "blockingReload", "preloadHint"]

    /// A content's `live` object, for `content` (its segments before any split into parts); keys it leaves out take
    /// the values of the live HLS playlist's tags, `playlist`, when there is one.
    static func decodeStream(_ reader: JSONReader, content: Content, playlist: LiveStream? = nil) throws
        -> LiveStream
    {
        let object = try reader.object()
        let startReader = object.optional("availabilityStartSeconds")
        let start = try startReader?.double(in: -1e7...1e7) ?? 0
        if start + content.duration <= 0 {
            throw (startReader ?? reader).error(
                .mustBeRelative(
                    "availability start", found: JSONPath.format(start), rule: "later than",
                    other: "the content's length before 0 s",
                    otherValue: JSONPath.format(-content.duration), unit: "s"))
        }
        var kind = playlist?.kind ?? LiveStream.Kind.live
        if let x = object.optional("kind") {
            let text = try x.string()
            guard let parsed = LiveStream.Kind(rawValue: text) else {
                throw x.error(.oneOf("kind", allowed: ["live", "event"], found: text))
            }
            kind = parsed
        }
        let target = content.segmentDurations.max() ?? 0
        let partReader = object.optional("partTargetSeconds")
        let part = try partReader?.double(in: ScenarioBounds.segmentSeconds) ?? playlist?.partTargetSeconds
        if let part, part > target + SimulationTime.tolerance, let partReader {
            throw partReader.error(
                .mustBeRelative(
                    "partTargetSeconds", found: JSONPath.format(part), rule: "at most", other: "the target duration",
                    otherValue: JSONPath.format(target), unit: "s"))
        }
        let unitName = part == nil ? "a target duration" : "a part target"
        let unit = part ?? target
        let holdBackReader = object.optional("holdBackSeconds")
        let holdBack =
            try holdBackReader?.double(in: ScenarioBounds.bufferSeconds)
            ?? playlist.map(\.holdBackSeconds).flatMap { $0 == 3 * (playlist?.targetDurationSeconds ?? 0) ? nil : $0 }
        if let holdBack, holdBack < unit - SimulationTime.tolerance, let holdBackReader {
            throw holdBackReader.error(
                .mustBeRelative(
                    "hold-back", found: JSONPath.format(holdBack), rule: "at least", other: unitName,
                    otherValue: JSONPath.format(unit), unit: "s"))
        }
        let partHoldBackReader = object.optional("partHoldBackSeconds")
        let partHoldBack =
            try partHoldBackReader?.double(in: ScenarioBounds.bufferSeconds) ?? playlist?.partHoldBackSeconds
        if let partHoldBackReader, let partHoldBack {
            guard let part else {
                throw partHoldBackReader.error(.missingPrerequisite("partHoldBackSeconds", needs: "partTargetSeconds"))
            }
            if partHoldBack < part - SimulationTime.tolerance {
                throw partHoldBackReader.error(
                    .mustBeRelative(
                        "part hold-back", found: JSONPath.format(partHoldBack), rule: "at least",
                        other: "a part target", otherValue: JSONPath.format(part), unit: "s"))
            }
        }
        var window: Double?
        if let x = object.optional("dvrWindowSeconds") {
            guard kind == .live else {
                throw x.error(
                    .notApplicable("dvrWindowSeconds", onlyFor: "kind live", here: "event (an event keeps everything)"))
            }
            let seconds = try x.double(in: ScenarioBounds.stretchSeconds)
            let needed = partHoldBack ?? holdBack ?? 3 * unit
            if seconds < needed - SimulationTime.tolerance {
                throw x.error(
                    .mustBeRelative(
                        "dvrWindowSeconds", found: JSONPath.format(seconds), rule: "at least",
                        other: "the hold-back for a player to start", otherValue: JSONPath.format(needed), unit: "s"))
            }
            window = seconds
        }
        let refresh = try decodeRefresh(object, unit: unit) ?? playlist?.refresh
        let chunk = try decodeChunkDuration(object, content: content, part: part)
        let playlistBytes = try object.optional("playlistBytes")?.double(in: 0...1e9)
        try object.finish()
        return LiveStream(
            availabilityStartSeconds: start, kind: kind, dvrWindowSeconds: window, targetDurationSeconds: target,
            partTargetSeconds: part, holdBackSeconds: holdBack, partHoldBackSeconds: partHoldBack, refresh: refresh,
            chunkDurationSeconds: chunk, playlistBytes: playlistBytes)
    }

    /// `chunkDurationSeconds`: LL-DASH CMAF chunks of each segment; at least 1 ms, a whole number of them in every
    /// segment, and not with LL-HLS parts (`part`).
    static func decodeChunkDuration(_ object: JSONObjectReader, content: Content, part: Double?) throws -> Double? {
        guard let x = object.optional("chunkDurationSeconds") else { return nil }
        let chunk = try x.double(in: 0...ScenarioBounds.segmentSeconds.upperBound)
        if chunk < 0.001 {
            throw x.error(
                .mustBe("a chunk duration", rule: "at least one millisecond", found: JSONPath.format(chunk), unit: "s"))
        }
        if part != nil {
            throw x.error(
                .conflicting(
                    ["chunkDurationSeconds", "partTargetSeconds"],
                    reason:
                        "chunkDurationSeconds (LL-DASH chunked transfer) cannot go with partTargetSeconds (LL-HLS parts)"
                ))
        }
        for (index, duration) in content.segmentDurations.enumerated() {
            let count = (duration / chunk).rounded()
            if count < 1 || abs(count * chunk - duration) > SimulationTime.tolerance {
                throw x.error(
                    .mustBeRelative(
                        "chunkDurationSeconds", found: JSONPath.format(chunk), rule: "a whole fraction of",
                        other: "segment \(index)", otherValue: JSONPath.format(duration), unit: "s"))
            }
        }
        return chunk
    }

    /// `refresh` (a name of ``refreshNames``) and `reloadIntervalSeconds` (for `reload`; default one unit).
    static func decodeRefresh(_ object: JSONObjectReader, unit: Double) throws -> PlaylistRefresh? {
        let intervalReader = object.optional("reloadIntervalSeconds")
        let interval = try intervalReader?.double(in: ScenarioBounds.segmentSeconds)
        guard let x = object.optional("refresh") else {
            return interval.map { .reload(intervalSeconds: $0) }
        }
        let name = try x.string()
        switch name {
        case "template": break
        case "reload": return .reload(intervalSeconds: interval ?? unit)
        case "blockingReload": break
        case "preloadHint": break
        default:
            throw x.error(.unknownName(name, kind: "refresh", known: refreshNames))
        }
        if let intervalReader {
            throw intervalReader.error(.notApplicable("reloadIntervalSeconds", onlyFor: "refresh reload", here: name))
        }
        return name == "template" ? .template : name == "blockingReload" ? .blockingReload : .preloadHint
    }

    /// The problem of a player that starts at `startSeconds`, after all of the live `content` of `stream` is
    /// available: nothing would be live for it.
    static func startsAfterContent(_ startSeconds: Double, stream: LiveStream, content: Content) -> InputProblem {
        .mustBeRelative(
            "startSeconds", found: JSONPath.format(startSeconds), rule: "before",
            other: "the end of the live content",
            otherValue: JSONPath.format(stream.availabilityStartSeconds + content.duration),
            unit: "s")
    }

    /// A player's `live` object, for a player starting at `startSeconds` on `content` (which must be live).
    static func decodeSettings(_ reader: JSONReader, content: Content, startSeconds: Double) throws
        -> LivePlaybackSettings
    {
        guard let stream = content.live else {
            throw reader.error(
                .notApplicable(
                    "the live object",
                    onlyFor: "live content (a content live object, or an HLS playlist without EXT-X-ENDLIST)",
                    here: "video on demand"))
        }
        let object = try reader.object()
        var settings = LivePlaybackSettings()
        let unitName = stream.unitSeconds == stream.targetDurationSeconds ? "one segment" : "one chunk"
        let unit = stream.unitSeconds
        let offsetReader = object.optional("configuredTimeOffsetFromLive")
        if let offsetReader {
            let offset = try offsetReader.double(in: ScenarioBounds.bufferSeconds)
            if offset < unit - SimulationTime.tolerance {
                throw offsetReader.error(
                    .mustBeRelative(
                        "an offset from live", found: JSONPath.format(offset), rule: "at least",
                        other: "\(unitName) for media to be available in time", otherValue: JSONPath.format(unit),
                        unit: "s"))
            }
            settings.configuredTimeOffsetFromLive = offset
        }
        if let x = object.optional("targetLatencySeconds") {
            let target = try x.double(in: ScenarioBounds.bufferSeconds)
            if target < unit - SimulationTime.tolerance {
                throw x.error(
                    .mustBeRelative(
                        "target latency", found: JSONPath.format(target), rule: "at least", other: unitName,
                        otherValue: JSONPath.format(unit), unit: "s"))
            }
            settings.targetLatencySeconds = target
            if offsetReader == nil { settings.configuredTimeOffsetFromLive = target }
        }
        if let x = object.optional("automaticallyPreservesTimeOffsetFromLive") {
            settings.automaticallyPreservesTimeOffsetFromLive = try x.bool()
        }
        if let x = object.optional("catchUp") {
            let name = try x.string()
            guard LiveCatchUpControllers.make(name) != nil else {
                throw x.error(
                    .unknownName(name, kind: "catch-up controller", known: LiveCatchUpControllers.names)
                )
            }
            settings.catchUp = name
        }
        if let x = object.optional("catchUpIntervalSeconds") {
            settings.catchUpIntervalSeconds = try x.double(in: 0.001...3600)
        }
        settings.refresh = try decodeRefresh(object, unit: unit)
        try object.finish()
        if startSeconds - stream.availabilityStartSeconds >= content.duration {
            throw reader.error(Self.startsAfterContent(startSeconds, stream: stream, content: content))
        }
        return settings
    }
}
