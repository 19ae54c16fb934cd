import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The timelines drawn while a run's tables are read (``StreamedRunPlots``) against those drawn from the tables
/// loaded whole (``RunPlotData``): the same bytes, or the loaded drawing when the files are not as a run writes them.
@Suite("plots drawn as the run's tables are read")
struct StreamedRunPlotsTests {
    /// The plot bundle drawn from the loaded tables of `directory`.
    func loaded(_ directory: String) throws -> OutputBundle {
        PlotBundles.run(try RunPlotData.load(directory: directory))
    }

    /// Expects the streamed drawing of `directory` to be taken and to give the loaded drawing's files, byte for byte.
    func expectSameStreamedPlots(_ directory: String, _ comment: Comment) throws {
        #expect(try StreamedRunPlots.draw(directory: directory) != nil, comment)
        let streamed = try PlotBundles.run(directory: directory)
        let whole = try loaded(directory)
        #expect(streamed.names == whole.names, comment)
        for name in whole.names {
            #expect(streamed.bytes(named: name) == whole.bytes(named: name), "\(name), \(comment)")
        }
    }

    /// Runs a scenario of `players` on hour-4-players.json's looping LTE link, with 1 s segments of `seconds`
    /// of content, and writes its tables as `abrsim run` does into `directory`.
    func writeRun(_ directory: String, players: [(id: String, policy: String, start: Double)], seconds: Int) throws {
        let traces = TestPaths.scenarios + "/traces"
        let list = players.map { #"{"id": "\#($0.id)", "policy": "\#($0.policy)", "startSeconds": \#($0.start)}"# }
        let json = """
            {"name": "streamed", "seed": 1,
             "network": {"rttMs": 40, "atEnd": "loop", "name": "lte-loop", "stretches": [
               {"trace": "\(traces)/TMobile-LTE-short.down", "format": "mahimahi", "rttMs": 20}, {"outageSeconds": 2},
               {"trace": "\(traces)/Verizon-LTE-short.down", "format": "mahimahi", "rttMs": 50}, {"outageSeconds": 1}]},
             "content": {"ladderKbps": [145, 365, 730, 1100, 2000, 3000, 4500, 6000, 7800], "segmentSeconds": 1,
               "durationSeconds": \(seconds)},
             "players": [\(list.joined(separator: ", "))]}
            """
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = writeFile(directory, "scenario.json", json)
        let scenario = try ScenarioLoader().load(path)
        let report = try ScenarioRunner().run(scenario)
        var bundle = RunTables.bundle(for: report)
        let network = scenario.network
        bundle.add(name: "capacity.csv", bytes: CapacityTable.csv(curve: network.curve, end: report.endTime))
        let stretches = StretchTable.rows(
            starts: network.stretchStarts, labels: network.labels, duration: network.curve.duration,
            atEnd: network.curve.atEnd, end: report.endTime)
        bundle.add(name: "stretches.csv", bytes: StretchTable.csv(stretches))
        bundle.add(name: "scenario.csv", bytes: ScenarioTable.csv(name: scenario.name, description: "streamed"))
        try bundle.commit(to: directory + "/r")
    }

    @Test("a long run's timelines drawn as its tables are read are the bytes drawn from the tables loaded whole")
    func aLongRunsStreamedTimelinesAreTheBytesOfTheLoadedOnes() throws {
        let scratch = TestPaths.scratch("streamed-plots")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // One player over 3 000 segments (its lines and strips thinned), and four over 1 200 that start apart
        // (over 4 000 rows together: the stacked shares are column means) with their own timelines.
        try writeRun(scratch + "/one", players: [("p1", "bba", 0)], seconds: 3000)
        try expectSameStreamedPlots(scratch + "/one/r", "one player")
        try writeRun(
            scratch + "/four",
            players: [("a", "throughput", 0), ("b", "bba", 7), ("c", "bola", 14), ("d", "bba", 300)], seconds: 1200)
        try expectSameStreamedPlots(scratch + "/four/r", "four players")
        // Short runs: every series drawn point for point, the stacked shares as exact steps.
        try writeRun(scratch + "/short", players: [("a", "throughput", 0), ("b", "bba", 3)], seconds: 40)
        try expectSameStreamedPlots(scratch + "/short/r", "two players, 40 s")
    }

    /// A results folder of `players` written row by row: every `stallEvery`-th row of a player buffering, shares
    /// and keep-up changing at every row, one request in five abandoned, the players' rows interleaved in time.
    func writeSynthetic(_ directory: String, players: [String], rows: Int, stallEvery: Int) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var summary = "scenario,player,policy\n"
        for id in players { summary += "synthetic,\(id),bba\n" }
        writeFile(directory, "summary.csv", summary)
        var timeline = "player,t_s,state,time_control_status,buffer_s,link_share,likely_to_keep_up\n"
        var segments = "player,request_s,done_s,bitrate_kbps,buffer_after_s,abandoned\n"
        for row in 0..<rows {
            for (position, id) in players.enumerated() {
                let t = Double(row) * 0.75 + Double(position) * 0.25
                let stalled = row % stallEvery == stallEvery - 1
                let state = row == 0 ? "loading" : stalled ? "buffering" : "playing"
                let status = state == "playing" ? "playing" : "waitingToPlayAtSpecifiedRate"
                let share = Double((row * 3 + position) % 5) / 4
                timeline += "\(id),\(t),\(state),\(status),\(stalled ? 0 : Double(row % 9)),\(share),"
                timeline += (row + position) % 3 == 0 ? "false\n" : "true\n"
            }
        }
        for id in players {  // grouped by player, as a run writes them
            for request in 0..<(rows / 2) {
                let t = Double(request) * 1.5
                let abandoned = request % 5 == 4
                segments += "\(id),\(t),\(t + 1.2),\(145 * (1 + request % 9)),\(Double(request % 7) + 2),"
                segments += abandoned ? "true\n" : "false\n"
            }
        }
        writeFile(directory, "timeline.csv", timeline)
        writeFile(directory, "segments.csv", segments)
        var capacity = "t_s,capacity_kbps\n"
        let end = Double(rows) * 0.75
        for bin in 0...800 { capacity += "\(Double(bin) * end / 800),\(bin % 50 < 3 ? 0 : 1000 + (bin * 37) % 5000)\n" }
        writeFile(directory, "capacity.csv", capacity)
    }

