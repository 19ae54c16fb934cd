import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("plot thinning")
struct PlotThinningTests {
    /// 8 000 points over an 800-pixel panel from x = 80: ten points per pixel column, y = 100 except where
    /// `changes` says.
    func series(_ changes: [Int: Double]) -> [(x: Double, y: Double)] {
        (0..<8000).map { (x: 80 + Double($0) / 10, y: changes[$0] ?? 100) }
    }

    /// The indices of `kept` in `points`, matching in order (fails if `kept` is not a subsequence).
    func indices(of kept: [(x: Double, y: Double)], in points: [(x: Double, y: Double)]) -> [Int] {
        var result: [Int] = []
        var next = 0
        for point in kept {
            while next < points.count, points[next] != point { next += 1 }
            guard next < points.count else { return [] }
            result.append(next)
            next += 1
        }
        return result
    }

    @Test("min-max thinning keeps each pixel column's first, lowest, highest and last points in order")
    func minMaxKeepsFirstLowestHighestAndLastOfEachColumnInOrder() {
        // Column 400 has a spike down to 0 at 4005; column 600 a peak of 200 at 6003; column 700 a peak (7002)
        // before a trough (7006). Flat columns keep their first and last point (2 each).
        let points = series([4005: 0, 6003: 200, 7002: 300, 7006: -50])
        let kept = PlotThinning.minMax(points, left: 80, width: 800)
        #expect(kept.count == 797 * 2 + 3 + 3 + 4)
        let order = indices(of: kept, in: points)
        #expect(order.count == kept.count)
        #expect(order.first == 0 && order.last == 7999)
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 })
        #expect(order.filter { $0 / 10 == 400 } == [4000, 4005, 4009])
        #expect(order.filter { $0 / 10 == 600 } == [6000, 6003, 6009])
        #expect(order.filter { $0 / 10 == 700 } == [7000, 7002, 7006, 7009])
        #expect(order.filter { $0 / 10 == 3 } == [30, 39])
        #expect(kept.map(\.y).min() == -50 && kept.map(\.y).max() == 300)
    }

    @Test("a series within the limit is kept point for point, and thinning twice changes nothing")
    func seriesUpToTheLimitAreKeptPointForPoint() {
        let points = series([17: 3])
        let same = PlotThinning.minMax(points, left: 80, width: 800, limit: 8000)
        #expect(same.count == 8000 && zip(same, points).allSatisfy { $0 == $1 })
        #expect(PlotThinning.minMax(points, left: 80, width: 800, limit: 7999).count == 799 * 2 + 3)
        // A thinned line is below the default limit, so thinning twice changes nothing.
        let noisy: [(x: Double, y: Double)] = (0..<50_000).map { index in
            let y = Double((index * 7919) % 101)
            return (x: 80 + Double(index) * 0.016, y: y)
        }
        let once = PlotThinning.minMax(noisy, left: 80, width: 800)
        #expect(once.count <= 4 * 800 && once.count < PlotThinning.maximumPoints)
        #expect(PlotThinning.minMax(once, left: 80, width: 800).count == once.count)
    }

    @Test("points outside the panel are thinned in its edge columns")
    func pointsOutsideThePanelFallInTheEdgeColumns() {
        let points = (0..<10).map { (x: -100 + Double($0) * 200, y: Double($0)) }  // x from -100 to 1700
        let kept = PlotThinning.minMax(points, left: 0, width: 800, limit: 5)
        // Columns 0 (x = -100, clamped), 100, 300, 500 and 700 hold one point each; x ≥ 900 all fall in the last
        // column (799), which keeps its first and last point.
        #expect(kept.map(\.y) == [0, 1, 2, 3, 4, 5, 9])
    }

    @Test("thinned spans keep the key covering most of each column, merged, or all spans within the limit")
    func spansKeepTheKeyCoveringMostOfEachColumn() {
        // 100 columns; each column is 3/4 "a" then 1/4 "b", except columns 50..<60 that are all "b".
        var spans: [(key: String, x0: Double, x1: Double)] = []
        for column in 0..<100 {
            let c = 10 + Double(column)
            if (50..<60).contains(column) {
                spans.append(("b", c, c + 1))
            } else {
                spans.append(("a", c, c + 0.75))
                spans.append(("b", c + 0.75, c + 1))
            }
        }
        let merged = PlotThinning.dominantSpans(spans, left: 10, width: 100, limit: 100)
        #expect(merged.map(\.key) == ["a", "b", "a"])
        #expect(merged.map(\.x0) == [10, 60, 70])
        #expect(merged.map(\.x1) == [60, 70, 110])
        let same = PlotThinning.dominantSpans(spans, left: 10, width: 100, limit: spans.count)
        #expect(same.count == spans.count && zip(same, spans).allSatisfy { $0 == $1 })
    }

    @Test("shaded intervals that overlap or touch are merged over the limit and none is lost")
    func shadedIntervalsThatOverlapOrTouchAreMergedAndNoneIsLost() {
        let intervals: [(x0: Double, width: Double)] = [(10, 1), (10.5, 1), (11.5, 2), (20, 1), (30.25, 1)]
        let merged = PlotThinning.mergedIntervals(intervals, limit: 4)
        #expect(merged.map(\.x0) == [10, 20, 30.25])
        #expect(merged.map(\.width) == [3.5, 1, 1])
        #expect(PlotThinning.mergedIntervals(intervals, limit: 5).count == 5)
    }

    @Test("streamed SVG coordinates are the same bytes as svgNumber for 2000 random and edge values")
    func streamedCoordinatesAreTheSameBytesAsSVGNumber() {
        var values: [Double] = [0, -0.0, 0.004, -0.004, 0.005, 1.005, -1.005, 12.5, 12.25, 99.995, 100, 1e15, -1e15]
        values += [1e15 - 0.5, 123_456_789.987, .nan, .infinity, -.infinity, 0.1 + 0.2, 7.0 / 3, -7.0 / 3]
        var state: UInt64 = 12_345
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let unit = Double(state >> 11) / Double(1 << 53)
            values.append((unit - 0.5) * pow(10, Double(state % 9)))
        }
        for value in values {
            var bytes: [UInt8] = []
            appendSVGNumber(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == svgNumber(value), "\(value)")
        }
    }

    @Test("the timeline of a 100 000-row run stays within its byte bound, well-formed, stalls still drawn")
    func theTimelineOfALongRunStaysSmall() {
        // A player of 100 000 timeline rows (stalling every 60 s for 6 s) and 10 000 requests; unthinned, the
        // timeline would be several megabytes.
        var timeline: [RunPlotData.TimelineRow] = []
        var requests: [RunPlotData.Request] = []
        for index in 0..<100_000 {
            let t = Double(index) * 3
            let stalled = index % 20 == 19
            timeline.append(
                .init(
                    time: t, state: stalled ? "buffering" : "playing",
                    timeControlStatus: stalled ? "waitingToPlayAtSpecifiedRate" : "playing",
                    bufferSeconds: stalled ? 0 : Double(index % 20), linkShare: Double(index % 7) / 7,
                    likelyToKeepUp: index % 3 != 0))
            if index % 10 == 0 {
                requests.append(
                    .init(
                        requestTime: t, doneTime: t + 2, bitrateKbps: Double(145 * (1 + index % 9)),
                        bufferAfterSeconds: Double(index % 20) + 6, abandoned: false))
            }
        }
        let capacity: [(time: Double, kbps: Double)] = (0...800).map { bin in
            let kbps = Double(1000 + (bin * 37) % 5000)
            return (time: Double(bin) * 375, kbps: kbps)
        }
        let data = RunPlotData(
            scenario: "long", players: [.init(id: "p1", policy: "bba", timeline: timeline, requests: requests)],
            capacity: capacity, summary: CSVTable(columns: ["player"], rows: [["p1"]]))
        let svg = TimelinePlot.svg(data, players: [0]).bytes
        // At most: 3 lines of 4 points per column (~16 bytes each), 3 × 400 stall rectangles and 2 × 800 strip
        // rectangles (~90 bytes each), plus the axes.
        let bound = 3 * 3200 * 16 + 2800 * 90 + 20_000
        #expect(svg.count < bound, "\(svg.count) bytes")
        let text = String(decoding: svg, as: UTF8.self)
        #expect(isWellFormedXML(text))
        #expect(text.contains("fill=\"\(Palette.vermillion)\""))  // the stalls are still drawn
    }
}

