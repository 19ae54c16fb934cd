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
        let lastColumn = max(Int(width.rounded(.up)) - 1, 0)
        let column = { (x: Double) -> Int in
            let offset = (x - left).rounded(.down)
            guard offset.isFinite else { return 0 }
            return Int(min(max(offset, 0), Double(lastColumn)))
        }
        var kept: [(x: Double, y: Double)] = []
        kept.reserveCapacity(min(points.count, 4 * (lastColumn + 1)))
        var start = 0
        while start < points.count {
            let bucket = column(points[start].x)
            var end = start + 1
            var lowest = start
            var highest = start
            while end < points.count, column(points[end].x) == bucket {
                if points[end].y < points[lowest].y { lowest = end }
                if points[end].y > points[highest].y { highest = end }
                end += 1
            }
            var previous = -1
            for index in [start, min(lowest, highest), max(lowest, highest), end - 1] where index > previous {
                kept.append(points[index])
                previous = index
            }
            start = end
        }
        return kept
    }

    /// Coloured spans (`key`, pixel edges `x0` ≤ `x1`, in time order) for a strip of `width` pixels from `left`:
    /// unchanged when there are at most `limit`; otherwise one span per pixel column with the key covering most of
    /// the column (the first such key on a tie), consecutive columns with the same key merged, on whole pixels.
    public static func dominantSpans(
        _ spans: [(key: String, x0: Double, x1: Double)], left: Double, width: Double, limit: Int = maximumSpans
    ) -> [(key: String, x0: Double, x1: Double)] {
        guard spans.count > limit else { return spans }
        let columns = max(Int(width.rounded(.up)), 1)
        var cover = [[(key: String, pixels: Double)]](repeating: [], count: columns)
        for span in spans {
            let x0 = min(max(span.x0 - left, 0), Double(columns))
            let x1 = min(max(span.x1 - left, x0), Double(columns))
            guard x1 > x0 else { continue }
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

    /// Shaded intervals (pixel start `x0` and `width`, in time order): unchanged when there are at most `limit`;
    /// otherwise intervals that overlap or touch are merged into one, so that (each being at least a pixel wide)
    /// fewer than one per pixel column remain, and every interval stays covered (a stall of any length stays
    /// visible).
    public static func mergedIntervals(_ intervals: [(x0: Double, width: Double)], limit: Int = maximumSpans)
        -> [(x0: Double, width: Double)]
    {
        guard intervals.count > limit else { return intervals }
        var merged: [(x0: Double, x1: Double)] = []
        for interval in intervals.sorted(by: { $0.x0 < $1.x0 }) {
            let x1 = interval.x0 + interval.width
            if let last = merged.last, interval.x0 <= last.x1 {
                merged[merged.count - 1].x1 = max(last.x1, x1)
            } else {
                merged.append((interval.x0, x1))
            }
        }
        return merged.map { (x0: $0.x0, width: $0.x1 - $0.x0) }
    }
}
