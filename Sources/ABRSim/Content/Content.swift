/// A video as the player downloads it: a bitrate ladder and, for every segment, its duration and its size at
/// every variant (DESIGN §2.3).
///
/// Immutable and shared by every player and run that plays it, so it is a `final class`; its per-segment tables
/// (``ContentTables``) are read in O(1), and held in closed form, O(variants) memory, when every segment but the
/// last has one duration and one size per variant (constant-bitrate content). Built by `constantBitrate(ladderKbps:…)`, ``PensieveSizes``, ``SabreMovie`` and
/// the HLS reader; read by players, policies and metrics.
public final class Content: Sendable {
    /// The most segments content may have: a million (over 11 days of 1-s segments). A larger count is almost
    /// certainly a mistake, and its size table alone would exhaust memory, so it is refused before allocating.
    public static let maximumSegmentCount = 1_000_000

    /// The ladder, ascending by declared bitrate; index 0 is the lowest.
    public let variants: [Variant]
    /// The number of segments.
    public let segmentCount: Int
    /// Each segment's media duration, seconds (the last may be shorter).
    public let segmentDurations: SegmentColumn
    /// The media time at which each segment starts, seconds, plus the total duration at the end
    /// (`segmentCount + 1` entries, starting at 0).
    public let segmentStarts: SegmentColumn
    /// The variant a player starts with unless told otherwise (0 unless the source says otherwise).
    public let startVariantIndex: Int
    /// The live presentation this content is played as (`nil`: video on demand, every segment available).
    public let live: LiveStream?
    /// The per-segment tables, or their closed form (see ``ContentTables``).
    let tables: ContentTables

    /// Whether the sizes are held in closed form (every segment but the last of one duration and one size per
    /// variant): O(variants) memory whatever the segment count.
    public var isClosedForm: Bool { tables.isClosedForm }

