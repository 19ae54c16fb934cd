/// Reads a sabre movie description (Spiteri et al., MMSys 2018):
/// `{"segment_duration_ms": 3000, "bitrates_kbps": [ascending], "segment_sizes_bits": [[bits per bitrate] per
/// segment]}`.
///
/// Parsed with ``JSONParser`` and read through ``JSONReader`` so every error names the file and the JSON path
/// (`$.segment_sizes_bits[17][3]`). Called by the scenario loader and the sabre reproduction profile.
public enum SabreMovie {
    /// Reads the movie file at `path` into ``Content`` (every segment `segment_duration_ms` long, starting at the
    /// lowest variant as sabre does).
    public static func read(path: String) throws -> Content {
        try decode(JSONReader(JSONParser.parseFile(path), file: path))
    }

    /// Decodes a sabre movie from an already parsed document (the root reader, or a movie embedded in a
    /// scenario).
    public static func decode(_ root: JSONReader) throws -> Content {
        let movie = try root.object()
        let segmentMs = try movie.required("segment_duration_ms").double(in: 1...3_600_000)
        let bitratesReader = try movie.required("bitrates_kbps")
        let bitrateReaders = try bitratesReader.array()
        guard !bitrateReaders.isEmpty else { throw bitratesReader.error(.noneGiven("bitrate", in: "bitrates_kbps")) }
        var bitrates: [Double] = []
        for element in bitrateReaders {
            let kbps = try element.double(in: ScenarioBounds.minimumBitrateKbps...ScenarioBounds.rateKbps.upperBound)
            if let previous = bitrates.last, kbps <= previous {
                throw element.error(
                    .outOfOrder(
                        "bitrates", order: "increase", found: JSONPath.format(kbps), after: JSONPath.format(previous)))
            }
            bitrates.append(kbps)
        }
        let sizesReader = try movie.required("segment_sizes_bits")
        let segmentReaders = try sizesReader.array()
        guard !segmentReaders.isEmpty else { throw sizesReader.error(.noneGiven("segment", in: "segment_sizes_bits")) }
        var sizes: [[Double]] = []
        sizes.reserveCapacity(segmentReaders.count)
        for segment in segmentReaders {
            let levels = try segment.array()
            guard levels.count == bitrates.count else {
                throw segment.error(
                    .expected("\(bitrates.count) sizes (one per bitrate)", found: "\(levels.count)"))
            }
            sizes.append(try levels.map { try $0.double(in: 1...1e15) })
        }
        try movie.finish()
        return try Content(
            variants: bitrates.map { Variant(bitrateBps: $0 * 1000) },
            segmentDurations: Array(repeating: segmentMs / 1000, count: sizes.count), sizesBits: sizes,
            file: root.file, path: root.path)
    }
}
