import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("plot layout")
struct PlotLayoutTests {
    @Test("the capacity axis is logarithmic exactly when the nonzero bins span more than ten times, with decade ticks")
    func theCapacityAxisIsLogarithmicExactlyWhenTheBinsSpanMoreThanTenTimes() {
        // Largest over the 1st percentile of the nonzero bins: 10 × is linear, just above is logarithmic.
        #expect(CapacityAxis.logScale([1, 10]) == nil)
        #expect(CapacityAxis.logScale([1, 10.01]) == LogScale(minimum: 1, maximum: 10.01))
        // Zeros (outages) do not count: 2…10 is 5 ×.
        #expect(CapacityAxis.logScale([0, 0, 2, 10]) == nil)
        // A couple of bins cut by an outage's edge (0.01) among 200 bins of 5 and one of 50 do not decide it:
        // the 1st percentile of the 203 nonzero bins is the third smallest, 5, and 50 / 5 = 10.
        let edges = [0.01, 0.02] + [Double](repeating: 5, count: 200) + [50]
        #expect(CapacityAxis.logScale(edges) == nil)
        #expect(CapacityAxis.logScale(edges + [50.5]) != nil)
        #expect(CapacityAxis.logScale([]) == nil)

        // WiFi 48 Mbit/s down to 3G 0.35: decades 0.1…100, ticks at the decades only (three decades).
        let walk = LogScale(minimum: 0.35, maximum: 48)
        #expect(walk.lower == 0.1 && walk.upper == 100)
        #expect(walk.ticks == [0.1, 1, 10, 100])
        #expect(walk.ticks.map(walk.label) == ["0.1", "1", "10", "100"])
        // Two decades get 2 and 5 in between; a range beyond four decades is clipped at the bottom.
        #expect(
            LogScale(minimum: 0.5, maximum: 8).ticks.map { ($0 * 10).rounded() / 10 } == [0.1, 0.2, 0.5, 1, 2, 5, 10])
        #expect(LogScale(minimum: 1e-6, maximum: 100).lower == 0.01)
        // The map: 1 on a 0.1…100 axis from pixel 200 up to 0 is a third of the way; 0 and below sit at 200.
        let map = AxisMap(domainLower: 0.1, domainUpper: 100, pixelStart: 200, pixelEnd: 0, logarithmic: true)
        #expect(abs(map(1) - 200 * 2 / 3) < 1e-9)
        #expect(map(0) == 200 && map(-1) == 200 && map(1e9) == 0)
    }

    @Test("plotted stretches loop, hold or end as the network does, and a looping day is capped")
    func stretchesRepeatHoldOrEndAsTheNetworkDoes() {
        let starts = [0.0, 10, 12]
        let labels = ["a.down", "outage", "b"]
        func rows(_ atEnd: TraceEndBehavior, _ end: Double) -> [String] {
            StretchTable.rows(starts: starts, labels: labels, duration: 20, atEnd: atEnd, end: end).map {
                "\($0.index):\($0.label):\(svgNumber($0.start))-\(svgNumber($0.end))"
            }
        }
        #expect(rows(.hold, 35) == ["0:a.down:0-10", "1:outage:10-12", "2:b:12-35"])
        #expect(
            rows(.loop, 35) == [
                "0:a.down:0-10", "1:outage:10-12", "2:b:12-20", "0:a.down:20-30", "1:outage:30-32", "2:b:32-35",
            ])
        #expect(rows(.end, 25) == ["0:a.down:0-10", "1:outage:10-12", "2:b:12-20", "-1:outage:20-25"])
        #expect(rows(.hold, 11) == ["0:a.down:0-10", "1:outage:10-11"])
        let csv = String(
            decoding: StretchTable.csv(
                StretchTable.rows(
                    starts: starts, labels: labels, duration: 20, atEnd: .hold, end: 11)), as: UTF8.self)
        #expect(csv == "stretch,label,start_s,end_s\n0,a.down,0,10\n1,outage,10,11\n")
        // A short trace looping through a day is capped.
        #expect(
            StretchTable.rows(starts: [0], labels: ["t"], duration: 1, atEnd: .loop, end: 86_400).count
                == StretchTable.maximumRows)
    }

    /// A run of `players` on a link of 20 Mbit/s for 100 s, an outage 100–110 s, then 0.5 Mbit/s, to 300 s.
    func syntheticRun(players: [String]) -> RunPlotData {
        var capacity: [(time: Double, kbps: Double)] = []
        for bin in 0..<300 {
            let t = Double(bin)
            capacity.append((t, t < 100 ? 20_000 : t < 110 ? 0 : 500))
        }
        capacity.append((300, 500))
        let row = { (t: Double, state: String, buffer: Double, share: Double) in
            RunPlotData.TimelineRow(
                time: t, state: state, timeControlStatus: state == "playing" ? "playing" : "paused",
                bufferSeconds: buffer, linkShare: share, likelyToKeepUp: state == "playing")
        }
        let list = players.map { id in
            RunPlotData.Player(
                id: id, policy: "throughput",
                timeline: [
                    row(0, "loading", 0, 1 / Double(players.count)), row(2, "playing", 4, 1 / Double(players.count)),
                    row(120, "buffering", 0, 1 / Double(players.count)), row(130, "playing", 6, 0.1),
                    row(300, "ended", 0, 0),
                ],
                requests: (0..<50).map {
                    .init(
                        requestTime: Double($0) * 6, doneTime: Double($0) * 6 + 1, bitrateKbps: $0 < 17 ? 3000 : 300,
                        bufferAfterSeconds: 10, abandoned: false)
                })
        }
        var data = RunPlotData(
            scenario: "synthetic", players: list, capacity: capacity,
            summary: CSVTable(columns: ["player"], rows: players.map { [$0] }))
        data.stretches = [
            .init(index: 0, label: "fast.down", start: 0, end: 100),
            .init(index: 1, label: "outage", start: 100, end: 110),
            .init(index: 2, label: "slow", start: 110, end: 300),
        ]
        return data
    }

    @Test("stretch boundaries and outages are drawn at their times on every time panel, labels on the capacity panel")
    func stretchBoundariesAndOutagesAreMarkedAtTheirTimesOnEveryTimePanel() {
        let data = syntheticRun(players: ["main", "tile1", "tile2"])
        let svg = SVGElements(TimelinePlot.svg(data, players: [0, 1, 2]).text)
        #expect(svg.strayCoordinates == [])
        // Time axis 0…300 over pixels 80…880: 100 s is x = 346.67, 110 s is x = 373.33.
        let boundaries = svg.role("stretch-boundary")
        // Capacity, shares, three bitrate and three buffer panels: eight time panels, two boundaries each.
        #expect(boundaries.count == 16)
        #expect(Set(boundaries.compactMap { $0.number("x1") }) == [346.67, 373.33])
        #expect(boundaries.allSatisfy { $0.number("x1") == $0.number("x2") })
        let outages = svg.role("outage")
        #expect(outages.count == 8)
        #expect(outages.allSatisfy { $0.number("x") == 346.67 && $0.number("width") == 26.67 })
        // Stretch labels on the capacity panel only, each inside its stretch.
        #expect(svg.role("stretch-label").map(\.text) == ["fast.down", "slow"])
        #expect(svg.role("stretch-label").map { $0.number("x") } == [84, 377.33])
        // 20 → 0.5 Mbit/s is 40 ×: a logarithmic capacity axis, 0.1…100.
        #expect(svg.elements.contains { $0.name == "text" && $0.text.hasSuffix("(log scale)") })
        #expect(svg.elements.contains { $0.name == "text" && $0.text == "0.1" })
    }

    @Test("a steady link with an outage and one edge bin keeps a linear capacity axis")
    func aSteadyLinkWithAnOutageKeepsALinearAxis() {
        var data = syntheticRun(players: ["main"])
        data.capacity = data.capacity.map { ($0.time, $0.kbps == 0 ? 0 : 4000) }
        // One bin cut by the outage's edge at a tenth of the rate does not make it logarithmic.
        data.capacity[99].kbps = 400
        let svg = SVGElements(TimelinePlot.svg(data, players: [0]).text)
        #expect(!svg.elements.contains { $0.text.hasSuffix("(log scale)") })
        #expect(svg.strayCoordinates == [])
        #expect(svg.role("outage").count == 3)
    }

    @Test("each player gets labelled panels in a band of its own and its own band of the stacked link shares")
    func everyPlayerGetsItsOwnPanelsAndItsOwnBandOfTheLink() {
        let ids = ["main", "tile1", "tile2", "tile3"]
        let data = syntheticRun(players: ids)
        let svg = SVGElements(TimelinePlot.svg(data, players: [0, 1, 2, 3]).text)
        #expect(svg.strayCoordinates == [])
        // A direct label beside each player's bitrate and buffer panel.
        let labels = svg.role("player-label")
        #expect(labels.map(\.text) == ids + ids)
        // The players' bitrate and buffer lines (identical data) lie in disjoint horizontal bands.
        var bands: [(player: Int, low: Double, high: Double)] = []
        for element in svg.elements where element.name == "polyline" {
            guard let stroke = element.attributes["stroke"],
                let player = (0..<4).first(where: { Palette.series($0) == stroke })
            else { continue }
            let ys = element.attributes["points"]!.split(separator: " ").map { Double($0.split(separator: ",")[1])! }
            bands.append((player, ys.min()!, ys.max()!))
        }
        #expect(bands.count == 8)
        for (i, a) in bands.enumerated() {
            for b in bands[(i + 1)...] {
                #expect(a.high < b.low || b.high < a.low, "players \(a.player) and \(b.player) overlap")
            }
        }
        // The stacked shares: a band per player, each 1/4 of the link at first (its polygon's first point is
        // (i + 1)/4 up the 90-pixel share panel).
        let bandsOfTheLink = svg.elements.filter { $0.name == "polygon" && $0.attributes["fill-opacity"] == "0.8" }
        #expect(bandsOfTheLink.map { $0.attributes["fill"] } == (0..<4).map { Palette.series($0) })
    }

    @Test("stacked shares sum the players' link shares at every change")
    func stackedSharesSumThePlayersAtEveryChange() {
        let row = { (t: Double, share: Double) in
            RunPlotData.TimelineRow(
                time: t, state: "playing", timeControlStatus: "playing", bufferSeconds: 0, linkShare: share,
                likelyToKeepUp: true)
        }
        let a = RunPlotData.Player(id: "a", policy: "x", timeline: [row(0, 0.5), row(10, 1)], requests: [])
        let b = RunPlotData.Player(
            id: "b", policy: "x", timeline: [row(0, 0.5), row(5, 0.25), row(10, 0)], requests: [])
        let (times, tops) = StackedShares.stack([a, b], end: 20, columns: 800)
        #expect(times == [0, 5, 10])
        #expect(tops[0] == [0.5, 0.5, 1])
        #expect(tops[1] == [1, 0.75, 1])
        #expect(
            StackedShares.total([[(0, 1), (4, 2)], [(2, 3)]], end: 10).map(\.value) == [1, 4, 5])
    }

    /// Text boxes of the `category-label` elements, by a conservative width estimate (0.65 em per character).
    func labelBoxes(_ svg: SVGElements) -> [(text: String, x0: Double, x1: Double, y0: Double, y1: Double)] {
        svg.role("category-label").map { element in
            let size = element.number("font-size")!
            let x = element.number("x")!
            let y = element.number("y")!
            let width = Double(element.text.count) * size * 0.65
            return (element.text, x - width, x, y - size, y + 0.25 * size)
        }
    }

    @Test("bar and difference plot labels are whole, distinct, inside the picture and never overlap")
    func barLabelsAreWholeDistinctAndDoNotOverlap() {
        var samples = ComparisonSamples(metrics: ["qoe_lin"])
        let policies = [
            "bba(reservoir=5,cushion=10)", "bba(reservoir=5,cushion=30)", "bba(reservoir=10,cushion=10)",
            "bba(reservoir=10,cushion=30)", "bba(reservoir=15,cushion=10)", "throughput",
            "external(command=python3 scenarios/policies/bba.py --reservoir 5,name=mine)",
        ]
        for (index, policy) in policies.enumerated() {
            for trace in ["t1", "t2", "t3"] {
                samples.add(policy: policy, trace: trace) { _ in Double(index) * 10 + Double(trace.count) }
            }
        }
        for svgText in [
            BarPlot.svg(samples, metric: "qoe_lin", title: "QoE").text,
            DifferencePlot.svg(samples, metric: "qoe_lin", title: "QoE", baseline: "throughput").text,
        ] {
            let svg = SVGElements(svgText)
            #expect(svg.strayCoordinates == [])
            let boxes = labelBoxes(svg)
            for (i, a) in boxes.enumerated() {
                #expect(a.x0 >= 0, "'\(a.text)' is cut at the left edge")
                for b in boxes[(i + 1)...] {
                    let apart = a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0
                    #expect(apart, "'\(a.text)' overlaps '\(b.text)'")
                }
            }
            // Every label is there in full (lines of one label read in order), so no two read the same.
            var lines = boxes.map(\.text)
            var rebuilt: [String] = []
            let expected = svgText.contains("Paired difference") ? policies.filter { $0 != "throughput" } : policies
            for policy in expected {
                var label = ""
                while label.count < policy.count, !lines.isEmpty { label += lines.removeFirst() }
                rebuilt.append(label)
            }
            #expect(rebuilt == expected)
            #expect(lines.isEmpty)
        }
        #expect(CategoryChart.wrap(policies[6]).count == 3)
        #expect(CategoryChart.wrap(policies[6]).allSatisfy { $0.count <= CategoryChart.lineCharacters })
    }

    @Test("the difference plot and its table show the paired mean and its Student interval, n/a for one trace")
    func pairedDifferencesShowTheMeanAndItsStudentInterval() {
        // b − a per trace, paired by trace (b's runs in another order): 1, 2, 4. Mean 7/3; sd = √(7/3) (the
        // squared deviations 16/9, 1/9, 25/9 sum to 42/9, over n − 1 = 2); t(0.975, 2) = 4.302653;
        // half-width = 4.302653 × √(7/3) / √3 = 3.79464.
        var samples = ComparisonSamples(metrics: ["qoe_lin"])
        for (trace, value) in [("t1", 1.0), ("t2", 2.0), ("t3", 3.0)] {
            samples.add(policy: "a", trace: trace) { _ in value }
        }
        for (trace, value) in [("t3", 7.0), ("t1", 2.0), ("t2", 4.0)] {
            samples.add(policy: "b", trace: trace) { _ in value }
        }
        let svg = SVGElements(DifferencePlot.svg(samples, metric: "qoe_lin", title: "QoE", baseline: "a").text)
        #expect(svg.strayCoordinates == [])
        let interval = svg.role("interval")
        #expect(interval.count == 1)
        let lo = interval[0].number("x1")!
        let hi = interval[0].number("x2")!
        let zero = svg.elements.first { $0.name == "line" && $0.attributes["stroke-dasharray"] != nil }!.number("x1")!
        let half = 4.302653 * (7.0 / 3).squareRoot() / 3.0.squareRoot()
        #expect(abs(half - 3.79464) < 1e-4)
        // Pixels are linear in the value: (hi − lo) / (mean − 0) = 2 · half / mean.
        let mean = (lo + hi) / 2
        #expect(abs((hi - lo) / (mean - zero) - 2 * half / (7.0 / 3)) < 0.01)
        #expect(svg.elements.contains { $0.text == "n = 3" })
        // The page's table says the same numbers.
        let table = ComparisonTable.table(samples, baseline: "a")
        #expect(table.columns == ["policy", "n", "qoe_lin", "qoe_lin − a"])
        // a: 1, 2, 3, mean 2, sd 1, half-width 4.302653 / √3 = 2.48.
        #expect(table.rows[0] == ["a", "3", "2.00 ± 2.48", "baseline"])
        // b alone: 7, 2, 4, mean 13/3, squared deviations sum to 38/3, sd = √(19/3), half-width 4.302653 · √(19/9) = 6.25.
        #expect(table.rows[1] == ["b", "3", "4.33 ± 6.25", "+2.33 [-1.46, 6.13] (n = 3)"])
        // One trace: no interval, said as n/a.
        var one = ComparisonSamples(metrics: ["qoe_lin"])
        one.add(policy: "a", trace: "t") { _ in 1 }
        one.add(policy: "b", trace: "t") { _ in 3 }
        #expect(ComparisonTable.table(one, baseline: "a").rows[1] == ["b", "1", "3.00 ± n/a", "+2.00, n/a (n = 1)"])
        #expect(
            SVGElements(DifferencePlot.svg(one, metric: "qoe_lin", title: "QoE", baseline: "a").text).role("interval")
                .isEmpty)
    }

    @Test("the plot page shows the description, the command, a link to the results and twelve summary columns")
    func thePageSaysWhatRanAndShowsTheColumnsAPersonNeeds() throws {
        var data = syntheticRun(players: ["main", "tile1"])
        let columns = RunTables.summaryColumns
        data.summary = CSVTable(
            columns: columns, rows: [columns.map { _ in "1.23456" }, columns.map { $0 == "failure_reason" ? "" : "2" }])
        data.descriptionText = "A walk from WiFi to 3G <fast & slow>."
        let page = PlotPage(command: "abrsim run 'my scenario.json'", resultsLink: "../r")
        let scratch = TestPaths.scratch("page")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try PlotBundles.run(data, page: page).commit(to: scratch)
        let html = try String(contentsOfFile: scratch + "/index.html", encoding: .utf8)
        #expect(isWellFormedXML(html))
        #expect(html.contains("<p class=\"description\">A walk from WiFi to 3G &lt;fast &amp; slow&gt;.</p>"))
        #expect(html.contains("<p>Drawn by <code>abrsim run &apos;my scenario.json&apos;</code></p>"))
        #expect(html.contains("<a href=\"../r/summary.csv\">summary.csv</a>"))
        let header = html.components(separatedBy: "<tr>")[1]
        let shown = header.components(separatedBy: "<th>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(
            shown == [
                "player", "policy", "trace", "startup_s", "stall_count", "stall_s", "avg_bitrate_kbps", "switch_count",
                "qoe_lin", "link_share", "final_state", "failure_reason",
            ])
        #expect(columns.count > 30 && shown.count == 12)
    }

    @Test("command lines are quoted as a shell reads them and links are relative as a browser reads them")
    func commandLinesAndLinksAreWrittenAsAShellAndABrowserReadThem() {
        #expect(
            ShellCommand.line(["abrsim", "sweep", "s.json", "--policies", "bba(reservoir=5..15:5),mpc"])
                == "abrsim sweep s.json --policies 'bba(reservoir=5..15:5),mpc'")
        #expect(ShellCommand.line(["a b", "it's", ""]) == "'a b' 'it'\\''s' ''")
        #expect(PlotPage.relativeLink(from: "/x/plots/run", to: "/x/results/run") == "../../results/run")
        #expect(PlotPage.relativeLink(from: "/x/r/plots", to: "/x/r") == "..")
        #expect(PlotPage.relativeLink(from: "/x/r", to: "/x/r") == "")
    }

    @Test("the timeline of sixteen long players stays within its byte bound with every coordinate finite")
    func theTimelineOfSixteenLongPlayersStaysBoundedAndFinite() {
        // 16 players of 6 000 timeline rows each (96 000 together: the stacked shares are binned per pixel
        // column) and 600 requests each.
        var players: [RunPlotData.Player] = []
        for player in 0..<16 {
            var timeline: [RunPlotData.TimelineRow] = []
            for index in 0..<6_000 {
                let stalled = (index + player) % 40 == 39
                let share = Double((index * 7 + player) % 5) / 80
                timeline.append(
                    RunPlotData.TimelineRow(
                        time: Double(index) * 12, state: stalled ? "buffering" : "playing",
                        timeControlStatus: stalled ? "waitingToPlayAtSpecifiedRate" : "playing",
                        bufferSeconds: Double((index + player) % 30), linkShare: share, likelyToKeepUp: !stalled))
            }
            var requests: [RunPlotData.Request] = []
            for index in 0..<600 {
                let start = Double(index) * 120
                let kbps = Double(300 * (1 + (index + player) % 6))
                requests.append(
                    .init(
                        requestTime: start, doneTime: start + 3, bitrateKbps: kbps, bufferAfterSeconds: 20,
                        abandoned: false))
            }
            players.append(.init(id: "p\(player)", policy: "bba", timeline: timeline, requests: requests))
        }
        var capacity: [(time: Double, kbps: Double)] = []
        for bin in 0...800 { capacity.append((Double(bin) * 100, Double(500 + (bin * 131) % 20_000))) }
        let data = RunPlotData(
            scenario: "day", players: players, capacity: capacity,
            summary: CSVTable(columns: ["player"], rows: players.map { [$0.id] }))
        let svg = TimelinePlot.svg(data, players: Array(0..<16))
        // Per player at most two thinned lines (3 200 points of ~16 bytes), a band of the link (two thinned edges)
        // and 2 × 800 strip and 2 × 800 stall rectangles (~100 bytes); plus the capacity panel.
        #expect(svg.byteCount < 16 * (4 * 3200 * 16 + 3200 * 100) + 200_000, "\(svg.byteCount) bytes")
        let elements = SVGElements(svg.text)
        #expect(elements.strayCoordinates.isEmpty)
        #expect(elements.role("player-label").count == 32)
    }
}