    /// Creates content from a ladder, per-segment durations in seconds and sizes in bits (`[segment][variant]`).
    ///
    /// Throws an ``InputError`` (with `file` and `path` as its context) unless there is at least one variant and
    /// one segment, bitrates are positive and strictly ascending, durations are positive and finite, every
    /// segment has one positive finite size per variant, and `startVariantIndex` names a variant. Content whose
    /// segments all share one duration and one row of sizes, but the last, is held in closed form.
    public convenience init(
        variants: [Variant], segmentDurations: [Double], sizesBits: [[Double]], startVariantIndex: Int = 0,
        file: String? = nil, path: String? = nil, live: LiveStream? = nil
    ) throws {
        func fail(_ problem: InputProblem) -> InputError {
            InputError(InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))), problem)
        }
        try Ladder.validate(bitratesBps: variants.map(\.bitrateBps), file: file, path: path)
        guard !segmentDurations.isEmpty else { throw fail(.noneGiven("segment", in: "the content")) }
        guard sizesBits.count == segmentDurations.count else {
            throw fail(
                .countMismatch(
                    found: sizesBits.count, of: "rows of segment sizes", expected: segmentDurations.count,
                    per: "segments"))
        }
        guard variants.indices.contains(startVariantIndex) else {
            throw fail(
                .mustBe(
                    "the start variant", rule: "one of the ladder's \(variants.count) (0…\(variants.count - 1))",
                    found: "\(startVariantIndex)"))
        }
        for (segment, duration) in segmentDurations.enumerated() {
            guard duration.isFinite, duration > 0 else {
                throw fail(
                    .mustBe("segment \(segment): duration", rule: "a positive number of seconds", found: "\(duration)"))
            }
            let row = sizesBits[segment]
            guard row.count == variants.count else {
                throw fail(
                    .within(
                        "segment \(segment)",
                        .countMismatch(found: row.count, of: "sizes", expected: variants.count, per: "variants")))
            }
            for (variant, bits) in row.enumerated() {
                guard bits.isFinite, bits > 0 else {
                    throw fail(
                        .mustBe(
                            "segment \(segment), variant \(variant): size", rule: "a positive number of bits",
                            found: "\(bits)"))
                }
            }
        }
        let tables =
            ContentTables.closedForm(durations: segmentDurations, sizesBits: sizesBits)
            ?? ContentTables.tabulated(durations: segmentDurations, sizesBits: sizesBits)
        self.init(variants: variants, tables: tables, startVariantIndex: startVariantIndex, live: live)
    }

    /// Content over validated `tables`.
    init(variants: [Variant], tables: ContentTables, startVariantIndex: Int, live: LiveStream?) {
        self.variants = variants
        self.tables = tables
        segmentCount = tables.segmentCount
        segmentDurations = tables.durations
        segmentStarts = tables.starts
        self.startVariantIndex = startVariantIndex
        self.live = live
    }

    /// A copy with its own storage: equal in every value, sharing no buffer (and no reference count) with this
    /// one. Parallel runs each take one, so that threads do not contend for the reference counts of one shared
    /// object in the hot loop (``SweepPlan`` does). A copy of closed-form content costs O(variants).
    public func privateCopy() -> Content {
        func fresh<T>(_ array: [T]) -> [T] { array.withUnsafeBufferPointer { Array($0) } }
        return Content(
            variants: fresh(variants), tables: tables.privateCopy(), startVariantIndex: startVariantIndex, live: live)
    }

    /// Total media duration, seconds.
    public var duration: Double { segmentStarts[segmentCount] }

    /// The number of variants in the ladder.
    public var variantCount: Int { variants.count }

    /// The size of `segment` at `variant`, bits. O(1); both indices must be in range.
    @inline(__always)
    public func sizeBits(segment: Int, variant: Int) -> Double {
        tables.sizeBits(segment: segment, variant: variant)
    }

    /// The bits of `variant` in the segments before `segment` (0…``segmentCount``), for the keep-up predictor's
    /// sums over any run of segments in O(1).
    @inline(__always)
    func prefixBits(before segment: Int, variant: Int) -> Double {
        tables.prefixBits(before: segment, variant: variant)
    }

    /// The largest size (bits) of `variant` from `segment` to the end, for the keep-up predictor's early exit.
    @inline(__always)
    func suffixMaximumBits(segment: Int, variant: Int) -> Double {
        tables.suffixMaximumBits(segment: segment, variant: variant)
    }

    /// The smallest size (bits) of `variant` from `segment` to the end, for the keep-up predictor's shortcut when
    /// every later segment only adds lateness.
    @inline(__always)
    func suffixMinimumBits(segment: Int, variant: Int) -> Double {
        tables.suffixMinimumBits(segment: segment, variant: variant)
    }

    /// The shortest segment duration from `segment` to the end (seconds).
    @inline(__always)
    func suffixMinimumDuration(segment: Int) -> Double { tables.suffixMinimumDuration(segment: segment) }

    /// The longest segment duration from `segment` to the end (seconds).
    @inline(__always)
    func suffixMaximumDuration(segment: Int) -> Double { tables.suffixMaximumDuration(segment: segment) }

    /// The size of `segment` at `variant`, bytes. O(1); both indices must be in range.
    @inline(__always)
    public func sizeBytes(segment: Int, variant: Int) -> Double {
        sizeBits(segment: segment, variant: variant) / 8
    }

    /// The index of the segment whose media interval `[start, end)` holds `mediaTime` (seconds); times before 0
    /// give 0 and times at or after the end give the last segment. O(log n).
    public func segmentIndex(containing mediaTime: Double) -> Int {
        var low = 0
        var high = segmentCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segmentStarts[middle] <= mediaTime { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Constant-bitrate content: every segment at every variant is bitrate × that segment's duration bits.
    ///
    /// Give exactly one of `segmentCount` (that many segments of `segmentSeconds`) or `durationSeconds` (enough
    /// segments to cover it; when it is not a whole number of segments the last one is shorter). `resolutions`,
    /// if given, has one entry per ladder rung. Called by the scenario loader for synthetic content.
    public static func constantBitrate(
        ladderKbps: [Double], resolutions: [Resolution?]? = nil, segmentSeconds: Double, segmentCount: Int? = nil,
        durationSeconds: Double? = nil, file: String? = nil, path: String? = nil
    ) throws -> Content {
        func fail(_ problem: InputProblem) -> InputError {
            InputError(InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))), problem)
        }
        guard segmentSeconds.isFinite, segmentSeconds > 0 else {
            throw fail(.mustBe("segment duration", rule: "a positive number of seconds", found: "\(segmentSeconds)"))
        }
        if let resolutions, resolutions.count != ladderKbps.count {
            throw fail(
                .countMismatch(
                    found: resolutions.count, of: "resolutions", expected: ladderKbps.count, per: "ladder rungs"))
        }
        let shape: (count: Int, last: Double)
        switch (segmentCount, durationSeconds) {
        case (let count?, nil):
            guard count > 0 else { throw fail(.mustBe("segment count", rule: "at least 1", found: "\(count)")) }
            guard count <= maximumSegmentCount else {
                throw fail(.overLimit("\(count) segments", limit: "\(maximumSegmentCount)"))
            }
            shape = (count, segmentSeconds)
        case (nil, let total?):
            guard total.isFinite, total > 0 else {
                throw fail(.mustBe("duration", rule: "a positive number of seconds", found: "\(total)"))
            }
            guard total / segmentSeconds < Double(maximumSegmentCount) else {
                throw fail(
                    .overLimit(
                        "\(total) s in segments of \(segmentSeconds) s", limit: "\(maximumSegmentCount) segments"))
            }
            shape = splitShape(total, into: segmentSeconds)
        default:
            throw fail(
                .conflicting(
                    ["segments", "durationSeconds"], reason: "give exactly one of a segment count and a duration"))
        }
        let variants = ladderKbps.enumerated().map { index, kbps in
            Variant(bitrateBps: kbps * 1000, resolution: resolutions?[index] ?? nil)
        }
        let fullRow = variants.map { $0.bitrateBps * segmentSeconds }
        let lastRow = variants.map { $0.bitrateBps * shape.last }
        try Ladder.validate(bitratesBps: variants.map(\.bitrateBps), file: file, path: path)
        let valid = (fullRow + lastRow).allSatisfy { $0.isFinite && $0 > 0 } && shape.last > 0
        if valid,
            let tables = ContentTables.closedForm(
                count: shape.count, duration: segmentSeconds, lastDuration: shape.last, row: fullRow, lastRow: lastRow)
        {
            return Content(variants: variants, tables: tables, startVariantIndex: 0, live: nil)
        }
        // Not representable in closed form (or invalid, which the table form reports): the tables.
        var durations = Array(repeating: segmentSeconds, count: shape.count - 1)
        durations.append(shape.last)
        let sizes = durations.map { seconds in variants.map { $0.bitrateBps * seconds } }
        return try Content(variants: variants, segmentDurations: durations, sizesBits: sizes, file: file, path: path)
    }

    /// The number of segments of `segmentSeconds` covering `total` and the last one's duration (shorter when
    /// `total` is not a multiple; a remainder below a millionth of a segment is treated as rounding error).
    static func splitShape(_ total: Double, into segmentSeconds: Double) -> (count: Int, last: Double) {
        let ratio = total / segmentSeconds
        let nearest = ratio.rounded()
        if nearest >= 1, abs(ratio - nearest) < 1e-6 { return (Int(nearest), segmentSeconds) }
        let whole = Int(ratio.rounded(.down))
        return (whole + 1, total - Double(whole) * segmentSeconds)
    }

    /// Whole segments of `segmentSeconds` covering `total`, the last one shorter when `total` is not a multiple
    /// (a remainder below a millionth of a segment is treated as rounding error).
    static func splitDuration(_ total: Double, into segmentSeconds: Double) -> [Double] {
        let shape = splitShape(total, into: segmentSeconds)
        var durations = Array(repeating: segmentSeconds, count: shape.count - 1)
        durations.append(shape.last)
        return durations
    }
}