    @Test("thousands of stalls, strip changes and points give the same bytes streamed as loaded whole")
    func manyStallsAndChangesGiveTheSameBytesStreamedAsLoaded() throws {
        let scratch = TestPaths.scratch("streamed-synthetic")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // 6 000 rows per player, a stall every 2 rows: 3 000 stalls (over the 2 000 drawn separately), 6 000
        // strip spans, 9 000 requests: everything is thinned.
        try writeSynthetic(scratch + "/one", players: ["solo"], rows: 6000, stallEvery: 2)
        try expectSameStreamedPlots(scratch + "/one", "one synthetic player")
        try writeSynthetic(scratch + "/three", players: ["x", "y", "z"], rows: 5000, stallEvery: 3)
        try expectSameStreamedPlots(scratch + "/three", "three synthetic players")
        // Below every limit: 1 000 rows of three players (3 000 < 4 000: exact stacked steps).
        try writeSynthetic(scratch + "/small", players: ["x", "y", "z"], rows: 1000, stallEvery: 7)
        try expectSameStreamedPlots(scratch + "/small", "three small synthetic players")
    }

    @Test("files out of a run's order are drawn from the loaded tables, and a damaged file is reported at its line")
    func filesOutOfOrderAreDrawnLoadedAndDamagedFilesReportedAtTheirLine() throws {
        let scratch = TestPaths.scratch("streamed-fallback")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try writeSynthetic(scratch, players: ["x", "y"], rows: 50, stallEvery: 4)
        let timeline = scratch + "/timeline.csv"
        var lines = try String(contentsOfFile: timeline, encoding: .utf8).split(separator: "\n").map(String.init)
        // Two rows swapped: time goes back.
        lines.swapAt(10, 20)
        writeFile(scratch, "timeline.csv", lines.joined(separator: "\n") + "\n")
        #expect(try StreamedRunPlots.draw(directory: scratch) == nil)
        let bundle = try PlotBundles.run(directory: scratch)
        let whole = try loaded(scratch)
        #expect(bundle.names == whole.names)
        for name in whole.names { #expect(bundle.bytes(named: name) == whole.bytes(named: name), "\(name)") }
        // A row that is not a number: the error of the loaded tables, naming the file and line.
        lines.swapAt(10, 20)
        var fields = lines[30].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[4] = "deep"
        lines[30] = fields.joined(separator: ",")
        writeFile(scratch, "timeline.csv", lines.joined(separator: "\n") + "\n")
        let expected = #expect(throws: InputError.self) { try RunPlotData.load(directory: scratch) }
        let found = #expect(throws: InputError.self) { try PlotBundles.run(directory: scratch) }
        #expect(found == expected)
        #expect(found?.location == "line 31")
    }

    @Test("a reader started at a chunk's offset reads the rows from that chunk on")
    func aReaderStartedAtAChunksOffsetReadsTheRowsFromThere() throws {
        let scratch = TestPaths.scratch("chunk-offsets")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let text = "a,b\n" + (0..<23).map { "\($0),\"q\n\($0)\"\n" }.joined()
        let path = writeFile(scratch, "t.csv", text)
        let whole = try CSVTable.parse(Array(text.utf8), file: path)
        let reader = try CSVChunkReader(file: path, rowsPerChunk: 5, pieceBytes: 7)
        var offsets: [(offset: Int, first: Int)] = []
        var first = 0
        while let chunk = try reader.next() {
            offsets.append((reader.chunkOffset, first))
            first += chunk.table.rows.count
        }
        #expect(offsets.count == 5)
        for (offset, first) in offsets {
            let later = try CSVChunkReader(file: path, rowsPerChunk: 3, pieceBytes: 4, startingAt: offset)
            var rows: [[String]] = []
            while let chunk = try later.next() {
                #expect(chunk.table.columns == ["a", "b"])
                rows += chunk.table.rows
            }
            #expect(rows == Array(whole.rows[first...]), "from row \(first)")
        }
    }

    @Test("located fields read as the parsed table's fields, and what the parser refuses is refused")
    func locatedFieldsReadAsTheParsedTablesFields() throws {
        let scratch = TestPaths.scratch("csv-fields")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Quotes with commas, doubled quotes and a line break; CRLF ends; empty fields; no final line end.
        let text = "a,b,c\r\n1,\"x,y\",\r\n2,\"say \"\"hi\"\"\",z\n,\"two\nlines\",\"\"\né,,\"q\"\r\n5,w,"
        let path = writeFile(scratch, "t.csv", text)
        let whole = try CSVTable.parse(Array(text.utf8), file: path)
        for size in [1, 2, 5] {
            let reader = try CSVChunkReader(file: path, rowsPerChunk: size, pieceBytes: 3)
            var rows: [[String]] = []
            while let chunk = try reader.nextFields() {
                #expect(chunk.columns == ["a", "b", "c"])
                rows += (0..<chunk.count).map { row in (0..<3).map { chunk.text(row, $0) } }
            }
            #expect(rows == whole.rows, "chunks of \(size)")
        }
        let fields = try CSVFields(
            bytes: Array("true,\"true\",truer,1e3,\n".utf8), columns: ["a", "b", "c", "d", "e"], file: path)
        #expect(fields.count == 1)
        #expect(fields.field(0, 0, is: "true") && fields.field(0, 1, is: "true") && !fields.field(0, 2, is: "true"))
        #expect(try fields.number(0, 3) == 1000 && fields.number(0, 4).isNaN)
        #expect(throws: InputError.self) { try fields.number(0, 2) }
        // Refused, as the parser refuses them: a quote in an unquoted field, text after a closing quote, an open
        // quote, another number of fields, bytes that are not UTF-8.
        for bad in ["1,x\"y,3\n", "1,\"x\"y,3\n", "1,\"open,3\n", "1,2\n", "1,2,3,4\n"] {
            #expect(throws: (any Error).self, "\(bad)") {
                try CSVTable.parse(Array(("a,b,c\n" + bad).utf8), file: path)
            }
            #expect(throws: InputError.self, "\(bad)") {
                try CSVFields(bytes: Array(bad.utf8), columns: ["a", "b", "c"], file: path)
            }
        }
        #expect(throws: InputError.self) {
            try CSVFields(bytes: [0x31, 0x2C, 0xFF, 0x2C, 0x33], columns: ["a", "b", "c"], file: path)
        }
    }
}
