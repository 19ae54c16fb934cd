import ABRSimTestSupport
import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh empty directory under the system temporary folder.
private func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/abrsim-content-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(made != nil, "mkdtemp failed")
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Removes a directory made by ``makeTemporaryDirectory()`` and the plain files in it.
private func removeDirectory(_ path: String) {
    if let directory = opendir(path) {
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(directory)
    }
    rmdir(path)
}

/// Writes `text` to `path`, replacing any file there.
private func write(_ text: String, to path: String) {
    let handle = fopen(path, "wb")!
    defer { fclose(handle) }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, handle) }
}

/// The InputError `body` throws, or `nil` (recorded as a failure) when it does not throw one.
private func thrown<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> InputError? {
    do {
        _ = try body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch let error as InputError {
        return error
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

private let pensieveLadder: [Double] = [300, 750, 1200, 1850, 2850, 4300]
private let pensieveFirstRowBytes: [Double] = [181_801, 450_283, 668_286, 1_034_108, 1_728_879, 2_354_772]

/// A copy of the Pensieve size files in a temporary folder, each file's text passed through `edit`.
private func pensieveCopy(_ edit: (Int, String) -> String?) throws -> String {
    let folder = makeTemporaryDirectory()
    for index in 0..<6 {
        let source = TestPaths.data + "/content/pensieve-envivio/video_size_\(index)"
        let text = String(decoding: try InputFile.readAll(source), as: UTF8.self)
        if let edited = edit(index, text) { write(edited, to: folder + "/video_size_\(index)") }
    }
    return folder
}

@Suite("content: ladders, sizes, Pensieve and sabre files")
struct ContentTests {
    // MARK: - Constant bitrate

    @Test("constant-bitrate segment sizes are bitrate × duration, with starts every 4 s and the lowest start variant")
    func constantBitrateSizesAreBitrateTimesDuration() throws {
        let content = try Content.constantBitrate(ladderKbps: [300, 2000], segmentSeconds: 4, segmentCount: 5)
        #expect(content.variants.map(\.bitrateBps) == [300_000, 2_000_000])
        #expect(content.segmentCount == 5)
        #expect(content.sizeBits(segment: 0, variant: 1) == 8_000_000)
        #expect(content.sizeBytes(segment: 4, variant: 1) == 1_000_000)
        #expect(content.sizeBits(segment: 2, variant: 0) == 1_200_000)
        #expect(content.segmentStarts == [0, 4, 8, 12, 16, 20])
        #expect(content.duration == 20)
        #expect(content.startVariantIndex == 0)
    }

    @Test("a constant-bitrate duration that is not a whole number of segments shortens the last one")
    func constantBitrateShortensTheLastSegment() throws {
        let content = try Content.constantBitrate(ladderKbps: [2000], segmentSeconds: 4, durationSeconds: 10)
        #expect(content.segmentDurations == [4, 4, 2])
        #expect(content.sizeBits(segment: 2, variant: 0) == 4_000_000)
        #expect(content.duration == 10)
        let exact = try Content.constantBitrate(ladderKbps: [2000], segmentSeconds: 4, durationSeconds: 12)
        #expect(exact.segmentDurations == [4, 4, 4])
        let decimal = try Content.constantBitrate(ladderKbps: [2000], segmentSeconds: 0.1, durationSeconds: 0.3)
        #expect(decimal.segmentCount == 3)
        let short = try Content.constantBitrate(ladderKbps: [2000], segmentSeconds: 4, durationSeconds: 1.5)
        #expect(short.segmentDurations == [1.5])
    }

    @Test("constant-bitrate content keeps per-variant resolutions, and a count mismatch names file and path")
    func constantBitrateCarriesResolutions() throws {
        let resolutions: [Resolution?] = [Resolution(width: 640, height: 360), nil]
        let content = try Content.constantBitrate(
            ladderKbps: [800, 3000], resolutions: resolutions, segmentSeconds: 6, segmentCount: 1)
        #expect(content.variants[0].resolution == Resolution(width: 640, height: 360))
        #expect(content.variants[1].resolution == nil)
        let error = thrown {
            try Content.constantBitrate(
                ladderKbps: [800], resolutions: resolutions, segmentSeconds: 6, segmentCount: 1, file: "s.json",
                path: "$.content")
        }
        #expect(error?.place == .jsonPath("s.json", "$.content"))
        #expect(error?.problem == .countMismatch(found: 2, of: "resolutions", expected: 1, per: "ladder rungs"))
    }

    @Test("constant-bitrate content needs exactly one of a count and a duration, positive values and a ladder")
    func constantBitrateNeedsExactlyOneOfCountAndDuration() {
        let both = thrown {
            try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 2, segmentCount: 3, durationSeconds: 6)
        }
        let oneOfCountAndDuration = InputProblem.conflicting(
            ["segments", "durationSeconds"], reason: "give exactly one of a segment count and a duration")
        #expect(both?.problem == oneOfCountAndDuration)
        let neither = thrown { try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 2) }
        #expect(neither?.problem == oneOfCountAndDuration)
        #expect(thrown { try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 0, segmentCount: 3) } != nil)
        #expect(thrown { try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 2, segmentCount: 0) } != nil)
        #expect(thrown { try Content.constantBitrate(ladderKbps: [], segmentSeconds: 2, segmentCount: 1) } != nil)
    }

    @Test("the segment containing a media time is found at boundaries, inside, and clamped below and above")
    func findsTheSegmentContainingAMediaTime() throws {
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 4, durationSeconds: 10)
        #expect(content.segmentIndex(containing: 0) == 0)
        #expect(content.segmentIndex(containing: 3.999) == 0)
        #expect(content.segmentIndex(containing: 4) == 1)
        #expect(content.segmentIndex(containing: 7.5) == 1)
        #expect(content.segmentIndex(containing: 8) == 2)
        #expect(content.segmentIndex(containing: 9.99) == 2)
        #expect(content.segmentIndex(containing: 10) == 2)
        #expect(content.segmentIndex(containing: -1) == 0)
        #expect(content.segmentIndex(containing: 1e9) == 2)
        let single = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 4, segmentCount: 1)
        #expect(single.segmentIndex(containing: 2) == 0)
    }

    // MARK: - Validation

    @Test("a non-ascending ladder, empty content, a bad duration or size, a wrong shape or start variant is refused")
    func validatesTheLadderAndSizes() {
        let variants = [Variant(bitrateBps: 1000), Variant(bitrateBps: 2000)]
        func make(
            _ variants: [Variant], _ durations: [Double], _ sizes: [[Double]], start: Int = 0
        ) -> InputError? {
            thrown {
                try Content(
                    variants: variants, segmentDurations: durations, sizesBits: sizes, startVariantIndex: start,
                    file: "movie.json", path: "$.content")
            }
        }
        let descending = make([Variant(bitrateBps: 2000), Variant(bitrateBps: 1000)], [1], [[1, 1]])
        #expect(descending?.place == .jsonPath("movie.json", "$.content"))
        #expect(
            descending?.problem
                == .outOfOrder(
                    "bitrates", order: "increase", found: "variant 1's 1 kbit/s", after: "variant 0's 2 kbit/s"))
        #expect(make([Variant(bitrateBps: 1000), Variant(bitrateBps: 1000)], [1], [[1, 1]]) != nil)
        #expect(
            make([Variant(bitrateBps: -5)], [1], [[1]])?.problem
                == .mustBe("variant 0: bitrate", rule: "a positive number", found: "-0.005", unit: "kbit/s"))
        #expect(make([], [1], [[]])?.problem == .noneGiven("variant", in: "the ladder"))
        #expect(make(variants, [], [])?.problem == .noneGiven("segment", in: "the content"))
        #expect(
            make(variants, [1, 0], [[1, 1], [1, 1]])?.problem
                == .mustBe("segment 1: duration", rule: "a positive number of seconds", found: "0.0"))
        let size = InputProblem.mustBe("segment 0, variant 1: size", rule: "a positive number of bits", found: "0.0")
        #expect(make(variants, [1], [[1, 0]])?.problem == size)
        #expect(
            make(variants, [1], [[1, .nan]])?.problem
                == .mustBe("segment 0, variant 1: size", rule: "a positive number of bits", found: "nan"))
        #expect(
            make(variants, [1], [[1]])?.problem
                == .within("segment 0", .countMismatch(found: 1, of: "sizes", expected: 2, per: "variants")))
        #expect(
            make(variants, [1, 1], [[1, 1]])?.problem
                == .countMismatch(found: 1, of: "rows of segment sizes", expected: 2, per: "segments"))
        #expect(
            make(variants, [1], [[1, 2]], start: 2)?.problem
                == .mustBe("the start variant", rule: "one of the ladder's 2 (0…1)", found: "2"))
    }

    @Test("content keeps variable durations, sizes, codecs and start variant, with starts summed from the durations")
    func keepsVariableDurationsAndSizes() throws {
        let content = try Content(
            variants: [
                Variant(bitrateBps: 1e6, averageBitrateBps: 8e5, codecs: "avc1.4d401f"), Variant(bitrateBps: 3e6),
            ],
            segmentDurations: [2, 6, 1.5], sizesBits: [[1, 2], [3, 4], [5, 6]], startVariantIndex: 1)
        #expect(content.segmentStarts == [0, 2, 8, 9.5])
        #expect(content.duration == 9.5)
        #expect(content.sizeBits(segment: 1, variant: 0) == 3)
        #expect(content.sizeBits(segment: 2, variant: 1) == 6)
        #expect(content.startVariantIndex == 1)
        #expect(content.variants[0].codecs == "avc1.4d401f")
        #expect(content.segmentIndex(containing: 8.1) == 2)
    }

    @Test("a resolution parses from WIDTHxHEIGHT, refuses a missing or zero side and prints back")
    func parsesResolutions() {
        #expect(Resolution(parsing: "1280x720") == Resolution(width: 1280, height: 720))
        #expect(Resolution(parsing: "1280x") == nil)
        #expect(Resolution(parsing: "0x720") == nil)
        #expect(Resolution(width: 640, height: 360).description == "640x360")
    }

    // MARK: - Pensieve

    @Test("the Pensieve size files give 49 segments with their published byte sizes, or the first 48 when asked")
    func readsPensieveSizeFiles() throws {
        let folder = TestPaths.data + "/content/pensieve-envivio"
        let content = try PensieveSizes.read(
            folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        #expect(content.segmentCount == 49)
        #expect(content.variants.map(\.bitrateBps) == pensieveLadder.map { $0 * 1000 })
        #expect((0..<6).map { content.sizeBytes(segment: 0, variant: $0) } == pensieveFirstRowBytes)
        #expect(content.sizeBits(segment: 0, variant: 1) == 450_283 * 8)
        #expect(content.sizeBytes(segment: 1, variant: 0) == 155_580)
        #expect(content.sizeBytes(segment: 48, variant: 0) == 112_270)
        #expect(content.duration == 196)
        let first48 = try PensieveSizes.read(
            folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: 48)
        #expect(first48.segmentCount == 48)
        #expect(first48.sizeBytes(segment: 47, variant: 5) == content.sizeBytes(segment: 47, variant: 5))
    }

    @Test("asking for 60 segments of 49-segment Pensieve files is refused, naming the first file")
    func refusesMoreSegmentsThanThePensieveFilesHold() {
        let folder = TestPaths.data + "/content/pensieve-envivio"
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: 60)
        }
        #expect(error?.file?.hasSuffix("video_size_0") == true)
        #expect(
            error?.problem
                == .mustBe("the number of segment sizes", rule: "at least the 60 segments asked for", found: "49"))
    }

    @Test("a fractional size in a Pensieve file is refused, naming the file, line and value")
    func reportsANonIntegerPensieveLine() throws {
        let folder = try pensieveCopy { index, text in
            guard index == 2 else { return text }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            lines[2] = "12.5"
            return lines.joined(separator: "\n")
        }
        defer { removeDirectory(folder) }
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(
            error
                == InputError(
                    .line("\(folder)/video_size_2", 3), .expected("a whole number of bytes", found: "\"12.5\"")))
    }

    @Test("a negative size in a Pensieve file is refused, naming the file and line")
    func reportsANegativePensieveLine() throws {
        let folder = try pensieveCopy { index, text in index == 4 ? "100\n-5\n" : text }
        defer { removeDirectory(folder) }
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(error?.place == .line("\(folder)/video_size_4", 2))
    }

    @Test("a zero size or a blank line inside a Pensieve file is refused, naming the file and line")
    func reportsAZeroSizeAndAnInnerBlankLine() throws {
        let zero = try pensieveCopy { index, text in index == 0 ? "0\n" + text : text }
        defer { removeDirectory(zero) }
        let zeroError = thrown {
            try PensieveSizes.read(folder: zero, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(
            zeroError
                == InputError(
                    .line("\(zero)/video_size_0", 1),
                    .mustBe("segment size", rule: "above 0", found: "0", unit: "bytes")))
        let blank = try pensieveCopy { index, text in index == 1 ? "5\n\n6\n" : text }
        defer { removeDirectory(blank) }
        let blankError = thrown {
            try PensieveSizes.read(folder: blank, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(
            blankError
                == InputError(.line("\(blank)/video_size_1", 2), .expected("a byte count", found: "an empty line")))
    }

    @Test("the Pensieve files with CRLF line ends and trailing blank lines read the same sizes")
    func acceptsCRLFAndTrailingBlankLinesInPensieveFiles() throws {
        let folder = try pensieveCopy { _, text in text.split(separator: "\n").joined(separator: "\r\n") + "\r\n\n \n" }
        defer { removeDirectory(folder) }
        let content = try PensieveSizes.read(
            folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        #expect(content.segmentCount == 49)
        #expect((0..<6).map { content.sizeBytes(segment: 0, variant: $0) } == pensieveFirstRowBytes)
    }

    @Test("a missing Pensieve size file is refused by its path")
    func reportsAMissingPensieveFile() throws {
        let folder = try pensieveCopy { index, text in index == 5 ? nil : text }
        defer { removeDirectory(folder) }
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(error == InputError(.file("\(folder)/video_size_5"), .unreadable("no such file")))
    }

    @Test("the Pensieve files of unequal length are refused, naming both files and both counts")
    func reportsPensieveFilesOfUnequalLength() throws {
        let folder = try pensieveCopy { index, text in index == 3 ? String(text.dropLast(8)) : text }
        defer { removeDirectory(folder) }
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: pensieveLadder, segmentSeconds: 4, segments: nil)
        }
        #expect(error?.file == "\(folder)/video_size_3")
        #expect(
            error?.problem
                == .disagrees("the number of segment sizes", found: "48", other: "49", in: "\(folder)/video_size_0"))
    }

    @Test("a descending ladder for the Pensieve files is refused, naming the folder")
    func reportsADescendingPensieveLadder() {
        let folder = TestPaths.data + "/content/pensieve-envivio"
        let error = thrown {
            try PensieveSizes.read(folder: folder, ladderKbps: [750, 300], segmentSeconds: 4, segments: nil)
        }
        #expect(error?.file == folder)
        #expect(
            error?.problem
                == .outOfOrder(
                    "bitrates", order: "increase", found: "variant 1's 300 kbit/s", after: "variant 0's 750 kbit/s"))
    }

    // MARK: - sabre

    @Test("sabre's Big Buck Bunny movie gives 199 segments of 3 s over 10 rungs with its published sizes")
    func readsTheSabreBigBuckBunnyMovie() throws {
        let content = try SabreMovie.read(path: TestPaths.data + "/content/sabre/bbb.json")
        #expect(content.segmentCount == 199)
        #expect(content.variants.count == 10)
        #expect(content.variants.first?.bitrateBps == 230_000)
        #expect(content.variants.last?.bitrateBps == 6_000_000)
        #expect(content.segmentDurations.allSatisfy { $0 == 3 })
        #expect(content.duration == 597)
        let firstRow: [Double] = [
            886_360, 1_180_512, 1_757_888, 2_321_704, 3_515_816, 5_140_704, 7_395_048, 10_097_056, 17_115_584,
            20_657_480,
        ]
        #expect((0..<10).map { content.sizeBits(segment: 0, variant: $0) } == firstRow)
        #expect(content.sizeBits(segment: 198, variant: 9) == 17_278_080)
        #expect(content.segmentIndex(containing: 3) == 1)
    }

    /// Writes a sabre movie with `segments` rows of `levels` sizes and returns its path.
    private func sabreMovie(
        bitrates: String = "[100, 200, 300, 400]", duration: String = "2000", segments: Int = 20,
        cell: (Int, Int) -> String = { segment, level in "\((segment + 1) * (level + 1) * 1000)" },
        rowLength: (Int) -> Int = { _ in 4 }, extra: String = ""
    ) -> String {
        let rows = (0..<segments).map { segment in
            "[" + (0..<rowLength(segment)).map { cell(segment, $0) }.joined(separator: ", ") + "]"
        }
        let text = """
            {"segment_duration_ms": \(duration),\(extra)
             "bitrates_kbps": \(bitrates),
             "segment_sizes_bits": [
              \(rows.joined(separator: ",\n  "))
             ]}
            """
        let path = makeTemporaryDirectory() + "/movie.json"
        write(text, to: path)
        return path
    }

    @Test("a well-formed sabre movie gives its segment count, durations and sizes")
    func readsAWellFormedSabreMovie() throws {
        let path = sabreMovie()
        defer { removeDirectory(InputFile.directory(of: path)) }
        let content = try SabreMovie.read(path: path)
        #expect(content.segmentCount == 20)
        #expect(content.segmentDurations[0] == 2)
        #expect(content.sizeBits(segment: 17, variant: 3) == 72_000)
    }

    @Test("a string or negative size in a sabre movie is refused, naming its JSON path")
    func reportsTheJSONPathOfABadSabreSize() {
        let path = sabreMovie(cell: { segment, level in segment == 17 && level == 3 ? "\"big\"" : "1000" })
        defer { removeDirectory(InputFile.directory(of: path)) }
        let error = thrown { try SabreMovie.read(path: path) }
        #expect(
            error
                == InputError(.jsonPath(path, "$.segment_sizes_bits[17][3]"), .expected("a number", found: "a string")))
        let negative = sabreMovie(cell: { segment, level in segment == 2 && level == 0 ? "-1" : "1000" })
        defer { removeDirectory(InputFile.directory(of: negative)) }
        #expect(
            thrown { try SabreMovie.read(path: negative) }?.place == .jsonPath(negative, "$.segment_sizes_bits[2][0]"))
    }

    @Test("descending sabre bitrates are refused, naming the JSON path and both values")
    func reportsDescendingSabreBitrates() {
        let path = sabreMovie(bitrates: "[100, 300, 200, 400]")
        defer { removeDirectory(InputFile.directory(of: path)) }
        let error = thrown { try SabreMovie.read(path: path) }
        #expect(error?.place == .jsonPath(path, "$.bitrates_kbps[2]"))
        #expect(error?.problem == .outOfOrder("bitrates", order: "increase", found: "200", after: "300"))
    }

    @Test("a short row, a string duration, an object ladder or an unknown key in a sabre movie is refused by path")
    func reportsWrongSabreShapes() {
        let shortRow = sabreMovie(rowLength: { $0 == 5 ? 3 : 4 })
        defer { removeDirectory(InputFile.directory(of: shortRow)) }
        #expect(
            thrown { try SabreMovie.read(path: shortRow) }
                == InputError(
                    .jsonPath(shortRow, "$.segment_sizes_bits[5]"), .expected("4 sizes (one per bitrate)", found: "3")))
        let stringDuration = sabreMovie(duration: "\"3000\"")
        defer { removeDirectory(InputFile.directory(of: stringDuration)) }
        #expect(
            thrown { try SabreMovie.read(path: stringDuration) }
                == InputError(
                    .jsonPath(stringDuration, "$.segment_duration_ms"), .expected("a number", found: "a string")))
        let objectLadder = sabreMovie(bitrates: "{}")
        defer { removeDirectory(InputFile.directory(of: objectLadder)) }
        #expect(
            thrown { try SabreMovie.read(path: objectLadder) }
                == InputError(.jsonPath(objectLadder, "$.bitrates_kbps"), .expected("an array", found: "an object")))
        let unknown = sabreMovie(extra: " \"title\": \"x\",")
        defer { removeDirectory(InputFile.directory(of: unknown)) }
        #expect(
            thrown { try SabreMovie.read(path: unknown) }?.problem
                == .unknownKeys([#""title""#], known: ["segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"]))
    }

    @Test("a missing key or a trailing comma in a sabre movie is refused, naming the key or line and column")
    func reportsAMissingSabreKeyAndBadJSON() {
        let path = makeTemporaryDirectory() + "/movie.json"
        defer { removeDirectory(InputFile.directory(of: path)) }
        write(#"{"segment_duration_ms": 3000, "bitrates_kbps": [1]}"#, to: path)
        #expect(
            thrown { try SabreMovie.read(path: path) }
                == InputError(.jsonPath(path, "$"), .missing("key \"segment_sizes_bits\"")))
        write("{\"segment_duration_ms\": 3000,\n \"bitrates_kbps\": [1,],", to: path)
        #expect(
            thrown { try SabreMovie.read(path: path) }
                == InputError(.lineColumn(path, 2, 21), .syntax("trailing comma before ']'")))
    }
}
