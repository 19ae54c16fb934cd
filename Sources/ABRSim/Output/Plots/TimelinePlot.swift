/// The session timeline as SVG: panels over one shared time axis, for one player or for every player of a run.
///
/// 1. link capacity (grey area, from `capacity.csv`) and each player's share of it (link_share × capacity),
///    Mbit/s;
/// 2. the chosen bitrate as steps (each request's variant from its request time on), Mbit/s;
/// 3. the forward buffer, media seconds (draining at one second per second while playing between the recorded
///    points, jumping when a segment arrives), with stalls (`buffering`) shaded on panels 1–3;
/// 4. per player, `isPlaybackLikelyToKeepUp` as a band and the playback state as a coloured strip.
///
/// Drawn by `abrsim run` and `abrsim plot` from ``RunPlotData``.
public enum TimelinePlot {
    /// Width of the drawing, pixels.
    static let width = 1100.0
    /// Left edge of the panels (room for tick labels and the y titles).
    static let left = 80.0
    /// Width of the panels (the rest holds the legends).
    static let panelWidth = 800.0

    /// Colours of the playback states in the state strip.
    public static let stateColours: [(state: String, colour: String)] = [
        ("idle", "#eeeeee"), ("loading", Palette.yellow), ("readyToPlay", Palette.reddishPurple),
        ("playing", Palette.bluishGreen), ("paused", Palette.skyBlue), ("buffering", Palette.vermillion),
        ("ended", "#bbbbbb"), ("failed", Palette.black),
    ]

    /// The timeline of `players` (indices into `data.players`) as an SVG document.
    public static func svg(_ data: RunPlotData, players indices: [Int]) -> SVGDocument {
        let players = indices.map { data.players[$0] }
        let end = max(data.endTime, 1e-3)
        let xScale = NiceScale(minimum: 0, maximum: end, maximumTicks: 11)
        let stripsTop = 600.0
        let stripHeight = 30.0
        let height = stripsTop + stripHeight * Double(players.count) + 60
        var svg = SVGDocument(width: width, height: height)
        let names = players.map(\.id).joined(separator: ", ")
        svg.text("\(data.scenario) — session timeline (\(names))", x: left, y: 26, size: 16, bold: true)
        let colours = indices.count == 1 ? [Palette.blue] : indices.map { Palette.series($0) }
        let stallColour = { (position: Int) in indices.count == 1 ? Palette.vermillion : colours[position] }

        // 1. Capacity and share.
        let shares = players.map { shareSeries($0, capacity: data.capacity, end: end) }
        let capacityMax = data.capacity.map(\.kbps).filter(\.isFinite).max() ?? 0
        let throughputPanel = PlotPanel(
            left: left, top: 62, width: panelWidth, height: 170, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: max(capacityMax / 1000, 0.1), maximumTicks: 6))
        throughputPanel.drawAxes(
            &svg, title: "Link capacity and each player's share", yTitle: "Mbit/s", xLabels: false)
        shadeStalls(&svg, players, panel: throughputPanel, colour: stallColour)
        for (position, series) in shares.enumerated() {
            drawArea(&svg, series, panel: throughputPanel, end: end, fill: colours[position], opacity: 0.45)
        }
        let capacitySteps = data.capacity.map { (time: $0.time, value: $0.kbps / 1000) }
        let capacityPoints = thinned(stepPoints(capacitySteps, end: end, panel: throughputPanel), throughputPanel)
        svg.polyline(capacityPoints, stroke: "#555555", width: 0.8)
        throughputPanel.drawFrame(&svg)
        var legend = [PlotLegend.Entry("link capacity", colour: "#555555")]
        for (position, player) in players.enumerated() {
            legend.append(.init("\(player.id) share", colour: colours[position], isLine: false, opacity: 0.45))
        }
        if players.count == 1 {
            legend.append(.init("stall", colour: Palette.vermillion, isLine: false, opacity: 0.25))
        } else {
            for (position, player) in players.enumerated() {
                legend.append(.init("\(player.id) stall", colour: colours[position], isLine: false, opacity: 0.25))
            }
        }
        PlotLegend.draw(&svg, entries: legend, x: throughputPanel.right + 20, y: throughputPanel.top + 12)

