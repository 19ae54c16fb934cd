/// Where the panels of a session timeline go (``TimelinePlot``) and their scales: what the drawing needs to know
/// before any series is turned into pixels, so that a run's series can be thinned as they are read
/// (``StreamedRunPlots``) as well as from ``RunPlotData``.
struct TimelineLayout {
    /// Height of each player's keep-up band and state strip.
    static let stripHeight = 30.0
    static let capacityTop = 62.0
    static let capacityHeight = 170.0

    /// Players drawn, and whether there are several.
    let count: Int
    let several: Bool
    /// The time axis's end (the run's end, at least 1 ms), seconds.
    let end: Double
    let xScale: NiceScale
    /// The capacity in Mbit/s, bin by bin.
    let capacityMbps: [Double]
    let capacityPanel: PlotPanel
    /// The stacked shares' panel (of height 0 for one player).
    let sharePanel: PlotPanel
    let bitrateScale: NiceScale
    let bufferScale: NiceScale
    let bitrateHeight: Double
    let bufferHeight: Double
    let bitrateTop: Double
    let bufferTop: Double
    let stripsTop: Double
    /// Height of the drawing.
    let height: Double

    /// The layout of `count` players over [0, `end`] with `capacity` (`capacity.csv`'s rows), the players' highest
    /// requested bitrate (kbit/s) and their highest buffer (seconds, 0 for none).
    init(
        players count: Int, end: Double, capacity: [(time: Double, kbps: Double)], bitrateMaxKbps: Double,
        bufferMax: Double
    ) {
        self.count = count
        several = count > 1
        self.end = end
        let left = TimelinePlot.left
        let width = TimelinePlot.panelWidth
        xScale = NiceScale(minimum: 0, maximum: end, maximumTicks: 11)
        bitrateHeight = TimelinePlot.multipleHeight(players: count, single: 120)
        bufferHeight = TimelinePlot.multipleHeight(players: count, single: 140)
        let shareTop = Self.capacityTop + Self.capacityHeight + 42
        let shareHeight = several ? 90.0 : 0
        bitrateTop = several ? shareTop + shareHeight + 42 : shareTop
        let gap = TimelinePlot.multipleGap
        bufferTop = bitrateTop + (Double(count) * (bitrateHeight + gap) - gap) + 42
        stripsTop = bufferTop + (Double(count) * (bufferHeight + gap) - gap) + 28
        height = stripsTop + Self.stripHeight * Double(count) + 60
        capacityMbps = capacity.map { $0.kbps / 1000 }
        let capacityMax = capacityMbps.filter(\.isFinite).max() ?? 0
        capacityPanel = PlotPanel(
            left: left, top: Self.capacityTop, width: width, height: Self.capacityHeight, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: max(capacityMax, 0.1), maximumTicks: 6),
            yLog: CapacityAxis.logScale(capacityMbps))
        sharePanel = PlotPanel(
            left: left, top: shareTop, width: width, height: shareHeight, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: 1, maximumTicks: 3))
        bitrateScale = NiceScale(
            minimum: 0, maximum: max(bitrateMaxKbps / 1000, 0.1), maximumTicks: several ? 3 : 5)
        bufferScale = NiceScale(minimum: 0, maximum: max(bufferMax, 1), maximumTicks: several ? 3 : 5)
    }

    /// Height of a group of `count` panels of `height` each, with the gaps between them.
    func groupHeight(_ height: Double) -> Double {
        Double(count) * (height + TimelinePlot.multipleGap) - TimelinePlot.multipleGap
    }

    /// The bitrate panel of the player at `position`.
    func bitratePanel(_ position: Int) -> PlotPanel {
        PlotPanel(
            left: TimelinePlot.left, top: bitrateTop + Double(position) * (bitrateHeight + TimelinePlot.multipleGap),
            width: TimelinePlot.panelWidth, height: bitrateHeight, xScale: xScale, yScale: bitrateScale)
    }

    /// The buffer panel of the player at `position`.
    func bufferPanel(_ position: Int) -> PlotPanel {
        PlotPanel(
            left: TimelinePlot.left, top: bufferTop + Double(position) * (bufferHeight + TimelinePlot.multipleGap),
            width: TimelinePlot.panelWidth, height: bufferHeight, xScale: xScale, yScale: bufferScale)
    }
}

/// The players' series of a session timeline in pixels, thinned to the drawing's resolution: all that
/// ``TimelinePlot`` draws of them, made from ``RunPlotData`` or as a run's files are read (``StreamedRunPlots``).
struct TimelineParts {
    /// One player's series.
    struct Player {
        var id: String
        /// Its stalls, shaded (``PlotThinning/mergedIntervals(_:limit:)``).
        var stalls: [(x0: Double, width: Double)] = []
        /// Outline of its share of the capacity, for a drawing of one player (``TimelinePlot/areaPoints(_:panel:end:)``).
        var shareArea: [(x: Double, y: Double)] = []
        /// Its bitrate steps and buffer line, thinned.
        var bitrate: [(x: Double, y: Double)] = []
        var buffer: [(x: Double, y: Double)] = []
        /// Its keep-up band and state strip.
        var keepUp: [(key: String, x0: Double, x1: Double)] = []
        var states: [(key: String, x0: Double, x1: Double)] = []
        /// The states it was in.
        var seenStates: Set<String> = []
    }

    var players: [Player] = []
    /// For several players: the outline of the throughput they use together, and their stacked shares.
    var usedArea: [(x: Double, y: Double)] = []
    var stack: (times: [Double], tops: [[Double]]) = ([], [])
}

/// ``TimelinePlot/stepPoints(_:end:panel:)`` thinned (``MinMaxLine``), given a step at a time: each value holds
/// from its time to the next step's (the last to `end`).
struct StepLine {
    let end: Double
    let xMap: LinearMap
    let yMap: AxisMap
    let bottom: Double
    private var line: MinMaxLine
    private var pending: (time: Double, value: Double)?
    private var firstTime: Double?

    /// A step line in `panel` ending at `end`.
    init(end: Double, panel: PlotPanel) {
        self.end = end
        xMap = panel.x
        yMap = panel.y
        bottom = panel.bottom
        line = MinMaxLine(left: panel.left, width: panel.width)
    }

    /// Adds the next step.
    mutating func append(_ step: (time: Double, value: Double)) {
        if let pending {
            emit(pending, next: step.time)
        } else {
            firstTime = step.time
        }
        pending = step
    }

    private mutating func emit(_ step: (time: Double, value: Double), next: Double) {
        let y = yMap(step.value)
        line.append((xMap(step.time), y))
        line.append((xMap(next), y))
    }

    /// The line's pixels, thinned.
    var points: [(x: Double, y: Double)] {
        var copy = self
        if let last = copy.pending { copy.emit(last, next: max(end, last.time)) }
        return copy.line.points
    }

    /// The line as the outline of an area down to the panel's bottom (empty without steps).
    var area: [(x: Double, y: Double)] {
        guard let firstTime else { return [] }
        var points = self.points
        points.append((points.last!.x, bottom))
        points.append((xMap(firstTime), bottom))
        return points
    }
}
