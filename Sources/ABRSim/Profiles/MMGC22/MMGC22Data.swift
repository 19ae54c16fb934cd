#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One clip of the MM'22 challenge's library as its `video_player.Player` loads it: chunk sizes per level
/// (`short_video_size/<name>/video_size_<level>`, bytes, one integer per line, held as doubles as
/// `int(…)/VIDEO_SIZE_SCALE` makes them) and the retention curve (`user_ret/<name>`: `second fraction` per line;
/// the seconds × 1000 as `user_time`, ms, and the fractions both as written, for `float()`, and parsed).
public struct MMGC22Clip: Sendable, Equatable {
    /// The clip's folder name (`1_tj` …); clips play in the byte order of their names.
    public var name: String
    /// `video_size[level][chunk]`, bytes; every level has the same number of chunks.
    public var chunkBytes: [[Double]]
    /// `user_time`: the first field of each retention line × 1000, ms.
    public var retentionTimesMs: [Double]
    /// `user_retent_rate`: the fraction still watching at each of those times, as the text says it.
    public var retentionText: [String]
    /// The same fractions parsed (`float()` / `astype('float64')`, correctly rounded).
    public var retention: [Double]

    /// The number of 1-s chunks (`chunk_num`).
    public var chunkCount: Int { chunkBytes[0].count }
}

extension MMGC22Clip {
    /// A clip from values (a feed built in Swift, or one read by ``MMGC22Data``): `chunkBytes[level][chunk]` for
    /// the three levels (bytes, finite, ≥ 0, the same number of chunks at every level, at least one) and the
    /// retention curve (seconds, fraction still watching). Throws an ``InputError`` naming `place` (a file or a
    /// place in the caller's input) unless the challenge could play it: the user model draws a whole second among
    /// the curve's times but the last, with the differences of the curve as chances (numpy refuses them unless they
    /// are ≥ 0 and sum to 1 within √ε), and `fixed_preload` reads the curve at every chunk index, so the curve needs
    /// at least one line more than the clip has chunks.
    public init(name: String, chunkBytes: [[Double]], retention curve: RetentionCurve, place: String) throws {
        guard chunkBytes.count == MMGC22Model.levelCount else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .expected(
                    "\(MMGC22Model.levelCount) levels, as the challenge's clips have", found: "\(chunkBytes.count)"))
        }
        guard !chunkBytes[0].isEmpty else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)), .empty("clip", no: "chunks"))
        }
        for (level, sizes) in chunkBytes.enumerated() {
            guard sizes.count == chunkBytes[0].count else {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .countMismatch(
                        found: sizes.count, of: "chunks at level \(level)", expected: chunkBytes[0].count,
                        per: "chunks at level 0"))
            }
            if let chunk = sizes.firstIndex(where: { !$0.isFinite || $0 < 0 }) {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .within(
                        "level \(level) chunk \(chunk)",
                        .mustBe("a size", rule: "a number of bytes ≥ 0", found: "\(sizes[chunk])")))
            }
        }
        self.init(
            name: name, chunkBytes: chunkBytes, retentionTimesMs: curve.seconds.map({ $0 * 1000.0 }),
            retentionText: curve.text, retention: curve.fractions)
        if let problem = NumpyLegacyRandomState.numpyChoiceProblem(MMGC22Retention.leaveProbabilities(self)) {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .within("the curve cannot be sampled as the challenge samples it", problem))
        }
        guard curve.fractions.count >= chunkCount + 1 else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .expected(
                    "at least \(chunkCount + 1) lines (one more than the clip's \(chunkCount) chunks)",
                    found: "\(curve.fractions.count)"))
        }
    }
}

/// The challenge's data folder (`data/` of the repository, or a folder of one's own in the same layout):
/// `network_traces/<family>/<n>`, `short_video_size/<clip>/video_size_{0,1,2}`, `user_ret/<clip>`. Readers throw an
/// ``InputError`` naming the file and line of anything malformed. Built by `abrsim mmgc22` and the tests.
public struct MMGC22Data: Sendable {
    /// The folder.
    public var folder: String
    /// The clips in play order (folder names sorted as Python sorts strings).
    public var clips: [MMGC22Clip]

