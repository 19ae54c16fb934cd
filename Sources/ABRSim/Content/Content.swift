/// A video as the player downloads it: a bitrate ladder and, for every segment, its duration and its size at
/// every variant (DESIGN §2.3).
///
/// Immutable and shared by every player and run that plays it, so it is a `final class`; sizes sit in one
/// contiguous `[Double]` indexed `segment * variantCount + variant` so the simulation's hot loop reads them in
/// O(1) without nested arrays. Built by `constantBitrate(ladderKbps:…)`, ``PensieveSizes``, ``SabreMovie`` and
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
    public let segmentDurations: [Double]
    /// The media time at which each segment starts, seconds, plus the total duration at the end
    /// (`segmentCount + 1` entries, starting at 0).
    public let segmentStarts: [Double]
    /// The variant a player starts with unless told otherwise (0 unless the source says otherwise).
    public let startVariantIndex: Int
    /// The live presentation this content is played as (`nil`: video on demand, every segment available).
    public let live: LiveStream?
    /// Segment sizes in bits, `segment * variantCount + variant`.
    private let sizes: [Double]
    /// For `segment * variantCount + variant`: the largest size (bits) of that variant from that segment to the
    /// end, for the keep-up predictor's early exit.
    let suffixMaximumBits: [Double]
    /// For `segment * variantCount + variant`: the smallest size (bits) of that variant from that segment to the
    /// end, for the keep-up predictor's shortcut when every later segment only adds lateness.
    let suffixMinimumBits: [Double]
    /// For each segment: the shortest segment duration from it to the end.
    let suffixMinimumDuration: [Double]
    /// For each segment: the longest segment duration from it to the end.
    let suffixMaximumDuration: [Double]
    /// For `segment * variantCount + variant`: the bits of that variant in the segments before `segment`
    /// (`segmentCount + 1` rows), so that the keep-up predictor sums any run of segments in O(1).
    let prefixBits: [Double]

    /// Creates content from a ladder, per-segment durations in seconds and sizes in bits (`[segment][variant]`).
    ///
    /// Throws an ``InputError`` (with `file` and `path` as its context) unless there is at least one variant and
    /// one segment, bitrates are positive and strictly ascending, durations are positive and finite, every
    /// segment has one positive finite size per variant, and `startVariantIndex` names a variant.
    public init(
        variants: [Variant], segmentDurations: [Double], sizesBits: [[Double]], startVariantIndex: Int = 0,
        file: String? = nil, path: String? = nil, live: LiveStream? = nil
    ) throws {
        func fail(_ problem: InputProblem) -> InputError {
            InputError(InputPlace(file: file, position: path.map(InputPlace.Position.init(text:))), problem)
        }
        try Ladder.validate(bitratesBps: variants.map(\.bitrateBps), file: file, path: path)
        guard !segmentDurations.isEmpty else { throw fail(.invalid("the content has no segments")) }
        guard sizesBits.count == segmentDurations.count else {
            throw fail(
                .countMismatch(
                    found: sizesBits.count, of: "rows of segment sizes", expected: segmentDurations.count,
                    per: "segments"))
        }
        guard variants.indices.contains(startVariantIndex) else {
            throw fail(
                .invalid("start variant \(startVariantIndex) is not in the ladder of \(variants.count) variants"))
        }
        var starts = [0.0]
        starts.reserveCapacity(segmentDurations.count + 1)
        var flat: [Double] = []
        flat.reserveCapacity(segmentDurations.count * variants.count)
        for (segment, duration) in segmentDurations.enumerated() {
            guard duration.isFinite, duration > 0 else {
                throw fail(
                    .mustBe("segment \(segment): duration", rule: "a positive number of seconds", found: "\(duration)"))
            }
            starts.append(starts[segment] + duration)
            let row = sizesBits[segment]
            guard row.count == variants.count else {
                throw fail(
                    .invalid("segment \(segment) has \(row.count) sizes, expected \(variants.count) (one per variant)"))
            }
            for (variant, bits) in row.enumerated() {
                guard bits.isFinite, bits > 0 else {
                    throw fail(
                        .mustBe(
                            "segment \(segment), variant \(variant): size", rule: "a positive number of bits",
                            found: "\(bits)"))
                }
            }
            flat.append(contentsOf: row)
        }
        self.variants = variants
        self.segmentCount = segmentDurations.count
        self.segmentDurations = segmentDurations
        self.segmentStarts = starts
        self.startVariantIndex = startVariantIndex
        self.live = live
        self.sizes = flat
        let count = segmentDurations.count
        let width = variants.count
        var peak = [Double](repeating: 0, count: count * width)
        var least = [Double](repeating: 0, count: count * width)
        var shortest = [Double](repeating: .infinity, count: count)
        var longest = [Double](repeating: 0, count: count)
        for segment in stride(from: count - 1, through: 0, by: -1) {
            let duration = segmentDurations[segment]
            let isLast = segment + 1 == count
            shortest[segment] = isLast ? duration : min(duration, shortest[segment + 1])
            longest[segment] = isLast ? duration : max(duration, longest[segment + 1])
            for variant in 0..<width {
                let here = flat[segment * width + variant]
                let later = (segment + 1) * width + variant
                peak[segment * width + variant] = isLast ? here : max(here, peak[later])
                least[segment * width + variant] = isLast ? here : min(here, least[later])
            }
        }
        var prefix = [Double](repeating: 0, count: (count + 1) * width)
        for index in 0..<(count * width) { prefix[index + width] = prefix[index] + flat[index] }
        suffixMaximumBits = peak
        suffixMinimumBits = least
        suffixMinimumDuration = shortest
        suffixMaximumDuration = longest
        prefixBits = prefix
    }

    /// A copy with its own storage: equal in every value, sharing no buffer (and no reference count) with this
    /// one. Parallel runs each take one, so that threads do not contend for the reference counts of one shared
    /// object in the hot loop (``SweepPlan`` does).
    public func privateCopy() -> Content {
        Content(copying: self)
    }

    private init(copying other: Content) {
        func fresh<T>(_ array: [T]) -> [T] { array.withUnsafeBufferPointer { Array($0) } }
        variants = fresh(other.variants)
        segmentCount = other.segmentCount
        segmentDurations = fresh(other.segmentDurations)
        segmentStarts = fresh(other.segmentStarts)
        startVariantIndex = other.startVariantIndex
        live = other.live
        sizes = fresh(other.sizes)
        suffixMaximumBits = fresh(other.suffixMaximumBits)
        suffixMinimumBits = fresh(other.suffixMinimumBits)
        suffixMinimumDuration = fresh(other.suffixMinimumDuration)
        suffixMaximumDuration = fresh(other.suffixMaximumDuration)
        prefixBits = fresh(other.prefixBits)
    }

    /// Total media duration, seconds.
    public var duration: Double { segmentStarts[segmentCount] }

    /// The number of variants in the ladder.
    public var variantCount: Int { variants.count }

    /// The size of `segment` at `variant`, bits. O(1); both indices must be in range.
    @inline(__always)
    public func sizeBits(segment: Int, variant: Int) -> Double {
        sizes[segment * variants.count + variant]
    }

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
        let durations: [Double]
        switch (segmentCount, durationSeconds) {
        case (let count?, nil):
            guard count > 0 else { throw fail(.mustBe("segment count", rule: "at least 1", found: "\(count)")) }
            guard count <= maximumSegmentCount else {
                throw fail(.overLimit("\(count) segments", limit: "\(maximumSegmentCount)"))
            }
            durations = Array(repeating: segmentSeconds, count: count)
        case (nil, let total?):
            guard total.isFinite, total > 0 else {
                throw fail(.mustBe("duration", rule: "a positive number of seconds", found: "\(total)"))
            }
            guard total / segmentSeconds < Double(maximumSegmentCount) else {
                throw fail(
                    .invalid(
                        "\(total) s in segments of \(segmentSeconds) s is more than the limit of \(maximumSegmentCount)"
                            + " segments"))
            }
            durations = splitDuration(total, into: segmentSeconds)
        default:
            throw fail(.invalid("give exactly one of a segment count and a duration"))
        }
        let variants = ladderKbps.enumerated().map { index, kbps in
            Variant(bitrateBps: kbps * 1000, resolution: resolutions?[index] ?? nil)
        }
        let sizes = durations.map { seconds in variants.map { $0.bitrateBps * seconds } }
        return try Content(variants: variants, segmentDurations: durations, sizesBits: sizes, file: file, path: path)
    }

    /// Whole segments of `segmentSeconds` covering `total`, the last one shorter when `total` is not a multiple
    /// (a remainder below a millionth of a segment is treated as rounding error).
    static func splitDuration(_ total: Double, into segmentSeconds: Double) -> [Double] {
        let ratio = total / segmentSeconds
        let nearest = ratio.rounded()
        if nearest >= 1, abs(ratio - nearest) < 1e-6 { return Array(repeating: segmentSeconds, count: Int(nearest)) }
        let whole = Int(ratio.rounded(.down))
        var durations = Array(repeating: segmentSeconds, count: whole)
        durations.append(total - Double(whole) * segmentSeconds)
        return durations
    }
}
