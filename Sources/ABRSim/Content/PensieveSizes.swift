/// Reads segment sizes in Pensieve's format: a folder of `video_size_0` … `video_size_{N-1}`, one per ladder
/// rung (0 = lowest), each holding one integer byte count per line, one line per segment.
///
/// Pensieve's files carry no ladder or segment duration, so the caller gives them (Pensieve itself uses
/// 300, 750, 1200, 1850, 2850, 4300 kbit/s and 4 s segments). Called by the scenario loader and the Pensieve
/// reproduction profile. Every problem is an ``InputError`` naming the file and, for bad lines, the line.
public enum PensieveSizes {
    /// Reads `folder/video_size_i` for each of the `ladderKbps.count` rungs (kbit/s, ascending) into content with
    /// `segmentSeconds`-second segments. `segments` keeps only the first that many lines (nil keeps all); the
    /// files must all have the same number of lines. Blank lines at the end of a file are ignored.
    public static func read(folder: String, ladderKbps: [Double], segmentSeconds: Double, segments: Int?) throws
        -> Content
    {
        try Ladder.validate(bitratesBps: ladderKbps.map { $0 * 1000 }, file: folder)
        guard segmentSeconds.isFinite, segmentSeconds > 0 else {
            throw InputError(
                .file(folder),
                .mustBe("segment duration", rule: "a positive number of seconds", found: "\(segmentSeconds)"))
        }
        if let segments, segments < 1 {
            throw InputError(.file(folder), .mustBe("segment count", rule: "at least 1", found: "\(segments)"))
        }
        var columns: [[Double]] = []
        var firstPath = ""
        for variant in ladderKbps.indices {
            let path = InputFile.resolve("video_size_\(variant)", against: folder)
            let bytes = try readByteCounts(path)
            if bytes.isEmpty { throw InputError(.file(path), .empty("file", no: "segment sizes")) }
            if let first = columns.first, first.count != bytes.count {
                throw InputError(
                    .file(path),
                    .disagrees(
                        "the number of segment sizes", found: "\(bytes.count)", other: "\(first.count)", in: firstPath))
            }
            if variant == 0 { firstPath = path }
            columns.append(bytes)
        }
        let available = columns[0].count
        let count = segments ?? available
        guard count <= available else {
            throw InputError(
                .file(firstPath),
                .mustBe(
                    "the number of segment sizes", rule: "at least the \(count) segments asked for",
                    found: "\(available)"))
        }
        let sizesBits = (0..<count).map { segment in columns.map { $0[segment] * 8 } }
        let variants = ladderKbps.map { Variant(bitrateBps: $0 * 1000) }
        return try Content(
            variants: variants, segmentDurations: Array(repeating: segmentSeconds, count: count), sizesBits: sizesBits,
            file: folder)
    }

    /// The positive integer byte counts in one `video_size_i` file, one per line.
    static func readByteCounts(_ path: String) throws -> [Double] {
        let reader = try LineReader(path: path)
        var values: [Double] = []
        var blankLine: Int?
        while let line = try reader.nextLine() {
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            if trimmed.isEmpty {
                if blankLine == nil { blankLine = reader.lineNumber }
                continue
            }
            if let blankLine {
                throw InputError(.line(path, blankLine), .expected("a byte count", found: "an empty line"))
            }
            guard trimmed.count <= 15, trimmed.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                let text = String(decoding: trimmed.prefix(40), as: UTF8.self)
                throw InputError(
                    .line(path, reader.lineNumber), .expected("a whole number of bytes", found: "\"\(text)\""))
            }
            let value = trimmed.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard value > 0 else {
                throw InputError(
                    .line(path, reader.lineNumber), .mustBe("segment size", rule: "above 0", found: "0", unit: "bytes"))
            }
            values.append(Double(value))
        }
        return values
    }
}
