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
        var stack = ShareStack(players: players.count, end: end, columns: columns)
        for (player, p) in players.enumerated() {
            for row in p.timeline { stack.append(player: player, time: row.time, share: row.linkShare) }
        }
        return stack.result
    }

    /// A share as drawn: a finite value ≥ 0 (anything else as 0).
    static func clean(_ share: Double) -> Double { share.isFinite && share > 0 ? share : 0 }

    /// Draws the stacked bands `stack` (``stack(_:end:columns:)``) in `panel` (y from 0 to 1), in `colours`.
    static func draw(
        _ svg: inout SVGDocument, _ stack: (times: [Double], tops: [[Double]]), end: Double, panel: PlotPanel,
        colours: [String]
    ) {
        let (times, tops) = stack
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

/// ``StackedShares/stack(_:end:columns:)`` of timeline rows given one at a time, each player's in time order (the
/// players' rows may interleave): the rows are kept while there are at most ``PlotThinning/maximumPoints`` of them
/// (for the exact steps), and each player's time-weighted mean share per column is summed as its rows come (a row
/// counts once the player's next row, or the end, closes it), so a long run's rows are never held.
struct ShareStack {
    let count: Int
    let end: Double
    let columns: Int
    private var rows: [(time: Double, player: Int, order: Int, share: Double)] = []
    private var rowCount = 0
    private var orders: [Int]
    private var open: [(time: Double, share: Double)?]
    private var means: [[Double]]
    private let width: Double

    /// A stack of `count` players over [0, `end`] in `columns` pixel columns.
    init(players count: Int, end: Double, columns: Int) {
        self.count = count
        self.end = end
        self.columns = max(columns, 1)
        width = end / Double(max(columns, 1))
        orders = Array(repeating: 0, count: count)
        open = Array(repeating: nil, count: count)
        means = Array(repeating: Array(repeating: 0, count: max(columns, 1)), count: count)
    }

    /// Adds the next timeline row of `player`.
    mutating func append(player: Int, time: Double, share: Double) {
        if rowCount < PlotThinning.maximumPoints {
            rows.append((time, player, orders[player], StackedShares.clean(share)))
        } else if rowCount == PlotThinning.maximumPoints {
            rows = []
        }
        rowCount += 1
        orders[player] += 1
        if let row = open[player] { addMean(player, row, until: min(time, end)) }
        open[player] = (time, share)
    }

    /// Adds a row's share over [its time, `t1`) to the player's column means.
    private mutating func addMean(_ player: Int, _ row: (time: Double, share: Double), until t1: Double) {
        let t0 = max(row.time, 0)
        guard end > 0, t1 > t0 else { return }
        let share = StackedShares.clean(row.share)
        var bin = min(Int(t0 / width), columns - 1)
        while bin < columns, Double(bin) * width < t1 {
            let overlap = min(t1, Double(bin + 1) * width) - max(t0, Double(bin) * width)
            if overlap > 0 { means[player][bin] += share * overlap / width }
            bin += 1
        }
    }

    /// The cumulative shares as steps (see ``StackedShares/stack(_:end:columns:)``).
    var result: (times: [Double], tops: [[Double]]) {
        var times: [Double] = []
        var tops = [[Double]](repeating: [], count: count)
        guard count > 0, end > 0 else { return (times, tops) }
        if rowCount <= PlotThinning.maximumPoints {
            let events = rows.sorted { ($0.time, $0.player, $0.order) < ($1.time, $1.player, $1.order) }
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
        var closed = self
        for player in 0..<count {
            if let row = open[player] { closed.addMean(player, row, until: end) }
        }
        times = (0..<columns).map { Double($0) * width }
        var sums = [Double](repeating: 0, count: columns)
        for player in 0..<count {
            for bin in sums.indices { sums[bin] += closed.means[player][bin] }
            tops[player] = sums
        }
        return (times, tops)
    }
}
