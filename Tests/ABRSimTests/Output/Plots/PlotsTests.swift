import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("plots: scales, numbers, series and pages")
struct PlotsTests {
    @Test("nice scales have round ticks covering the data, widened for a single value")
    func niceScalesHaveRoundTicksCoveringTheData() {
        // Range 7.8 → nice 10; step nice(10 / 4 = 2.5) = 2 (2.5 < 3 rounds to 2).
        let bitrate = NiceScale(minimum: 0, maximum: 7.8, maximumTicks: 5)
        #expect(bitrate.ticks == [0, 2, 4, 6, 8])
        #expect(bitrate.label(6) == "6")
        // Range 100 → step nice(20) = 20.
        #expect(NiceScale(minimum: 0, maximum: 100, maximumTicks: 6).ticks == [0, 20, 40, 60, 80, 100])
        // Range 0.074 → nice 0.1; step nice(0.025) = 0.02; widened to whole steps 0…0.1; two decimals.
        let small = NiceScale(minimum: 0.013, maximum: 0.087, maximumTicks: 5)
        #expect(small.step == 0.02)
        #expect(small.lower == 0)
        #expect(abs(small.upper - 0.1) < 1e-15)
        #expect(small.decimals == 2)
        #expect(small.ticks.map(small.label) == ["0.00", "0.02", "0.04", "0.06", "0.08", "0.10"])
        // Negative data: range 20, step nice(4) = 5, floor(−3/5)·5 = −5 … ceil(17/5)·5 = 20.
        let signed = NiceScale(minimum: -3, maximum: 17, maximumTicks: 5)
        #expect(signed.ticks == [-5, 0, 5, 10, 15, 20])
        // A single value: widened by half its size either side (5 ± 2.5), then to steps of 1.
        #expect(NiceScale(minimum: 5, maximum: 5, maximumTicks: 6).ticks == [2, 3, 4, 5, 6, 7, 8])
        #expect(NiceScale(minimum: 0, maximum: 0).ticks.last == 1)
    }

    @Test("nice numbers are 1, 2 or 5 times a power of ten, rounded or ceiled")
    func niceNumbersAreOneTwoOrFiveTimesAPowerOfTen() {
        #expect(NiceScale.niceNumber(0.074, rounding: false) == 0.1)
        #expect(NiceScale.niceNumber(1.4, rounding: true) == 1)
        #expect(NiceScale.niceNumber(2.9, rounding: true) == 2)
        #expect(NiceScale.niceNumber(6.9, rounding: true) == 5)
        #expect(NiceScale.niceNumber(7, rounding: true) == 10)
        #expect(NiceScale.niceNumber(420, rounding: false) == 500)
        #expect(NiceScale.niceNumber(2000, rounding: false) == 2000)
    }

    @Test("numbers in SVG have at most two decimals and no negative zero, and fixed decimals pad")
    func numbersAreWrittenWithAtMostTwoDecimalsAndNoNegativeZero() {
        #expect(svgNumber(12) == "12")
        #expect(svgNumber(12.5) == "12.5")
        #expect(svgNumber(-3.14159) == "-3.14")
        #expect(svgNumber(0.125) == "0.13")
        #expect(svgNumber(-0.004) == "0")
        #expect(svgNumber(.nan) == "0")
        #expect(fixedDecimals(10, 0) == "10")
        #expect(fixedDecimals(10, 1) == "10.0")
        #expect(fixedDecimals(0.05, 2) == "0.05")
        #expect(fixedDecimals(-1234.5678, 3) == "-1234.568")
    }

    @Test("text in SVG is escaped, coordinates rounded, and the document parses as XML")
    func textIsEscapedAndTheDocumentParsesAsXML() {
        #expect(escapeXML("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        var svg = SVGDocument(width: 100, height: 50)
        svg.text("bba(reservoir=5,cushion=10) <&> \"x\"", x: 10, y: 20, rotation: -90)
        svg.polyline([(0, 0), (10, 10.256)], stroke: Palette.blue)
        svg.polygon([(0, 0), (10, 10), (0, 10)], fill: Palette.grey, opacity: 0.5)
        #expect(svg.text.contains("10,10.26"))
        #expect(isWellFormedXML(svg.text))
        #expect(!isWellFormedXML("<svg><text>a < b</text></svg>"))
    }

    @Test("the palette is Okabe-Ito's eight distinct colours, repeating after eight")
    func thePaletteIsOkabeIto() {
        #expect(Palette.series.count == 8)
        #expect(Set(Palette.series).count == 8)
        #expect(Palette.series(0) == "#0072B2")
        #expect(Palette.series(8) == Palette.series(0))
    }

    /// A timeline row of a plot.
    func row(_ t: Double, _ state: String, buffer: Double = 0, share: Double = 0) -> RunPlotData.TimelineRow {
        RunPlotData.TimelineRow(
            time: t, state: state, timeControlStatus: state == "playing" ? "playing" : "waitingToPlayAtSpecifiedRate",
            bufferSeconds: buffer, linkShare: share, likelyToKeepUp: state == "playing")
    }

