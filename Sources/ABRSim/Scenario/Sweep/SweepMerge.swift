#if canImport(Glibc)
    import Glibc
#endif

/// Joins the output folders of the shards of one sweep into exactly the folder a single, unsharded sweep writes
/// (the same `summary.csv`, `segments.csv`, ``SweepTable``s and `.sweep` state, byte for byte).
///
/// Checks first, writing nothing on failure: every input is a sweep folder; all have the same manifest apart from
/// the shard; the shards are 1/N … N/N, each exactly once, each complete. Then it streams: global run r is the
/// next run of shard (r mod N) + 1 (see ``SweepShard``), whose rows are copied by the byte counts in that
/// shard's `.sweep/runs.csv`, so memory stays flat however big the tables are. Files are written beside their
/// targets, flushed, and renamed into place; the state (`progress`) comes last. Called by `abrsim merge`.
public enum SweepMerge {
    /// Merges `inputs` (shard folders, any order) into `output`; returns the number of runs and shards.
    @discardableResult
    public static func merge(_ inputs: [String], into output: String) throws -> (runs: Int, shards: Int) {
        guard !inputs.isEmpty else { throw InputError(.named("merge"), .noneGiven("shard folder to merge")) }
        let shards = try inputs.map(ShardFolder.init)
        let first = shards[0]
        for shard in shards.dropFirst() where shard.baseManifest != first.baseManifest {
            throw InputError(
                .file(shard.directory),
                .differs(
                    "its sweep", from: "that of \(first.directory)",
                    difference: SweepStore.firstDifference(first.baseManifest, shard.baseManifest)))
        }
        let count = first.shard.count
        var byIndex = [ShardFolder?](repeating: nil, count: count)
        for shard in shards {
            guard shard.shard.count == count else {
                throw InputError(
                    .file(shard.directory),
                    .differs(
                        "its shard count", from: "that of \(first.directory)",
                        difference: "it is shard \(shard.shard), that one \(first.shard)"))
            }
            if let other = byIndex[shard.shard.index - 1] {
                throw InputError(
                    .file(shard.directory), .duplicate("\(shard.shard)", of: "shard", alsoAt: other.directory))
            }
            byIndex[shard.shard.index - 1] = shard
        }
        if let missing = byIndex.firstIndex(where: { $0 == nil }) {
            let given = shards.map { "\($0.directory) (\($0.shard))" }.joined(separator: ", ")
            throw InputError(
                .file(first.directory),
                .missing("shard \(missing + 1)/\(count) of its sweep among the folders given: \(given)"))
        }
        let ordered = byIndex.map { $0! }
        for shard in ordered {
            let expected = shard.shard.runCount(of: first.runs)
            guard shard.done == expected else {
                throw InputError(
                    .file(shard.directory),
                    .withAdvice(
                        .tooFew("runs done", atLeast: expected, found: shard.done, in: "shard \(shard.shard)"),
                        advice: "run its sweep again to finish it"))
            }
        }
        let realOutput = realPath(output)
        for shard in ordered where realOutput != nil && realPath(shard.directory) == realOutput {
            throw InputError(
                .option("--out"),
                .withAdvice(
                    .mustBe(nil, rule: "a folder other than the shards", found: "'\(output)'"),
                    advice: "merge into a new folder"))
        }
        try write(ordered, runs: first.runs, segments: first.segments, manifest: first.baseManifest, to: output)
        return (first.runs, count)
    }

