/// The players' `link_share` stacked in one panel (player 1 at the bottom, each in its own band), and the sum of
/// step series, for the session timeline of several players (``TimelinePlot``).
///
/// Exact steps while the players have at most ``PlotThinning/maximumPoints`` timeline rows together; beyond that,
/// each player's time-weighted mean share per pixel column (so a long run's bands stay bounded in size and still
/// sum to what the players held).
enum StackedShares {
    /// The cumulative shares as steps: `tops[p][k]` is the sum of players 0…p's shares from `times[k]` to the
    /// next time (the last to `end`).
    static func stack(_ players: [RunPlotData.Player], end: Double, columns: Int) -> (times: [Double], tops: [[Double]])
    {
        let count = players.count
        let rowCount = players.reduce(0) { $0 + $1.timeline.count }
        var times: [Double] = []
        var tops = [[Double]](repeating: [], count: count)
        guard count > 0, end > 0 else { return (times, tops) }
        if rowCount <= PlotThinning.maximumPoints {
            var events: [(time: Double, player: Int, order: Int, share: Double)] = []
            events.reserveCapacity(rowCount)
            for (player, p) in players.enumerated() {
                for (order, row) in p.timeline.enumerated() {
                    events.append((row.time, player, order, clean(row.linkShare)))
                }
            }
            events.sort { ($0.time, $0.player, $0.order) < ($1.time, $1.player, $1.order) }
            var current = [Double](repeating: 0, count: count)
            var index = 0
            while index < events.count {
                let time = events[index].time
                while index < events.count, events[index].time == time {
                    current[events[index].player] = events[index].share
                    index += 1
                }
                times.append(time)
                var sum = 0.0
                for player in 0..<count {
                    sum += current[player]
                    tops[player].append(sum)
                }
            }
            return (times, tops)
        }
        let width = end / Double(max(columns, 1))
        times = (0..<max(columns, 1)).map { Double($0) * width }
        var sums = [Double](repeating: 0, count: times.count)
        for (player, p) in players.enumerated() {
            var means = [Double](repeating: 0, count: times.count)
            for (index, row) in p.timeline.enumerated() {
                let t0 = max(row.time, 0)
                let t1 = min(index + 1 < p.timeline.count ? p.timeline[index + 1].time : end, end)
                guard t1 > t0 else { continue }
                let share = clean(row.linkShare)
                var bin = min(Int(t0 / width), times.count - 1)
                while bin < times.count, Double(bin) * width < t1 {
                    let overlap = min(t1, Double(bin + 1) * width) - max(t0, Double(bin) * width)
                    if overlap > 0 { means[bin] += share * overlap / width }
                    bin += 1
                }
            }
            for bin in sums.indices { sums[bin] += means[bin] }
            tops[player] = sums
        }
        return (times, tops)
    }

    /// A share as drawn: a finite value ≥ 0 (anything else as 0).
    static func clean(_ share: Double) -> Double { share.isFinite && share > 0 ? share : 0 }

    /// Draws the stacked bands of `players` in `panel` (y from 0 to 1), in `colours`.
    static func draw(
        _ svg: inout SVGDocument, _ players: [RunPlotData.Player], end: Double, panel: PlotPanel, colours: [String]
    ) {
        let (times, tops) = stack(players, end: end, columns: Int(panel.width))
        guard !times.isEmpty else { return }
        let xMap = panel.x
        var below = [(x: Double, y: Double)]([(xMap(times[0]), panel.bottom), (xMap(end), panel.bottom)])
        for (player, top) in tops.enumerated() {
            let steps = zip(times, top).map { (time: $0, value: $1) }
            let upper = TimelinePlot.thinned(TimelinePlot.stepPoints(steps, end: end, panel: panel), panel)
            svg.polygon(upper + below.reversed(), fill: colours[player], opacity: 0.8)
            below = upper
        }
    }

    /// The sum of step series (each value holding from its time to the next), as steps at every time any changes.
    static func total(_ series: [[(time: Double, value: Double)]], end: Double) -> [(time: Double, value: Double)] {
        var events: [(time: Double, series: Int, order: Int, value: Double)] = []
        for (index, steps) in series.enumerated() {
            for (order, step) in steps.enumerated() { events.append((step.time, index, order, step.value)) }
        }
        events.sort { ($0.time, $0.series, $0.order) < ($1.time, $1.series, $1.order) }
        var current = [Double](repeating: 0, count: series.count)
        var total: [(time: Double, value: Double)] = []
        var index = 0
        while index < events.count {
            let time = events[index].time
            while index < events.count, events[index].time == time {
                current[events[index].series] = events[index].value.isFinite ? events[index].value : 0
                index += 1
            }
            let sum = current.reduce(0, +)
            if total.last?.value != sum { total.append((time, sum)) }
        }
        return total
    }
}