    /// Reads the clip library of `folder` (sizes and retention curves; traces are read on demand).
    public init(folder: String) throws {
        guard InputFile.isDirectory(folder) else {
            throw InputError(.file(folder), .unreadable("no such folder (expected the challenge's data folder)"))
        }
        self.folder = folder
        let sizeFolder = folder + "/short_video_size"
        let names = try Self.entries(of: sizeFolder, directories: true)
        guard !names.isEmpty else { throw InputError(.file(sizeFolder), .empty("folder", no: "clip folders")) }
        clips = try names.map { name in
            try Self.readClip(name: name, sizes: sizeFolder + "/" + name, retention: folder + "/user_ret/" + name)
        }
    }

    /// A library from clips already in memory (tests).
    public init(folder: String, clips: [MMGC22Clip]) {
        self.folder = folder
        self.clips = clips
    }

    /// The trace files of `family` sorted by their integer names, as `load_trace` sorts them.
    public func traceFiles(family: String) throws -> [String] {
        let familyFolder = folder + "/network_traces/" + family
        guard InputFile.isDirectory(familyFolder) else {
            throw InputError(.file(familyFolder), .unreadable("no such trace family folder"))
        }
        let names = try Self.entries(of: familyFolder, directories: false)
        var numbered: [(Int, String)] = []
        for name in names {
            guard let number = Int(name) else {
                throw InputError(
                    .file(familyFolder + "/" + name),
                    .isNot(
                        "an integer, as load_trace sorts trace files by number", subject: "the name", found: "'\(name)'"
                    ))
            }
            numbered.append((number, name))
        }
        return numbered.sorted(by: { $0.0 < $1.0 }).map({ familyFolder + "/" + $0.1 })
    }

    /// Trace `index` (0-based, in `load_trace`'s order) of `family`, in the registered `pensieve` cooked format
    /// (`time_s Mbit/s` per line), parsed as Python's `float()` parses it.
    public func trace(family: String, index: Int) throws -> PensieveCookedTrace {
        let files = try traceFiles(family: family)
        guard files.indices.contains(index) else {
            throw InputError(
                .file(folder + "/network_traces/" + family),
                MMGC22Data.traceOutOfRange(index, count: files.count))
        }
        return try PensieveCookedTrace.read(path: files[index])
    }

    /// What is wrong with trace `index` of a family of `count` traces.
    static func traceOutOfRange(_ index: Int, count: Int) -> InputProblem {
        .outOfRange(what: "a trace index", bound: "in 0…\(count - 1)", found: "\(index)")
    }

    static func readClip(name: String, sizes: String, retention: String) throws -> MMGC22Clip {
        var levels: [[Double]] = []
        for level in 0..<MMGC22Model.levelCount {
            let path = sizes + "/video_size_\(level)"
            let reader = try LineReader(path: path)
            var chunks: [Double] = []
            while let line = try reader.nextString() {
                guard let field = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).first,
                    let bytes = Int(field), bytes >= 0
                else {
                    throw InputError(
                        .line(path, reader.lineNumber),
                        .expected("a chunk size in bytes (an integer ≥ 0)", found: "'\(line.trimmingWhitespace())'"))
                }
                chunks.append(Double(bytes))
            }
            guard !chunks.isEmpty else { throw InputError(.file(path), .empty("size file", no: "chunk sizes")) }
            if let first = levels.first, first.count != chunks.count {
                throw InputError(
                    .file(path),
                    .countMismatch(found: chunks.count, of: "chunks", expected: first.count, per: "chunks at level 0"))
            }
            levels.append(chunks)
        }
        return try MMGC22Clip(
            name: name, chunkBytes: levels, retention: try RetentionCurve.read(path: retention), place: retention)
    }

    /// The names in `folder` (hidden ones left out) that are folders (`directories`) or files, byte-sorted.
    static func entries(of folder: String, directories: Bool) throws -> [String] {
        guard let handle = opendir(folder) else {
            throw InputError(.file(folder), .unreadable("cannot open the folder: \(InputFile.errnoText())"))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            if InputFile.isDirectory(folder + "/" + name) == directories { names.append(name) }
        }
        return names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}
