/// The per-segment tables of a ``Content``: durations, start times and sizes, and what the keep-up predictor reads
/// in O(1) — suffix extremes of sizes and durations and prefix sums of sizes.
///
/// Two forms with the same values: the tables themselves (sizes indexed `segment * width + variant`), or, when every
/// segment but the last has one duration and one row of sizes (constant-bitrate content), their closed form in
/// O(width) memory. The closed form is taken only where it reproduces the tables' running sums exactly (checked once
/// over every segment, without storing them), so every value read is the one the tables would hold. Sizes in bits,
/// times in seconds. Built by ``Content``; read through its methods.
struct ContentTables: Sendable {
    /// Segments, and variants per segment.
    let segmentCount: Int
    let width: Int
    /// Each segment's duration, and the start times (`segmentCount + 1` entries).
    let durations: SegmentColumn
    let starts: SegmentColumn
    /// Whether the values below are the closed form (the tabulated arrays are then empty).
    let isClosedForm: Bool

    // Tabulated: `segment * width + variant` (prefix sums: `segmentCount + 1` rows), per segment for durations.
    private let sizes: [Double]
    private let suffixMaximum: [Double]
    private let suffixMinimum: [Double]
    private let suffixShortest: [Double]
    private let suffixLongest: [Double]
    private let prefix: [Double]

    // Closed form: the sizes of every segment but the last (`row`) and of the last, their extremes, the prefix sums
    // at the end, and the extremes of the two durations.
    private let row: [Double]
    private let lastRow: [Double]
    private let rowMaximum: [Double]
    private let rowMinimum: [Double]
    private let prefixAtEnd: [Double]
    private let shortest: Double
    private let longest: Double
    private let lastDuration: Double