@Suite("reading a CSV in chunks")
struct CSVChunksTests {
    @Test("chunks of a CSV of any size and read piece hold the whole file's rows, and errors name its lines")
    func chunksHoldTheRowsOfTheWholeFileAndErrorsNameItsLines() throws {
        let folder = TestPaths.scratch()
        // Quoted fields with a comma, a quote and a line break; CRLF row ends; no final line end.
        let text = "a,b\r\n1,\"x,y\"\r\n2,\"say \"\"hi\"\"\"\n3,\"two\nlines\"\n4,z\n5,w"
        let path = writeFile(folder, "t.csv", text)
        let whole = try CSVTable.parse(Array(text.utf8), file: path)
        for size in 1...6 {
            for piece in [1, 2, 5, 1 << 20] {  // bytes read at a time: records and quotes cut across pieces
                var rows: [[String]] = []
                var firstRows: [Int] = []
                try CSVChunks(file: path, rowsPerChunk: size, pieceBytes: piece).forEach { chunk in
                    #expect(chunk.table.columns == ["a", "b"])
                    firstRows.append(chunk.firstRow)
                    rows += chunk.table.rows
                }
                #expect(rows == whole.rows, "chunks of \(size), pieces of \(piece)")
                #expect(firstRows == Array(stride(from: 0, to: 5, by: size)), "chunks of \(size), pieces of \(piece)")
            }
        }
        // A sixth row (line 8, after the quoted line break) has three fields: the error names line 8 of the file,
        // as for the file parsed whole.
        writeFile(folder, "t.csv", text + "\n6,v,extra\n")
        for piece in [3, 1 << 20] {
            #expect(throws: InputError(.line(path, 8), .expected("2 fields as in the header", found: "3"))) {
                try CSVChunks(file: path, rowsPerChunk: 2, pieceBytes: piece).forEach { _ in }
            }
        }
        writeFile(folder, "t.csv", "a,b\n1,\"open\n2,x\n")
        #expect(
            throws: InputError(
                .line(path, 2), .unpaired("a quoted field's opening quote", missing: "its closing quote"))
        ) {
            try CSVChunks(file: path, rowsPerChunk: 1).forEach { _ in }
        }
        #expect(throws: InputError(.line(path, 8), .expected("2 fields as in the header", found: "3"))) {
            _ = try CSVTable.parse(Array((text + "\n6,v,extra\n").utf8), file: path)
        }
        for header in ["a,b\n", "a,b"] {  // a header alone gives one empty chunk
            writeFile(folder, "t.csv", header)
            var chunks = 0
            try CSVChunks(file: path).forEach { chunk in
                chunks += 1
                #expect(chunk.table.columns == ["a", "b"] && chunk.table.rows.isEmpty)
            }
            #expect(chunks == 1)
        }
        writeFile(folder, "t.csv", "")
        #expect(throws: InputError(.line(path, 1), .empty("file", no: "header row"))) {
            try CSVChunks(file: path).forEach { _ in }
        }
    }
}