    static func write(_ shards: [ShardFolder], runs: Int, segments: Bool, manifest: String, to output: String) throws {
        let files = SweepFiles(directory: output)
        try AtomicFileWriter.createDirectory(files.state)
        let lock = try SweepStore.lock(InputFile.resolve("lock", against: files.state), directory: output)
        defer { close(lock) }
        unlink(files.progress)
        let suffix = ".merge-\(getpid())"
        let temporary = { (path: String) in
            InputFile.resolve("." + InputFile.fileName(of: path) + suffix, against: InputFile.directory(of: path))
        }
        let tables = SweepPlan.extraTables(manifest: manifest)
        let targets = [files.summary, files.index] + (segments ? [files.segments] : []) + tables.map(files.table)
        var written: [String] = []
        do {
            let summaryOut = try AppendFile(path: temporary(files.summary), truncatingTo: 0)
            written.append(summaryOut.path)
            let indexOut = try AppendFile(path: temporary(files.index), truncatingTo: 0)
            written.append(indexOut.path)
            let segmentsOut = segments ? try AppendFile(path: temporary(files.segments), truncatingTo: 0) : nil
            if let segmentsOut { written.append(segmentsOut.path) }
            var extraOut: [AppendFile] = []
            for table in tables {
                extraOut.append(try AppendFile(path: temporary(files.table(table)), truncatingTo: 0))
                written.append(extraOut.last!.path)
            }
            let extra = SweepPlan.gridColumns(manifest: manifest)
            let summaryHeader = RunTables.summary(live: SweepPlan.isLive(manifest: manifest)).writer(
                extraColumns: extra
            ).bytes
            let segmentHeader = RunTables.segments(feed: SweepPlan.isFeed(manifest: manifest)).writer(
                extraColumns: extra
            ).bytes
            let extraHeaders = tables.map { $0.header(extraColumns: extra) }
            try summaryOut.append(summaryHeader)
            try segmentsOut?.append(segmentHeader)
            for (file, header) in zip(extraOut, extraHeaders) { try file.append(header) }
            try indexOut.append(Array(SweepFiles.indexHeader(tables: tables).utf8))
            var readers = try shards.map { try ShardReader($0, segments: segments, tables: tables) }
            for reader in readers {
                try reader.summary.skip(summaryHeader.count)
                try reader.segments?.skip(segmentHeader.count)
                for (file, header) in zip(reader.extra, extraHeaders) { try file.skip(header.count) }
            }
            let schema = SweepFiles.index(tables: tables)
            for run in 0..<runs {
                let reader = readers[run % shards.count]
                let entry = try reader.next(expecting: run)
                try reader.summary.copy(entry.summaryBytes, to: summaryOut)
                if let segmentsOut { try reader.segments!.copy(entry.segmentsBytes, to: segmentsOut) }
                for (position, file) in extraOut.enumerated() {
                    try reader.extra[position].copy(entry.extraBytes[position], to: file)
                }
                var indexRow = schema.writer(writingHeader: false)
                schema.append(entry, to: &indexRow)
                try indexOut.append(indexRow.takeBytes())
            }
            for reader in readers { try reader.finish() }
            readers.removeAll()
            let failed = shards.reduce(0) { $0 + $1.failed }
            var progress = "done \(runs)\nsummary.csv \(summaryOut.length)\n"
            if let segmentsOut { progress += "segments.csv \(segmentsOut.length)\n" }
            for (table, file) in zip(tables, extraOut) { progress += "\(table.fileName) \(file.length)\n" }
            progress += "runs.csv \(indexOut.length)\nfailed \(failed)\n"
            for file in [summaryOut, indexOut] + [segmentsOut].compactMap({ $0 }) + extraOut { try file.sync() }
            try AtomicFileWriter.write(Array(manifest.utf8), to: files.manifest)
            for target in targets where rename(temporary(target), target) != 0 {
                throw OutputError(
                    path: target, "cannot replace the file: \(AtomicFileWriter.reason(errno))", code: errno)
            }
            written.removeAll()
            AtomicFileWriter.syncDirectory(of: files.summary)
            try AtomicFileWriter.write(Array(progress.utf8), to: files.progress)
        } catch {
            for path in written { unlink(path) }
            throw error
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// One shard's output folder, as `merge` reads it: its manifest and committed state.
struct ShardFolder {
    let directory: String
    let shard: SweepShard
    let runs: Int
    let segments: Bool
    let done: Int
    /// Its runs with a failed player.
    let failed: Int
    /// The manifest with the shard line as an unsharded sweep writes it (`shard 1/1`).
    let baseManifest: String

    init(_ directory: String) throws {
        self.directory = directory
        let files = SweepFiles(directory: directory)
        guard let bytes = try? InputFile.readAll(files.manifest) else {
            throw InputError(
                .file(directory), .missing("\(SweepStore.stateFolder)/manifest (it is not a sweep output folder)"))
        }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        func value(_ key: String) -> (Int, String)? {
            guard let index = lines.firstIndex(where: { $0.hasPrefix(key + " ") }) else { return nil }
            return (index, String(lines[index].dropFirst(key.count + 1)))
        }
        guard let shardEntry = value("shard"), let runsEntry = value("runs"), let runs = Int(runsEntry.1),
            let segmentsEntry = value("segments")
        else { throw InputError(.file(files.manifest), .damaged("no shard, runs or segments line")) }
        shard = try SweepShard.parse(shardEntry.1, source: files.manifest)
        self.runs = runs
        segments = segmentsEntry.1 == "on"
        lines[shardEntry.0] = "shard 1/1"
        baseManifest = lines.joined(separator: "\n")
        let progress = try SweepStore.readProgress(
            state: files.state, directory: directory,
            tables: SweepPlan.extraTables(manifest: String(decoding: bytes, as: UTF8.self)))
        done = progress?.done ?? 0
        failed = progress?.failed ?? 0
    }
}

/// Reads one shard's tables and run index in step, during a merge.
struct ShardReader {
    let folder: ShardFolder
    let summary: SequentialFileReader
    let segments: SequentialFileReader?
    /// One reader per ``SweepTable`` of the sweep, in its order.
    let extra: [SequentialFileReader]
    let tables: [SweepTable]
    let index: LineReader

    init(_ folder: ShardFolder, segments: Bool, tables: [SweepTable]) throws {
        self.folder = folder
        let files = SweepFiles(directory: folder.directory)
        summary = try SequentialFileReader(path: files.summary)
        self.segments = segments ? try SequentialFileReader(path: files.segments) : nil
        extra = try tables.map { try SequentialFileReader(path: files.table($0)) }
        self.tables = tables
        index = try LineReader(path: files.index)
        let header = String(SweepFiles.indexHeader(tables: tables).dropLast())
        let first = try index.nextString()
        guard first == header else {
            throw InputError(
                .line(files.index, 1), .expected("the header '\(header)'", found: first.map { "'\($0)'" } ?? "nothing"))
        }
    }

    /// The byte counts of the shard's next run, which must be global run `run`.
    func next(expecting run: Int) throws -> SweepIndexRow {
        guard let line = try index.nextString() else {
            throw InputError(.file(index.path), .damaged("ends before run \(run)"))
        }
        let fields = line.split(separator: ",").compactMap { Int($0) }
        let count = 3 + tables.count
        guard fields.count == count, fields[0] == run, fields.allSatisfy({ $0 >= 0 }) else {
            throw InputError(
                .line(index.path, index.lineNumber),
                .expected(
                    "run \(run),SUMMARY_BYTES,SEGMENT_BYTES" + tables.map { "," + $0.indexPlaceholder }.joined(),
                    found: "'\(line)'"))
        }
        return SweepIndexRow(
            run: run, summaryBytes: fields[1], segmentsBytes: fields[2], extraBytes: Array(fields[3...]))
    }

    /// Checks that the index has no runs left over.
    func finish() throws {
        if try index.nextString() != nil {
            throw InputError(.line(index.path, index.lineNumber), .damaged("more runs than the sweep has"))
        }
    }
}
