/// Decodes a scenario's `content` object into ``Content``:
/// constant bitrate (`ladderKbps`, `segmentSeconds`, `segments` or `durationSeconds`, optional `resolutions`),
/// Pensieve size files (`pensieveSizes` folder with `ladderKbps`, `segmentSeconds`, optional `segments`), or a
/// sabre movie (`sabreMovie` file, optional `segments` to play only the first ones), or a local HLS master
/// playlist (`hlsMaster` file, optional `segments`; see ``HLSContent``).
struct ContentDecoder {
    let directory: String

    func decode(_ reader: JSONReader) throws -> Content {
        let object = try reader.object()
        var content: Content
        var playlistLive: LiveStream?
        if let folder = object.optional("pensieveSizes") {
            let ladder = try ladderKbps(object)
            let seconds = try object.required("segmentSeconds").double(in: ScenarioBounds.segmentSeconds)
            let segments = try object.optional("segments")?.positiveInt()
            let path = InputFile.resolve(try folder.string(), against: directory)
            content = try folder.readingReferencedFile {
                try PensieveSizes.read(folder: path, ladderKbps: ladder, segmentSeconds: seconds, segments: segments)
            }
        } else if let master = object.optional("hlsMaster") {
            let path = InputFile.resolve(try master.string(), against: directory)
            let segments = try object.optional("segments")?.positiveInt()
            (content, playlistLive) = try master.readingReferencedFile {
                try HLSContent.readLive(masterPath: path, segments: segments)
            }
        } else if let movie = object.optional("sabreMovie") {
            let path = InputFile.resolve(try movie.string(), against: directory)
            let full = try movie.readingReferencedFile { try SabreMovie.read(path: path) }
            if let segments = object.optional("segments") {
                let count = try segments.positiveInt()
                guard count <= full.segmentCount else {
                    throw segments.error(
                        .mustBeRelative(
                            "segments", found: "\(count)", rule: "at most", other: "the content's segment count",
                            otherValue: "\(full.segmentCount)"))
                }
                content = try full.prefix(segments: count)
            } else {
                content = full
            }
        } else {
            let ladder = try ladderKbps(object)
            let seconds = try object.required("segmentSeconds").double(in: ScenarioBounds.segmentSeconds)
            let count = try object.optional("segments")?.positiveInt()
            let duration = try object.optional("durationSeconds")?.double(in: ScenarioBounds.durationSeconds)
            guard (count == nil) != (duration == nil) else {
                throw reader.error(
                    .conflicting(
                        ["segments", "durationSeconds"], reason: "give exactly one of segments or durationSeconds"))
            }
            var resolutions: [Resolution?]?
            if let list = object.optional("resolutions") {
                let items = try list.array()
                guard items.count == ladder.count else {
                    throw list.error(
                        .countMismatch(
                            found: items.count, of: "resolutions", expected: ladder.count, per: "ladder rungs"))
                }
                resolutions = try items.map { item in
                    let text = try item.string()
                    guard let resolution = Resolution(parsing: text) else {
                        throw item.error(.expected("a resolution like \"1280x720\"", found: "\"\(text)\""))
                    }
                    return resolution
                }
            }
            do {
                content = try Content.constantBitrate(
                    ladderKbps: ladder, resolutions: resolutions, segmentSeconds: seconds, segmentCount: count,
                    durationSeconds: duration)
            } catch var error as InputError {
                error.file = error.file ?? reader.file
                error.location = error.location ?? reader.path
                throw error
            }
        }
        let liveReader = object.optional("live")
        if liveReader != nil || playlistLive != nil {
            let stream =
                try liveReader.map { try LiveDecoder.decodeStream($0, content: content, playlist: playlistLive) }
                ?? playlistLive!
            let x = liveReader ?? reader
            do {
                content = try content.playedLive(as: stream)
            } catch var error as InputError {
                error.file = error.file ?? x.file
                error.location = error.location ?? x.path
                throw error
            }
        }
        try object.finish()
        return content
    }

    func ladderKbps(_ object: JSONObjectReader) throws -> [Double] {
        let reader = try object.required("ladderKbps")
        let ladder = try reader.doubleArray()
        guard !ladder.isEmpty else { throw reader.error(.noneGiven("bitrate", in: "the ladder")) }
        for (index, rung) in ladder.enumerated() where !(rung > 0 && rung.isFinite) {
            throw reader.error(.mustBe("rung \(index): bitrates", rule: "positive kbit/s", found: "\(rung)"))
        }
        for (index, rung) in ladder.enumerated()
        where !(rung >= ScenarioBounds.minimumBitrateKbps && rung <= ScenarioBounds.rateKbps.upperBound) {
            throw reader.error(.mustBe("rung \(index): bitrates", rule: "in 0.001…1e+08 kbit/s", found: "\(rung)"))
        }
        for index in ladder.indices.dropFirst() where ladder[index] <= ladder[index - 1] {
            throw reader.error(
                .outOfOrder(
                    "rung \(index): bitrates", order: "increase, lowest first", found: "\(ladder[index])",
                    after: "\(ladder[index - 1])"))
        }
        return ladder
    }
}

extension Content {
    /// The first `segments` segments of this content (at most ``segmentCount``).
    public func prefix(segments: Int) throws -> Content {
        precondition(segments <= segmentCount)
        let sizes = (0..<segments).map { segment in
            (0..<variantCount).map { sizeBits(segment: segment, variant: $0) }
        }
        return try Content(
            variants: variants, segmentDurations: Array(segmentDurations.prefix(segments)), sizesBits: sizes,
            startVariantIndex: startVariantIndex, live: live)
    }
}
