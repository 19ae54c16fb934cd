import Testing

@testable import ABRSim

@Suite("numbers written in CSV")
struct NumberFormattingTests {
    @Test(
        "each CSV number has one fixed text, with non-finite values left empty",
        arguments: [
            (8.0, "8"), (-3.0, "-3"), (0.0, "0"), (-0.0, "0"), (1e14, "100000000000000"),
            (999_999_999_999_999.0, "999999999999999"), (0.1, "0.1"), (-2.5, "-2.5"),
            (1.4342768133466879, "1.4342768133466879"), (1e-05, "1e-05"), (1e15, "1000000000000000.0"),
            (Double.nan, ""), (Double.infinity, ""), (-Double.infinity, ""),
        ])
    func numbersHaveOneFixedText(value: Double, text: String) {
        #expect(formatCSVNumber(value) == text)
    }

    @Test("every formatted CSV number reads back as the same double")
    func formattedNumbersReadBackToTheSameValue() {
        for value in [0.1, 1.0 / 3, -7.25e-9, 123_456.789, 1e300, Double.leastNonzeroMagnitude, 2.0e15 + 2] {
            #expect(Double(formatCSVNumber(value)) == value)
        }
    }

    @Test("appending numbers and integers to bytes gives the same text as formatting them")
    func appendingGivesTheSameTextAsFormatting() {
        var bytes = Array("x=".utf8)
        appendCSVNumber(0.30000000000000004, to: &bytes)
        appendCSVInteger(Int.min, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x=0.30000000000000004-9223372036854775808")
    }
}

@Suite("the CSV writer")
struct CSVWriterTests {
    @Test("a CSV writer writes its header even with no rows")
    func headerIsWrittenEvenWithoutRows() {
        let writer = CSVWriter(columns: ["time_s", "player"])
        #expect(writer.text == "time_s,player\n")
        #expect(writer.rowCount == 0)
    }

    @Test("text, number, integer, bool and empty fields are each written in their form")
    func fieldsOfEveryKindAreFormatted() {
        var writer = CSVWriter(columns: ["a", "b", "c", "d", "e"])
        writer.appendRow([.text("x"), .number(2.5), .integer(-4), .bool(true), .empty])
        writer.appendRow([.text(""), .number(3), .integer(0), .bool(false), .text("y")])
        #expect(writer.text == "a,b,c,d,e\nx,2.5,-4,true,\n,3,0,false,y\n")
    }

    @Test("text in a CSV is quoted only when it holds a comma, quote or line break, quotes doubled")
    func textIsQuotedOnlyWhenNeeded() {
        var writer = CSVWriter(columns: ["quoted, header", "plain"])
        writer.appendRow([.text("say \"hi\""), .text("a b")])
        writer.appendRow([.text("line\nbreak"), .text("cr\rhere")])
        #expect(writer.text == "\"quoted, header\",plain\n\"say \"\"hi\"\"\",a b\n\"line\nbreak\",\"cr\rhere\"\n")
    }

    @Test("the writer's field-by-field path writes the same bytes as whole rows")
    func fastPathWritesTheSameBytesAsRows() {
        var slow = CSVWriter(columns: ["i", "s", "x", "ok", "gap"])
        var fast = CSVWriter(columns: ["i", "s", "x", "ok", "gap"])
        for i in 0..<50 {
            let x = Double(i) / 7
            slow.appendRow([.integer(i), .text("p,\(i)"), .number(x), .bool(i.isMultiple(of: 2)), .empty])
            fast.beginRow()
            fast.append(i)
            fast.append("p,\(i)")
            fast.append(x)
            fast.append(i.isMultiple(of: 2))
            fast.appendEmpty()
            fast.endRow()
        }
        #expect(fast.bytes == slow.bytes)
        #expect(fast.rowCount == 50)
    }

    @Test("an empty field in a one-column CSV is written as a quoted empty string, not a blank line")
    func anEmptyFieldInAOneColumnFileIsNotABlankLine() throws {
        var writer = CSVWriter(columns: ["note"])
        writer.appendRow([.empty])
        writer.appendRow([.text("x")])
        #expect(writer.text == "note\n\"\"\nx\n")
        #expect(try CSVTable.parse(writer.bytes, file: "notes.csv").rows == [[""], ["x"]])
    }

