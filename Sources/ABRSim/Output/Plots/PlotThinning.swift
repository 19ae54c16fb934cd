/// Thinning of long series to the resolution of the drawing, so that the plots of a long run stay bounded in size
/// and memory (a day of 16 players has over a million timeline rows, and a panel is 800 pixels wide).
///
/// A series at or below its limit is drawn as it is, point for point, so the plots of short runs do not change.
/// Above it, lines keep per pixel column the first, lowest, highest and last point (in their original order, so
/// the rasterised line looks the same and spikes and drops to zero stay visible), and strips of coloured spans
/// keep per pixel column the key that covers most of it. Called by ``TimelinePlot``.
public enum PlotThinning {
    /// A line or area with more points than this is thinned (at most 4 points per pixel column remain, 3 200 for
    /// an 800-pixel panel, so a thinned line is below the limit).
    public static let maximumPoints = 4000
    /// A strip or shading with more spans than this is merged per pixel column (at most one per column remains).
    public static let maximumSpans = 2000

    /// `points` (pixels, in drawing order) thinned by min/max decimation when there are more than `limit`: within
    /// each run of consecutive points in the same pixel column (`floor(x − left)`, clamped to the `width` columns
    /// of the panel), the first, the lowest, the highest and the last point, each once, in their original order.
    /// The first and last points of the whole series are always kept. At most `limit` points: returns `points`
    /// unchanged.
    public static func minMax(
        _ points: [(x: Double, y: Double)], left: Double, width: Double, limit: Int = maximumPoints
    ) -> [(x: Double, y: Double)] {
        guard points.count > limit else { return points }
        var line = MinMaxLine(left: left, width: width, limit: limit)
        for point in points { line.append(point) }
        return line.points
    }

    /// Coloured spans (`key`, pixel edges `x0` ≤ `x1`, in time order) for a strip of `width` pixels from `left`:
    /// unchanged when there are at most `limit`; otherwise one span per pixel column with the key covering most of
    /// the column (the first such key on a tie), consecutive columns with the same key merged, on whole pixels.
    public static func dominantSpans(
        _ spans: [(key: String, x0: Double, x1: Double)], left: Double, width: Double, limit: Int = maximumSpans
    ) -> [(key: String, x0: Double, x1: Double)] {
        guard spans.count > limit else { return spans }
        var strip = DominantSpans(left: left, width: width, limit: limit)
        for span in spans { strip.append(span) }
        return strip.spans
    }

    /// Shaded intervals (pixel start `x0` and `width`, in time order): unchanged when there are at most `limit`;
    /// otherwise intervals that overlap or touch are merged into one, so that (each being at least a pixel wide)
    /// fewer than one per pixel column remain, and every interval stays covered (a stall of any length stays
    /// visible).
    public static func mergedIntervals(_ intervals: [(x0: Double, width: Double)], limit: Int = maximumSpans)
        -> [(x0: Double, width: Double)]
    {
        guard intervals.count > limit else { return intervals }
        var shading = MergedIntervals(limit: 0)
        for interval in intervals.sorted(by: { $0.x0 < $1.x0 }) { shading.append(interval) }
        return shading.intervals
    }
}

/// ``PlotThinning/minMax(_:left:width:limit:)`` of a line given a point at a time, so that a long series is thinned
/// as it is made and never held whole: the points are kept as they come while there are at most `limit`; the
/// point after that replays them into the per-column scan, which from then on keeps, of the current run of points
/// in one pixel column, only its first, lowest, highest and last. ``points`` is the same list `minMax` gives for
/// all the points appended.
struct MinMaxLine {
    let left: Double
    let lastColumn: Int
    let limit: Int
    /// The points so far while there are at most `limit`; then the points kept of the finished columns.
    private var kept: [(x: Double, y: Double)] = []
    private var thinning = false
    /// The current run: its column, and its first, lowest, highest and last points with their indices.
    private var bucket = 0
    private var first = (index: 0, point: (x: 0.0, y: 0.0))
    private var lowest = (index: 0, point: (x: 0.0, y: 0.0))
    private var highest = (index: 0, point: (x: 0.0, y: 0.0))
    private var last = (index: 0, point: (x: 0.0, y: 0.0))
    private var count = 0

    /// A line over a panel of `width` pixels from `left`, thinned once it has more than `limit` points.
    init(left: Double, width: Double, limit: Int = PlotThinning.maximumPoints) {
        self.left = left
        self.lastColumn = max(Int(width.rounded(.up)) - 1, 0)
        self.limit = limit
    }

    /// The pixel column of `x` (clamped to the panel; 0 when not finite).
    private func column(_ x: Double) -> Int {
        let offset = (x - left).rounded(.down)
        guard offset.isFinite else { return 0 }
        return Int(min(max(offset, 0), Double(lastColumn)))
    }

    /// Adds the next point of the line.
    mutating func append(_ point: (x: Double, y: Double)) {
        if !thinning {
            if kept.count < limit {
                kept.append(point)
                return
            }
            let held = kept
            kept = []
            kept.reserveCapacity(min(held.count + 1, 4 * (lastColumn + 1)))
            thinning = true
            for point in held { scan(point) }
        }
        scan(point)
    }

