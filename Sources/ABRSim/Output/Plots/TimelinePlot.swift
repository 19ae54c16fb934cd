/// The session timeline as SVG: panels over one shared time axis, for one player or for every player of a run.
///
/// 1. link capacity (from `capacity.csv`, on a logarithmic axis when it spans more than ten times, see
///    ``CapacityAxis``) with the player's share of it (link_share × capacity) or, for several players, the
///    throughput they use together, Mbit/s;
/// 2. for several players, each one's `link_share` stacked (every player its own band, so players with the same
///    settings stay apart);
/// 3. the chosen bitrate as steps (each request's variant from its request time on), Mbit/s;
/// 4. the forward buffer, media seconds (draining at one second per second while playing between the recorded
///    points, jumping when a segment arrives);
/// 5. per player, `isPlaybackLikelyToKeepUp` as a band and the playback state as a coloured strip.
///
/// With several players, panels 3 and 4 are small multiples: one panel per player on a common scale, labelled
/// with the player's id, so no player's line hides another's. Stalls (`buffering`) are shaded in the player's
/// panels; the network's stretch boundaries (dashed) and outages (grey) are marked on every time panel, from
/// `stretches.csv` and the zero bins of `capacity.csv`. Drawn by `abrsim run` and `abrsim plot` from
/// ``RunPlotData``.
public enum TimelinePlot {
    /// Width of the drawing, pixels.
    static let width = 1100.0
    /// Left edge of the panels (room for tick labels and the y titles).
    static let left = 80.0
    /// Width of the panels (the rest holds the legends).
    static let panelWidth = 800.0
    /// Vertical gap between the small panels of one player each.
    static let multipleGap = 14.0

    /// Colours of the playback states in the state strip.
    public static let stateColours: [(state: String, colour: String)] = [
        ("idle", "#eeeeee"), ("loading", Palette.yellow), ("readyToPlay", Palette.reddishPurple),
        ("playing", Palette.bluishGreen), ("paused", Palette.skyBlue), ("buffering", Palette.vermillion),
        ("ended", "#bbbbbb"), ("failed", Palette.black),
    ]

    /// Height of each player's bitrate and buffer panel for `count` players: one tall panel for one player, else
    /// between 34 and 70 pixels so that a group stays about 260 pixels high.
    static func multipleHeight(players count: Int, single: Double) -> Double {
        count == 1 ? single : max(34, min(70, 260 / Double(count)))
    }

    /// The timeline of `players` (indices into `data.players`) as an SVG document.
    public static func svg(_ data: RunPlotData, players indices: [Int]) -> SVGDocument {
        let players = indices.map { data.players[$0] }
        let buffers = players.map { bufferPoints($0) }
        let layout = TimelineLayout(
            players: players.count, end: max(data.endTime, 1e-3), capacity: data.capacity,
            bitrateMaxKbps: players.flatMap { $0.requests.map(\.bitrateKbps) }.max() ?? 0,
            bufferMax: buffers.flatMap { $0.map(\.value) }.max() ?? 0)
        let end = layout.end
        let shares = players.map { shareSeries($0, capacity: data.capacity, end: end) }
        var parts = TimelineParts()
        for (position, player) in players.enumerated() {
            let steps = player.requests.map { (time: $0.requestTime, value: $0.bitrateKbps / 1000) }
            let playerEnd = player.timeline.last.map { max($0.time, player.requests.last?.doneTime ?? 0) } ?? end
            let bitratePanel = layout.bitratePanel(position)
            let bufferPanel = layout.bufferPanel(position)
            let xMap = bufferPanel.x
            let yMap = bufferPanel.y
            parts.players.append(
                TimelineParts.Player(
                    id: player.id, stalls: stallIntervals(player, panel: layout.capacityPanel),
                    shareArea: layout.several
                        ? [] : areaPoints(shares[position], panel: layout.capacityPanel, end: end),
                    bitrate: thinned(stepPoints(steps, end: playerEnd, panel: bitratePanel), bitratePanel),
                    buffer: thinned(buffers[position].map { (xMap($0.time), yMap($0.value)) }, bufferPanel),
                    keepUp: stripSpans(
                        spans(player.timeline, end: end, key: { $0.likelyToKeepUp ? "1" : "" }),
                        panel: layout.capacityPanel),
                    states: stripSpans(spans(player.timeline, end: end, key: \.state), panel: layout.capacityPanel),
                    seenStates: Set(player.timeline.map(\.state))))
        }
        if layout.several {
            parts.usedArea = areaPoints(StackedShares.total(shares, end: end), panel: layout.capacityPanel, end: end)
            parts.stack = StackedShares.stack(players, end: end, columns: Int(layout.sharePanel.width))
        }
        return svg(data, layout: layout, parts: parts, colours: indices.map { Palette.series($0) })
    }