    /// The tables of `durations` and `sizesBits` (`[segment][variant]`, validated by the caller).
    static func tabulated(durations: [Double], sizesBits: [[Double]]) -> ContentTables {
        let count = durations.count
        let width = sizesBits.first?.count ?? 0
        var flat: [Double] = []
        flat.reserveCapacity(count * width)
        for row in sizesBits { flat.append(contentsOf: row) }
        var starts = [0.0]
        starts.reserveCapacity(count + 1)
        for (segment, duration) in durations.enumerated() { starts.append(starts[segment] + duration) }
        var peak = [Double](repeating: 0, count: count * width)
        var least = [Double](repeating: 0, count: count * width)
        var shortest = [Double](repeating: .infinity, count: count)
        var longest = [Double](repeating: 0, count: count)
        for segment in stride(from: count - 1, through: 0, by: -1) {
            let duration = durations[segment]
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
        return ContentTables(
            segmentCount: count, width: width, durations: SegmentColumn(table: durations),
            starts: SegmentColumn(table: starts), isClosedForm: false, sizes: flat, suffixMaximum: peak,
            suffixMinimum: least, suffixShortest: shortest, suffixLongest: longest, prefix: prefix, row: [],
            lastRow: [], rowMaximum: [], rowMinimum: [], prefixAtEnd: [], shortest: 0, longest: 0, lastDuration: 0)
    }

    /// The closed form of `durations` and `sizesBits` when every segment but the last has the first one's duration
    /// and row of sizes, and the closed form reproduces the running sums; `nil` otherwise.
    static func closedForm(durations: [Double], sizesBits: [[Double]]) -> ContentTables? {
        guard let first = durations.first, let firstRow = sizesBits.first else { return nil }
        let count = durations.count
        for segment in 1..<max(count - 1, 1) where durations[segment] != first || sizesBits[segment] != firstRow {
            return nil
        }
        return closedForm(
            count: count, duration: first, lastDuration: durations[count - 1], row: firstRow,
            lastRow: sizesBits[count - 1])
    }

    /// The closed form of `count` segments of `duration` with sizes `row`, but the last, of `lastDuration` with
    /// sizes `lastRow` (values validated by the caller); `nil` where a start time or a prefix sum of sizes, summed
    /// segment by segment as the tables do, differs from its closed form k × duration or k × size.
    static func closedForm(
        count: Int, duration: Double, lastDuration: Double, row: [Double], lastRow: [Double]
    ) -> ContentTables? {
        guard count >= 1, row.count == lastRow.count else { return nil }
        let step = count == 1 ? lastDuration : duration
        let full = count == 1 ? lastRow : row
        guard running(step, equalsMultiplesUpTo: count - 1) else { return nil }
        for bits in full where !running(bits, equalsMultiplesUpTo: count - 1) { return nil }
        let lastStart = Double(count - 1) * step
        return ContentTables(
            segmentCount: count, width: row.count,
            durations: SegmentColumn(count: count, step: step, ramps: false, last: lastDuration),
            starts: SegmentColumn(count: count + 1, step: step, ramps: true, last: lastStart + lastDuration),
            isClosedForm: true, sizes: [], suffixMaximum: [], suffixMinimum: [], suffixShortest: [],
            suffixLongest: [], prefix: [], row: full, lastRow: lastRow,
            rowMaximum: zip(full, lastRow).map { max($0, $1) }, rowMinimum: zip(full, lastRow).map { min($0, $1) },
            prefixAtEnd: zip(full, lastRow).map { Double(count - 1) * $0 + $1 }, shortest: min(step, lastDuration),
            longest: max(step, lastDuration), lastDuration: lastDuration)
    }

    /// Whether adding `value` to 0 one step at a time gives exactly k × `value` after each step k ≤ `steps`.
    private static func running(_ value: Double, equalsMultiplesUpTo steps: Int) -> Bool {
        var sum = 0.0
        var k = 0
        while k < steps {
            sum += value
            k += 1
            if sum != Double(k) * value { return false }
        }
        return true
    }

    /// These tables with storage of their own (sharing no buffer with this one).
    func privateCopy() -> ContentTables {
        func fresh(_ array: [Double]) -> [Double] { array.withUnsafeBufferPointer { Array($0) } }
        return ContentTables(
            segmentCount: segmentCount, width: width, durations: durations.privateCopy(),
            starts: starts.privateCopy(), isClosedForm: isClosedForm, sizes: fresh(sizes),
            suffixMaximum: fresh(suffixMaximum), suffixMinimum: fresh(suffixMinimum),
            suffixShortest: fresh(suffixShortest), suffixLongest: fresh(suffixLongest), prefix: fresh(prefix),
            row: fresh(row), lastRow: fresh(lastRow), rowMaximum: fresh(rowMaximum), rowMinimum: fresh(rowMinimum),
            prefixAtEnd: fresh(prefixAtEnd), shortest: shortest, longest: longest, lastDuration: lastDuration)
    }

    /// The size of `segment` at `variant` (bits).
    @inline(__always)
    func sizeBits(segment: Int, variant: Int) -> Double {
        guard isClosedForm else { return sizes[segment * width + variant] }
        return segment < segmentCount - 1 ? row[variant] : lastRow[variant]
    }

    /// The largest size of `variant` from `segment` to the end (bits).
    @inline(__always)
    func suffixMaximumBits(segment: Int, variant: Int) -> Double {
        guard isClosedForm else { return suffixMaximum[segment * width + variant] }
        return segment < segmentCount - 1 ? rowMaximum[variant] : lastRow[variant]
    }

    /// The smallest size of `variant` from `segment` to the end (bits).
    @inline(__always)
    func suffixMinimumBits(segment: Int, variant: Int) -> Double {
        guard isClosedForm else { return suffixMinimum[segment * width + variant] }
        return segment < segmentCount - 1 ? rowMinimum[variant] : lastRow[variant]
    }

    /// The shortest segment duration from `segment` to the end (seconds).
    @inline(__always)
    func suffixMinimumDuration(segment: Int) -> Double {
        guard isClosedForm else { return suffixShortest[segment] }
        return segment < segmentCount - 1 ? shortest : lastDuration
    }

    /// The longest segment duration from `segment` to the end (seconds).
    @inline(__always)
    func suffixMaximumDuration(segment: Int) -> Double {
        guard isClosedForm else { return suffixLongest[segment] }
        return segment < segmentCount - 1 ? longest : lastDuration
    }

    /// The bits of `variant` in the segments before `segment` (0…``segmentCount``).
    @inline(__always)
    func prefixBits(before segment: Int, variant: Int) -> Double {
        guard isClosedForm else { return prefix[segment * width + variant] }
        return segment < segmentCount ? Double(segment) * row[variant] : prefixAtEnd[variant]
    }
}

/// One per-segment column of a ``Content`` — each segment's duration, or each segment's start time — read as a
/// random-access collection of seconds, indexed from 0. Either a table, or the closed form of one whose entries
/// are all one step (durations) or k × step (start times) except the last: O(1) memory for constant-bitrate
/// content, same values. Built by ``ContentTables``; read by players, policies and metrics.
public struct SegmentColumn: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    /// The entries when tabulated (empty in closed form: content has at least one segment).
    private let table: [Double]
    /// Closed form: the number of entries, the step, whether entry k is k × step (else the step itself), and the
    /// last entry.
    private let closedCount: Int
    private let step: Double
    private let ramps: Bool
    private let last: Double

    /// A tabulated column.
    init(table: [Double]) {
        self.table = table
        closedCount = 0
        step = 0
        ramps = false
        last = 0
    }

    /// A closed-form column of `count` entries: `step` or k × `step` (`ramps`) at entry k, `last` at the end.
    init(count: Int, step: Double, ramps: Bool, last: Double) {
        table = []
        closedCount = count
        self.step = step
        self.ramps = ramps
        self.last = last
    }

    /// A tabulated column of the given seconds.
    public init(arrayLiteral elements: Double...) { self.init(table: elements) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { table.isEmpty ? closedCount : table.count }

    /// Entry `position` (seconds); the position must be in range.
    @inline(__always)
    public subscript(position: Int) -> Double {
        if !table.isEmpty { return table[position] }
        precondition(position >= 0 && position < closedCount, "segment column index out of range")
        if position == closedCount - 1 { return last }
        return ramps ? Double(position) * step : step
    }

    public static func == (a: SegmentColumn, b: SegmentColumn) -> Bool { a.elementsEqual(b) }

    /// This column with storage of its own.
    func privateCopy() -> SegmentColumn {
        table.isEmpty ? self : SegmentColumn(table: table.withUnsafeBufferPointer { Array($0) })
    }
}
