import ABRSimTestSupport
import Testing

@testable import ABRSim

@Suite("the CSV schemas")
struct CSVSchemaTests {
    /// The field count of every record of `bytes` (RFC 4180 quoting, LF line ends).
    static func fieldCounts(_ bytes: [UInt8]) -> [Int] {
        var counts: [Int] = []
        var fields = 1
        var quoted = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ",") where !quoted: fields += 1
            case UInt8(ascii: "\n") where !quoted:
                counts.append(fields)
                fields = 1
            default: break
            }
        }
        return counts
    }

    @Test("a run's four tables have the header's field count on every row, extra columns included")
    func runTablesAgree() throws {
        // Two players sharing a link: fairness present, so every summary column has a value.
        let scenario = try ScenarioLoader().load(TestPaths.scenarios + "/multiview-priority.json")
        let report = try ScenarioRunner().run(scenario)
        let bundle = RunTables.bundle(for: report)
        let names = [
            "summary.csv": RunTables.summary.names, "segments.csv": RunTables.segments.names,
            "timeline.csv": RunTables.timeline.names, "access_log.csv": RunTables.accessLog.names,
        ]
        for (file, columns) in names {
            let bytes = try #require(bundle.bytes(named: file))
            let counts = Self.fieldCounts(bytes)
            #expect(counts.count > 2, "\(file)")
            #expect(Set(counts) == [columns.count], "\(file)")
            #expect(try CSVTable.parse(bytes, file: file).columns == columns)
        }
        var summary = RunTables.summary.writer(extraColumns: ["grid.a", "grid.b"])
        RunTables.appendSummary(report, to: &summary, extra: ["1", "x,y"])
        let table = try CSVTable.parse(summary.takeBytes(), file: "summary.csv")
        #expect(table.columns == RunTables.summaryColumns + ["grid.a", "grid.b"])
        #expect(table.rows.count == report.players.count)
        #expect(table.rows.allSatisfy { $0.suffix(2) == ["1", "x,y"] })
        #expect(table.column("jain_qoe")!.allSatisfy { !$0.isEmpty })
    }

    @Test("stats.csv rows with and without statistics have the header's field count")
    func comparisonStatisticsAgree() {
        var samples = ComparisonSamples(metrics: ["stall_s", "startup_s"])
        samples.add(policy: "bba", trace: "t1") { $0 == "stall_s" ? 1 : nil }
        samples.add(policy: "bba", trace: "t2") { $0 == "stall_s" ? 3 : nil }
        samples.add(policy: "mpc", trace: "t1") { $0 == "stall_s" ? 2 : 0.5 }
        samples.add(policy: "mpc", trace: "t2", failed: true) { _ in 0 }
        let bytes = ComparisonStatistics(samples, baseline: "bba").csv()
        #expect(Set(Self.fieldCounts(bytes)) == [ComparisonStatistics.columns.count])
        let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        // bba on stall_s: n 2, mean 2, sd √2, its own baseline (no difference); mpc's startup_s: one value.
        #expect(text[1].hasPrefix("bba,stall_s,2,0,2,1.4142135623730"))
        #expect(text[1].hasSuffix(",bba,0,,,,"))
        #expect(text[4] == "mpc,startup_s,1,1,0.5,,,,0.5,0.5,0.5,0.5,0.5,bba,0,,,,")
    }

    @Test("a schema's header is its columns' names, and each row writes one field per column")
    func schemaDerivesHeaderAndRows() throws {
        let schema = CSVSchema<(Int, String?)>([
            .integer("n") { $0.0 }, .optionalText("label") { $0.1 }, .number("half") { Double($0.0) / 2 },
            .bool("even") { $0.0 % 2 == 0 },
        ])
        let bytes = schema.csv([(1, "a"), (2, nil), (3, "b,c")])
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "n,label,half,even\n1,a,0.5,false\n2,,1,true\n3,\"b,c\",1.5,false\n")
        var rowsOnly = schema.writer(writingHeader: false)
        schema.append((4, nil), to: &rowsOnly)
        // A prefix written once from one row stands for the first fields of rows that share them.
        let shared = schema.prefix(of: (5, "x,y"), count: 2)
        schema.append((6, "ignored"), after: shared, to: &rowsOnly, extra: [])
        #expect(String(decoding: rowsOnly.takeBytes(), as: UTF8.self) == "4,,2,true\n5,\"x,y\",3,true\n")
        let plots: [(Int, [Int])] = [
            (
                CapacityTable.table.names.count,
                Self.fieldCounts(
                    CapacityTable.csv(curve: try CapacityCurve(starts: [0], ratesBps: [1e6], duration: 10), end: 10))
            ),
            (
                StretchTable.table.names.count,
                Self.fieldCounts(
                    StretchTable.csv([.init(index: 0, label: "a,\"b\"", start: 0, end: 1)]))
            ),
            (ScenarioTable.table.names.count, Self.fieldCounts(ScenarioTable.csv(name: "n", description: "x\ny"))),
        ]
        for (columns, counts) in plots { #expect(Set(counts) == [columns]) }
        #expect(SweepFiles.indexHeader(chunks: false) == "run,summary_bytes,segments_bytes\n")
        #expect(SweepFiles.indexHeader(chunks: true) == "run,summary_bytes,segments_bytes,chunks_bytes\n")
    }
}