    /// The timeline drawn from its `parts` (thinned to the drawing's resolution) laid out by `layout`: the
    /// network's marks and capacity from `data` (whose players are not read), the players' series from `parts`,
    /// `colours` the players' when there are several.
    static func svg(_ data: RunPlotData, layout: TimelineLayout, parts: TimelineParts, colours seriesColours: [String])
        -> SVGDocument
    {
        let players = parts.players
        let several = layout.several
        let end = layout.end
        let xScale = layout.xScale
        let marks = TimelineMarks(data, end: end)
        let groupHeight = layout.groupHeight
        var svg = SVGDocument(width: width, height: layout.height)
        let names = players.map(\.id).joined(separator: ", ")
        svg.text("\(data.scenario) — session timeline (\(names))", x: left, y: 26, size: 16, bold: true)
        let colours = several ? seriesColours : [Palette.blue]
        let stallColour = { (position: Int) in several ? colours[position] : Palette.vermillion }

        // 1. Capacity and share.
        let capacityPanel = layout.capacityPanel
        let capacityTitle =
            several ? "Link capacity and the players' throughput" : "Link capacity and the player's share"
        capacityPanel.drawAxes(
            &svg, title: capacityTitle + (capacityPanel.yLog == nil ? "" : " (log scale)"), yTitle: "Mbit/s",
            xLabels: false)
        marks.draw(&svg, panel: capacityPanel, labels: true)
        if !several { shadeStalls(&svg, players[0].stalls, panel: capacityPanel, colour: Palette.vermillion) }
        if several {
            drawArea(&svg, parts.usedArea, fill: Palette.skyBlue, opacity: 0.45)
        } else {
            drawArea(&svg, players[0].shareArea, fill: colours[0], opacity: 0.45)
        }
        let capacitySteps = zip(data.capacity, layout.capacityMbps).map { (time: $0.time, value: $1) }
        let capacityPoints = thinned(stepPoints(capacitySteps, end: end, panel: capacityPanel), capacityPanel)
        svg.polyline(capacityPoints, stroke: "#555555", width: 0.8)
        capacityPanel.drawFrame(&svg)
        var legend = [PlotLegend.Entry("link capacity", colour: "#555555")]
        if several {
            legend.append(.init("used by all players", colour: Palette.skyBlue, isLine: false, opacity: 0.45))
        } else {
            legend.append(.init("\(players[0].id) share", colour: colours[0], isLine: false, opacity: 0.45))
            legend.append(.init("stall", colour: Palette.vermillion, isLine: false, opacity: 0.25))
        }
        legend += marks.legend
        PlotLegend.draw(&svg, entries: legend, x: capacityPanel.right + 20, y: capacityPanel.top + 12)

        // 2. Stacked link shares.
        if several {
            let sharePanel = layout.sharePanel
            sharePanel.drawAxes(&svg, title: "Share of the link (link_share, stacked)", yTitle: "share", xLabels: false)
            marks.draw(&svg, panel: sharePanel, labels: false)
            StackedShares.draw(&svg, parts.stack, end: end, panel: sharePanel, colours: colours)
            sharePanel.drawFrame(&svg)
            PlotLegend.draw(
                &svg,
                entries: players.indices.reversed().map {
                    .init(players[$0].id, colour: colours[$0], isLine: false, opacity: 0.8)
                }, x: sharePanel.right + 20, y: sharePanel.top + 12)
        }

        // 3. Bitrate, one panel per player.
        let bitrateTitle = "Chosen bitrate (variant requested)" + (several ? ", one panel per player" : "")
        for (position, player) in players.enumerated() {
            let panel = layout.bitratePanel(position)
            panel.drawAxes(&svg, title: position == 0 ? bitrateTitle : "", xLabels: false)
            marks.draw(&svg, panel: panel, labels: false)
            shadeStalls(&svg, player.stalls, panel: panel, colour: stallColour(position))
            svg.polyline(player.bitrate, stroke: colours[position], width: 2)
            panel.drawFrame(&svg)
            drawPlayerLabel(&svg, player.id, panel: panel, colour: colours[position], several: several)
        }
        drawGroupTitle(&svg, "Mbit/s", top: layout.bitrateTop, height: groupHeight(layout.bitrateHeight))

        // 4. Buffer, one panel per player.
        let bufferTitle = "Forward buffer (stalls shaded)" + (several ? ", one panel per player" : "")
        for (position, player) in players.enumerated() {
            let panel = layout.bufferPanel(position)
            panel.drawAxes(&svg, title: position == 0 ? bufferTitle : "", xLabels: false)
            marks.draw(&svg, panel: panel, labels: false)
            shadeStalls(&svg, player.stalls, panel: panel, colour: stallColour(position))
            svg.polyline(player.buffer, stroke: colours[position], width: 1.5)
            panel.drawFrame(&svg)
            drawPlayerLabel(&svg, player.id, panel: panel, colour: colours[position], several: several)
        }
        drawGroupTitle(&svg, "seconds", top: layout.bufferTop, height: groupHeight(layout.bufferHeight))

        // 5. Keep-up band and state strip per player.
        let stripsTop = layout.stripsTop
        let stripHeight = TimelineLayout.stripHeight
        svg.text("Playback state and isPlaybackLikelyToKeepUp", x: left, y: stripsTop - 7, size: 13, bold: true)
        let xMap = capacityPanel.x
        for (position, player) in players.enumerated() {
            let top = stripsTop + Double(position) * stripHeight
            svg.text(player.id, x: left - 6, y: top + 17, size: 12, anchor: "end")
            for span in player.keepUp where !span.key.isEmpty {
                svg.rect(x: span.x0, y: top, width: span.x1 - span.x0, height: 8, fill: Palette.blue)
            }
            for span in player.states {
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
        let seen = players.reduce(into: Set<String>()) { $0.formUnion($1.seenStates) }
        for (state, colour) in stateColours where seen.contains(state) {
            stateLegend.append(.init(state, colour: colour, isLine: false))
        }
        PlotLegend.draw(&svg, entries: stateLegend, x: capacityPanel.right + 20, y: stripsTop + 4)
        return svg
    }

    /// The player's id beside its panel (bold, in its colour) — a direct label in place of a legend.
    static func drawPlayerLabel(_ svg: inout SVGDocument, _ id: String, panel: PlotPanel, colour: String, several: Bool)
    {
        svg.text(
            id, x: panel.right + 10, y: panel.top + min(panel.height / 2, 18) + 4, size: 12, fill: colour, bold: true,
            role: several ? "player-label" : nil)
    }

    /// A y title rotated along the left edge of a group of panels from `top`, `height` pixels high.
    static func drawGroupTitle(_ svg: inout SVGDocument, _ title: String, top: Double, height: Double) {
        svg.text(title, x: left - 48, y: top + height / 2, size: 12, anchor: "middle", rotation: -90)
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
        var line = BufferPoints()
        var points: [(time: Double, value: Double)] = []
        for event in events { line.event(event, into: &points) }
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

    /// A step function as the outline of a filled area down to 0: its thinned pixels, then down to the bottom
    /// and back to the first step's time (empty without steps).
    static func areaPoints(_ steps: [(time: Double, value: Double)], panel: PlotPanel, end: Double)
        -> [(x: Double, y: Double)]
    {
        var line = StepLine(end: end, panel: panel)
        for step in steps { line.append(step) }
        return line.area
    }

    /// An area outline of ``areaPoints(_:panel:end:)`` filled (nothing when empty).
    static func drawArea(_ svg: inout SVGDocument, _ points: [(x: Double, y: Double)], fill: String, opacity: Double) {
        guard !points.isEmpty else { return }
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

    /// The spans `player` spends in `buffering` (stalls and refills after seeks) as shaded pixel intervals under
    /// `panel`'s x axis, merged when there are too many (``PlotThinning/mergedIntervals(_:limit:)``).
    static func stallIntervals(_ player: RunPlotData.Player, panel: PlotPanel) -> [(x0: Double, width: Double)] {
        let xMap = panel.x
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
        return PlotThinning.mergedIntervals(intervals)
    }

    /// Shades `intervals` (from ``stallIntervals(_:panel:)``) over the height of `panel`.
    static func shadeStalls(
        _ svg: inout SVGDocument, _ intervals: [(x0: Double, width: Double)], panel: PlotPanel, colour: String
    ) {
        for interval in intervals {
            svg.rect(
                x: interval.x0, y: panel.top, width: interval.width, height: panel.height, fill: colour, opacity: 0.25,
                role: "stall")
        }
    }
}