        // 2. Bitrate.
        let bitrateMax = players.flatMap { $0.requests.map(\.bitrateKbps) }.max() ?? 0
        let bitratePanel = PlotPanel(
            left: left, top: throughputPanel.bottom + 42, width: panelWidth, height: 120, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: max(bitrateMax / 1000, 0.1), maximumTicks: 5))
        bitratePanel.drawAxes(&svg, title: "Chosen bitrate (variant requested)", yTitle: "Mbit/s", xLabels: false)
        shadeStalls(&svg, players, panel: bitratePanel, colour: stallColour)
        for (position, player) in players.enumerated() {
            let steps = player.requests.map { (time: $0.requestTime, value: $0.bitrateKbps / 1000) }
            let playerEnd = player.timeline.last.map { max($0.time, player.requests.last?.doneTime ?? 0) } ?? end
            let points = thinned(stepPoints(steps, end: playerEnd, panel: bitratePanel), bitratePanel)
            svg.polyline(points, stroke: colours[position], width: 2)
        }
        bitratePanel.drawFrame(&svg)
        PlotLegend.draw(
            &svg, entries: players.enumerated().map { .init($0.element.id, colour: colours[$0.offset]) },
            x: bitratePanel.right + 20, y: bitratePanel.top + 12)

        // 3. Buffer.
        let buffers = players.map { bufferPoints($0) }
        let bufferMax = buffers.flatMap { $0.map(\.value) }.max() ?? 0
        let bufferPanel = PlotPanel(
            left: left, top: bitratePanel.bottom + 42, width: panelWidth, height: 140, xScale: xScale,
            yScale: NiceScale(minimum: 0, maximum: max(bufferMax, 1), maximumTicks: 5))
        bufferPanel.drawAxes(&svg, title: "Forward buffer (stalls shaded)", yTitle: "seconds", xLabels: false)
        shadeStalls(&svg, players, panel: bufferPanel, colour: stallColour)
        for (position, points) in buffers.enumerated() {
            let xMap = bufferPanel.x
            let yMap = bufferPanel.y
            let pixels = thinned(points.map { (xMap($0.time), yMap($0.value)) }, bufferPanel)
            svg.polyline(pixels, stroke: colours[position], width: 1.5)
        }
        bufferPanel.drawFrame(&svg)
        PlotLegend.draw(
            &svg, entries: players.enumerated().map { .init($0.element.id, colour: colours[$0.offset]) },
            x: bufferPanel.right + 20, y: bufferPanel.top + 12)

        // 4. Keep-up band and state strip per player.
        svg.text("Playback state and isPlaybackLikelyToKeepUp", x: left, y: stripsTop - 7, size: 13, bold: true)
        let xMap = throughputPanel.x
        for (position, player) in players.enumerated() {
            let top = stripsTop + Double(position) * stripHeight
            svg.text(player.id, x: left - 6, y: top + 17, size: 12, anchor: "end")
            let keepUp = spans(player.timeline, end: end, key: { $0.likelyToKeepUp ? "1" : "" })
            for span in stripSpans(keepUp, panel: throughputPanel) where !span.key.isEmpty {
                svg.rect(x: span.x0, y: top, width: span.x1 - span.x0, height: 8, fill: Palette.blue)
            }
            for span in stripSpans(spans(player.timeline, end: end, key: \.state), panel: throughputPanel) {
                let colour = stateColours.first { $0.state == span.key }?.colour ?? "#ffffff"
                svg.rect(x: span.x0, y: top + 10, width: span.x1 - span.x0, height: 14, fill: colour)
            }
            svg.rect(x: left, y: top, width: panelWidth, height: 8, fill: "none", stroke: "#cccccc")
        }
        let axisY = stripsTop + stripHeight * Double(players.count)
        for tick in xScale.ticks {
            let px = xMap(tick)
            svg.line(x1: px, y1: axisY - 4, x2: px, y2: axisY, stroke: "#555555")
            svg.text(xScale.label(tick), x: px, y: axisY + 13, size: 12, anchor: "middle")
        }
        svg.line(x1: left, y1: axisY - 4, x2: left + panelWidth, y2: axisY - 4, stroke: "#555555")
        svg.text("time (s)", x: left + panelWidth / 2, y: axisY + 32, size: 12, anchor: "middle")
        var stateLegend = [PlotLegend.Entry("likely to keep up", colour: Palette.blue, isLine: false)]
        let seen = Set(players.flatMap { $0.timeline.map(\.state) })
        for (state, colour) in stateColours where seen.contains(state) {
            stateLegend.append(.init(state, colour: colour, isLine: false))
        }
        PlotLegend.draw(&svg, entries: stateLegend, x: throughputPanel.right + 20, y: stripsTop - 40)
        return svg
    }

    /// The player's throughput share as steps: link_share × capacity (Mbit/s) at every time either changes.
    static func shareSeries(_ player: RunPlotData.Player, capacity: [(time: Double, kbps: Double)], end: Double)
        -> [(time: Double, value: Double)]
    {
        var series: [(time: Double, value: Double)] = []
        var rowIndex = -1
        var capIndex = -1
        let rows = player.timeline
        while true {
            let nextRow = rowIndex + 1 < rows.count ? rows[rowIndex + 1].time : .infinity
            let nextCap = capIndex + 1 < capacity.count ? capacity[capIndex + 1].time : .infinity
            let time = min(nextRow, nextCap)
            guard time.isFinite, time <= end else { break }
            if nextRow == time { rowIndex += 1 }
            if nextCap == time { capIndex += 1 }
            let share = rowIndex >= 0 ? rows[rowIndex].linkShare : 0
            let kbps = capIndex >= 0 ? capacity[capIndex].kbps : 0
            let value = share * kbps / 1000
            if let last = series.last, last.value == value { continue }
            series.append((time, value.isFinite ? value : 0))
        }
        return series
    }

    /// The buffer level as a polyline: recorded rows and segment arrivals, draining linearly (one second per
    /// second, floored at 0) while the last row says `playing`.
    static func bufferPoints(_ player: RunPlotData.Player) -> [(time: Double, value: Double)] {
        var events: [(time: Double, value: Double, playing: Bool?)] = []
        var arrivals = player.requests.filter { !$0.abandoned }.map {
            (time: $0.doneTime, value: $0.bufferAfterSeconds, playing: Bool?.none)
        }
        arrivals.sort { $0.time < $1.time }
        var a = 0
        for row in player.timeline {
            while a < arrivals.count, arrivals[a].time <= row.time {
                events.append(arrivals[a])
                a += 1
            }
            events.append((row.time, row.bufferSeconds, row.timeControlStatus == "playing"))
        }
        events.append(contentsOf: arrivals[a...])
        var points: [(time: Double, value: Double)] = []
        var playing = false
        for event in events {
            if let last = points.last, event.time > last.time {
                if playing {
                    let drained = last.value - (event.time - last.time)
                    if drained < 0 { points.append((last.time + last.value, 0)) }
                    points.append((event.time, max(drained, 0)))
                } else {
                    points.append((event.time, last.value))
                }
            }
            points.append((event.time, event.value))
            if let isPlaying = event.playing { playing = isPlaying }
        }
        return points
    }

    /// Pixels of a step function: each value holds from its time to the next one's (the last to `end`).
    static func stepPoints(_ steps: [(time: Double, value: Double)], end: Double, panel: PlotPanel)
        -> [(x: Double, y: Double)]
    {
        let xMap = panel.x
        let yMap = panel.y
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(steps.count * 2)
        for (index, step) in steps.enumerated() {
            let next = index + 1 < steps.count ? steps[index + 1].time : max(end, step.time)
            let y = yMap(step.value)
            points.append((xMap(step.time), y))
            points.append((xMap(next), y))
        }
        return points
    }

    /// `points` of a line in `panel`, thinned to the panel's pixel columns when there are too many
    /// (``PlotThinning/minMax(_:left:width:limit:)``).
    static func thinned(_ points: [(x: Double, y: Double)], _ panel: PlotPanel) -> [(x: Double, y: Double)] {
        PlotThinning.minMax(points, left: panel.left, width: panel.width)
    }

    /// `spans` (times) as pixel spans of a strip under `panel`'s x axis, merged per pixel column when there are
    /// too many (``PlotThinning/dominantSpans(_:left:width:limit:)``).
    static func stripSpans(_ spans: [(key: String, start: Double, end: Double)], panel: PlotPanel)
        -> [(key: String, x0: Double, x1: Double)]
    {
        let xMap = panel.x
        let pixels = spans.map { (key: $0.key, x0: xMap($0.start), x1: xMap($0.end)) }
        return PlotThinning.dominantSpans(pixels, left: panel.left, width: panel.width)
    }

    /// A step function as a filled area down to 0.
    static func drawArea(
        _ svg: inout SVGDocument, _ steps: [(time: Double, value: Double)], panel: PlotPanel, end: Double,
        fill: String, opacity: Double
    ) {
        guard let first = steps.first else { return }
        var points = thinned(stepPoints(steps, end: end, panel: panel), panel)
        let xMap = panel.x
        points.append((points.last!.x, panel.bottom))
        points.append((xMap(first.time), panel.bottom))
        svg.polygon(points, fill: fill, opacity: opacity)
    }

    /// Runs of consecutive rows with the same `key`, each from its first row's time to the next run's (the last
    /// to `end`).
    static func spans(_ rows: [RunPlotData.TimelineRow], end: Double, key: (RunPlotData.TimelineRow) -> String)
        -> [(key: String, start: Double, end: Double)]
    {
        var spans: [(key: String, start: Double, end: Double)] = []
        for row in rows {
            let value = key(row)
            if let last = spans.last, last.key == value { continue }
            if !spans.isEmpty { spans[spans.count - 1].end = row.time }
            spans.append((value, row.time, max(end, row.time)))
        }
        return spans
    }

    /// Shades the spans each player spends in `buffering` (stalls and refills after seeks).
    static func shadeStalls(
        _ svg: inout SVGDocument, _ players: [RunPlotData.Player], panel: PlotPanel, colour: (Int) -> String
    ) {
        let xMap = panel.x
        for (position, player) in players.enumerated() {
            let rows = player.timeline
            var intervals: [(x0: Double, width: Double)] = []
            var index = 0
            while index < rows.count {
                guard rows[index].state == "buffering" else {
                    index += 1
                    continue
                }
                let start = rows[index].time
                while index < rows.count, rows[index].state == "buffering" { index += 1 }
                let stop = index < rows.count ? rows[index].time : start
                let x0 = xMap(start)
                intervals.append((x0, max(xMap(stop) - x0, 1)))
            }
            for interval in PlotThinning.mergedIntervals(intervals) {
                svg.rect(
                    x: interval.x0, y: panel.top, width: interval.width, height: panel.height,
                    fill: colour(position), opacity: 0.25)
            }
        }
    }
}