    @Test("the plotted buffer drains while playing and jumps when segments arrive, abandoned ones ignored")
    func theBufferDrainsWhilePlayingAndJumpsWhenSegmentsArrive() {
        // Playing from 0 with 10 s; a segment arrives at 4 (buffer 6 → 12); the next row at 15 says buffering.
        let player = RunPlotData.Player(
            id: "p", policy: "x", timeline: [row(0, "playing", buffer: 10), row(15, "buffering", buffer: 0)],
            requests: [
                .init(requestTime: 2, doneTime: 4, bitrateKbps: 1000, bufferAfterSeconds: 12, abandoned: false),
                .init(requestTime: 1, doneTime: 1.5, bitrateKbps: 1000, bufferAfterSeconds: 99, abandoned: true),
            ])
        let points = TimelinePlot.bufferPoints(player)
        let expected: [(Double, Double)] = [(0, 10), (4, 6), (4, 12), (15, 1), (15, 0)]
        #expect(points.count == expected.count)
        for (point, want) in zip(points, expected) {
            #expect(abs(point.time - want.0) < 1e-12 && abs(point.value - want.1) < 1e-12, "\(points)")
        }
        // Not playing: the level holds until the next point, then jumps (no diagonal).
        let waiting = RunPlotData.Player(
            id: "p", policy: "x", timeline: [row(0, "buffering", buffer: 0)],
            requests: [.init(requestTime: 0, doneTime: 3, bitrateKbps: 1, bufferAfterSeconds: 6, abandoned: false)])
        #expect(TimelinePlot.bufferPoints(waiting).map(\.value) == [0, 0, 6])
    }

    @Test("the plotted share is the link share times the capacity at every change")
    func theShareIsTheLinkShareTimesTheCapacityAtEveryChange() {
        let player = RunPlotData.Player(
            id: "p", policy: "x",
            timeline: [row(0, "loading", share: 0), row(5, "playing", share: 1), row(15, "playing", share: 0.5)],
            requests: [])
        let capacity = [(time: 0.0, kbps: 1000.0), (time: 10.0, kbps: 2000.0), (time: 20.0, kbps: 2000.0)]
        let series = TimelinePlot.shareSeries(player, capacity: capacity, end: 20)
        #expect(series.map(\.time) == [0, 5, 10, 15])
        #expect(series.map(\.value) == [0, 1, 2, 1])
    }

    @Test("capacity bins hold the mean rate of their span, at most 800 over a long run")
    func capacityBinsHoldTheMeanRateOfTheirSpan() throws {
        // 4 Mbit/s for 1 s, then 0 for 1 s: over 2 s with 0.1 s bins, ten bins of 4000 kbit/s, ten of 0.
        let curve = try CapacityCurve(starts: [0, 1], ratesBps: [4_000_000, 0], duration: 2)
        let samples = CapacityTable.samples(curve: curve, end: 2)
        #expect(samples.count == 21)
        #expect(samples.prefix(10).allSatisfy { abs($0.kbps - 4000) < 1e-9 })
        #expect(samples[10..<20].allSatisfy { abs($0.kbps) < 1e-9 })
        #expect(samples.last!.time == 2)
        // A long run is cut into at most 800 bins; a bin straddling a change gets the mean.
        let long = CapacityTable.samples(
            curve: try CapacityCurve(starts: [0, 1], ratesBps: [1000, 3000], duration: 2), end: 4)
        #expect(long.count == 41)
        let straddle = CapacityTable.samples(
            curve: try CapacityCurve(starts: [0, 1.05], ratesBps: [1000, 3000], duration: 1000), end: 1000)
        #expect(straddle.count == 801)
        #expect(abs(straddle[0].kbps - (1.05 * 1 + 0.2 * 3) / 1.25) < 1e-12)
    }

    @Test("bar and CDF plots are valid SVG with one series per policy, and the HTML page escapes and rounds")
    func barsAndCDFsAreValidSVGWithOneSeriesPerPolicy() {
        var samples = ComparisonSamples(metrics: ["qoe_lin"])
        for (trace, values) in [("t1", [1.0, 2.0]), ("t2", [3.0, 5.0]), ("t3", [2.0, -1.0])] {
            samples.add(policy: "a&b", trace: trace) { _ in values[0] }
            samples.add(policy: "c", trace: trace) { _ in values[1] }
        }
        let cdf = CDFPlot.svg(samples, metric: "qoe_lin", title: "QoE").text
        let bars = BarPlot.svg(samples, metric: "qoe_lin", title: "QoE").text
        #expect(isWellFormedXML(cdf))
        #expect(isWellFormedXML(bars))
        #expect(cdf.components(separatedBy: "<polyline").count - 1 == 2)
        #expect(cdf.contains("a&amp;b (n = 3)"))
        // Two filled bars, each with a whisker of three lines.
        #expect(bars.components(separatedBy: "fill-opacity=\"0.85\"").count - 1 == 2)
        let html = HTMLIndex.page(
            title: "t <1>",
            tables: [.init(heading: "S", table: CSVTable(columns: ["x", "y"], rows: [["a", "1.23456"]]))],
            figures: [.init(heading: "F", file: "cdf.svg", svg: CDFPlot.svg(samples, metric: "qoe_lin", title: "QoE"))])
        let text = String(decoding: html, as: UTF8.self)
        #expect(text.contains("<td>1.235</td>"))
        #expect(text.contains("<title>t &lt;1&gt;</title>"))
        #expect(isWellFormedXML(text))
    }
}