    private mutating func scan(_ point: (x: Double, y: Double)) {
        let index = count
        count += 1
        let column = column(point.x)
        if index > 0, column == bucket {
            if point.y < lowest.point.y { lowest = (index, point) }
            if point.y > highest.point.y { highest = (index, point) }
            last = (index, point)
            return
        }
        if index > 0 { closeRun() }
        bucket = column
        first = (index, point)
        lowest = first
        highest = first
        last = first
    }

    /// Appends the current run's first, lowest, highest and last points, each once, in their order.
    private mutating func closeRun() {
        let (low, high) = lowest.index <= highest.index ? (lowest, highest) : (highest, lowest)
        var previous = -1
        for entry in [first, low, high, last] where entry.index > previous {
            kept.append(entry.point)
            previous = entry.index
        }
    }

    /// The line's points as drawn: all of them up to `limit`, else the thinned ones.
    var points: [(x: Double, y: Double)] {
        guard thinning else { return kept }
        var copy = self
        copy.closeRun()
        return copy.kept
    }
}

/// ``PlotThinning/dominantSpans(_:left:width:limit:)`` of spans given one at a time: they are kept as they come
/// while there are at most `limit`; beyond, each pixel column's cover per key is summed as the spans come (the
/// held ones first), so a long strip is never held whole. ``spans`` is the list `dominantSpans` gives for all the
/// spans appended.
struct DominantSpans {
    let left: Double
    let columns: Int
    let limit: Int
    private var held: [(key: String, x0: Double, x1: Double)] = []
    private var cover: [[(key: String, pixels: Double)]] = []
    private var merging = false

    /// A strip of `width` pixels from `left`, merged per column once it has more than `limit` spans.
    init(left: Double, width: Double, limit: Int = PlotThinning.maximumSpans) {
        self.left = left
        self.columns = max(Int(width.rounded(.up)), 1)
        self.limit = limit
    }

    /// Adds the next span (pixel edges) of the strip.
    mutating func append(_ span: (key: String, x0: Double, x1: Double)) {
        if !merging {
            if held.count < limit {
                held.append(span)
                return
            }
            merging = true
            cover = [[(key: String, pixels: Double)]](repeating: [], count: columns)
            for span in held { add(span) }
            held = []
        }
        add(span)
    }

    private mutating func add(_ span: (key: String, x0: Double, x1: Double)) {
        let x0 = min(max(span.x0 - left, 0), Double(columns))
        let x1 = min(max(span.x1 - left, x0), Double(columns))
        guard x1 > x0 else { return }
        var column = min(Int(x0), columns - 1)
        while column < columns, Double(column) < x1 {
            let overlap = min(x1, Double(column + 1)) - max(x0, Double(column))
            if overlap > 0 {
                if let slot = cover[column].firstIndex(where: { $0.key == span.key }) {
                    cover[column][slot].pixels += overlap
                } else {
                    cover[column].append((span.key, overlap))
                }
            }
            column += 1
        }
    }

    /// The strip's spans as drawn: all of them up to `limit`, else one per column, equal neighbours merged.
    var spans: [(key: String, x0: Double, x1: Double)] {
        guard merging else { return held }
        var merged: [(key: String, x0: Double, x1: Double)] = []
        for (column, keys) in cover.enumerated() {
            guard var best = keys.first else { continue }
            for candidate in keys.dropFirst() where candidate.pixels > best.pixels { best = candidate }
            let x0 = left + Double(column)
            if let last = merged.last, last.key == best.key, last.x1 == x0 {
                merged[merged.count - 1].x1 = x0 + 1
            } else {
                merged.append((best.key, x0, x0 + 1))
            }
        }
        return merged
    }
}

/// ``PlotThinning/mergedIntervals(_:limit:)`` of intervals given one at a time in order of their start (as a
/// player's stalls come): kept as they come while there are at most `limit`; beyond, intervals that overlap or
/// touch are merged as they come, so at most one per pixel column is held. ``intervals`` is the list
/// `mergedIntervals` gives for all the intervals appended.
struct MergedIntervals {
    let limit: Int
    private var held: [(x0: Double, width: Double)] = []
    private var merged: [(x0: Double, x1: Double)] = []
    private var merging = false

    /// Shading merged once it has more than `limit` intervals.
    init(limit: Int = PlotThinning.maximumSpans) { self.limit = limit }

    /// Adds the next interval; once merging, its start is at or after every earlier one's.
    mutating func append(_ interval: (x0: Double, width: Double)) {
        if !merging {
            if held.count < limit {
                held.append(interval)
                return
            }
            merging = true
            for interval in held.sorted(by: { $0.x0 < $1.x0 }) { merge(interval) }
            held = []
        }
        merge(interval)
    }

    private mutating func merge(_ interval: (x0: Double, width: Double)) {
        let x1 = interval.x0 + interval.width
        if let last = merged.last, interval.x0 <= last.x1 {
            merged[merged.count - 1].x1 = max(last.x1, x1)
        } else {
            merged.append((interval.x0, x1))
        }
    }

    /// The shading as drawn: every interval up to `limit`, else the merged ones.
    var intervals: [(x0: Double, width: Double)] {
        merging ? merged.map { (x0: $0.x0, width: $0.x1 - $0.x0) } : held
    }
}