    @Test("taking the bytes mid-table and continuing gives the whole table in pieces")
    func takingBytesStreamsALongTableInPieces() {
        var writer = CSVWriter(columns: ["n"])
        writer.appendRow([.integer(1)])
        let first = writer.takeBytes()
        writer.appendRow([.integer(2)])
        #expect(first + writer.bytes == Array("n\n1\n2\n".utf8))
    }
}

@Suite("the CSV parser")
struct CSVTableTests {
    @Test("awkward text with commas, quotes, line ends and Unicode survives a CSV write and parse")
    func awkwardTextSurvivesARoundTrip() throws {
        let awkward = [
            "", "plain", "comma, inside", "\"quoted\"", "\"", "line\nfeed", "crlf\r\nend", "trailing space ",
            " leading", "ünïcödé ✓", ",,,", "\"\"", "\r",
        ]
        var writer = CSVWriter(columns: ["index", "text", "value"])
        for (index, text) in awkward.enumerated() {
            writer.appendRow([.integer(index), .text(text), .number(Double(index) * 0.1)])
        }
        let table = try CSVTable.parse(writer.bytes, file: "awkward.csv")
        #expect(table.columns == ["index", "text", "value"])
        #expect(table.column("text") == awkward)
        #expect(table.column("index") == awkward.indices.map { String($0) })
        #expect(table.column("value")?.map { Double($0)! } == awkward.indices.map { Double($0) * 0.1 })
        #expect(table.column("missing") == nil)
    }

    @Test("a CSV with a byte-order mark, CRLF line ends and no final line end parses, quoted CRLF kept")
    func crlfLineEndsByteOrderMarkAndNoFinalLineEndAreAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,b\r\n1,\"x\r\ny\"\r\n2,z".utf8)
        let table = try CSVTable.parse(bytes, file: "crlf.csv")
        #expect(table == CSVTable(columns: ["a", "b"], rows: [["1", "x\r\ny"], ["2", "z"]]))
    }

    @Test("an empty CSV file is refused at line 1 as lacking a header row")
    func anEmptyFileIsAnError() {
        #expect(throws: InputError(.line("empty.csv", 1), .empty("file", no: "header row"))) {
            try CSVTable.parse([], file: "empty.csv")
        }
    }

    @Test("a CSV row with the wrong field count is refused at the line it starts on")
    func aRowWithTheWrongFieldCountNamesItsLine() {
        // The second row starts on line 4, after a quoted field spanning lines 2-3.
        let text = "a,b\n\"1\n1\",x\n2,y,extra\n"
        #expect(throws: InputError(.line("f.csv", 4), .expected("2 fields as in the header", found: "3"))) {
            try CSVTable.parse(Array(text.utf8), file: "f.csv")
        }
    }

    @Test("an unclosed CSV quote is refused at the line where it opens")
    func anUnclosedQuoteNamesTheLineItOpensOn() {
        #expect(
            throws: InputError(
                .line("f.csv", 2), .unpaired("a quoted field's opening quote", missing: "its closing quote"))
        ) {
            try CSVTable.parse(Array("a\n\"open\nstill open\n".utf8), file: "f.csv")
        }
    }

    @Test("text after a closing quote in a CSV field is refused, naming the line")
    func textAfterAClosingQuoteIsAnError() {
        let expected = InputError(
            .line("f.csv", 2), .expected("a comma or a line end after a closing quote", found: "more text"))
        #expect(throws: expected) { try CSVTable.parse(Array("a,b\n\"x\"y,1\n".utf8), file: "f.csv") }
    }

    @Test("a quote inside an unquoted CSV field is refused, naming the line")
    func aQuoteInsideAnUnquotedFieldIsAnError() {
        let expected = InputError(
            .line("f.csv", 3), .expected("a quoted field around a double quote", found: "an unquoted field"))
        #expect(throws: expected) { try CSVTable.parse(Array("a\n1\nx\"y\n".utf8), file: "f.csv") }
    }

    @Test("bytes of a CSV that are not UTF-8 are refused, naming the line")
    func invalidUTF8IsAnError() {
        #expect(throws: InputError(.line("f.csv", 2), .expected("UTF-8 text", found: "bytes that are not UTF-8"))) {
            try CSVTable.parse(Array("a\n".utf8) + [0xFF, 0x0A], file: "f.csv")
        }
    }
}
