import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Parses `text` as a document named `test.json`.
private func parse(_ text: String, maxDepth: Int = 64) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8), file: "test.json", maxDepth: maxDepth)
}

/// The error parsing `bytes` throws, or `nil` (recorded as a failure) when it parses.
private func parseError(_ bytes: [UInt8], maxDepth: Int = 64) -> InputError? {
    do {
        _ = try JSONParser.parse(bytes, file: "test.json", maxDepth: maxDepth)
        Issue.record("expected an error for \(String(decoding: bytes, as: UTF8.self))")
        return nil
    } catch let error as InputError {
        return error
    } catch {
        Issue.record("unexpected error type \(error)")
        return nil
    }
}

private func parseError(_ text: String, maxDepth: Int = 64) -> InputError? {
    parseError(Array(text.utf8), maxDepth: maxDepth)
}

/// The syntax problem's words, or `nil` (recorded as a failure) when `error` is another kind of problem.
private func syntax(_ error: InputError?, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    guard let error else { return nil }
    guard case .syntax(let words) = error.problem else {
        Issue.record("not a syntax error: \(error.problem)", sourceLocation: sourceLocation)
        return nil
    }
    return words
}

/// Checks that `text` fails with a syntax error in `test.json` at `line` and `column` whose words contain
/// `fragment`.
private func expectError(
    _ text: String, at line: Int, _ column: Int, containing fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = parseError(text) else { return }
    #expect(error.place == .lineColumn("test.json", line, column), "\(error)", sourceLocation: sourceLocation)
    #expect(
        syntax(error, sourceLocation: sourceLocation)?.contains(fragment) == true, "\(error)",
        sourceLocation: sourceLocation)
}

@Suite("the JSON parser")
struct JSONParserTests {
    @Test("every kind of JSON value parses to its value, nested and empty ones included")
    func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a": [1, -2.5, true, false, null], "b": {"c": "d"}, "e": [], "f": {} } "#)
        let expected = JSONValue.object(
            JSONObject([
                ("a", .array([.number(1), .number(-2.5), .bool(true), .bool(false), .null])),
                ("b", .object(JSONObject([("c", .string("d"))]))),
                ("e", .array([])),
                ("f", .object(JSONObject())),
            ]))
        #expect(value == expected)
    }

    @Test("object keys keep their document order and look up by name")
    func keepsObjectKeysInDocumentOrder() throws {
        guard case .object(let object) = try parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["zeta", "alpha", "mid"])
        #expect(object["alpha"] == .number(2))
        #expect(object["missing"] == nil)
    }

    @Test("a document may be a lone number, string, null or boolean")
    func parsesScalarDocuments() throws {
        #expect(try parse("42") == .number(42))
        #expect(try parse(" \"x\" ") == .string("x"))
        #expect(try parse("null") == .null)
        #expect(try parse("true\r\n") == .bool(true))
    }

    @Test("escapes, unicode escapes, surrogate pairs and raw UTF-8 in strings are decoded")
    func unescapesTrickyStrings() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(try parse(#""\uD83D\uDE00 smile""#) == .string("😀 smile"))
        #expect(try parse(#""\ud834\udd1e""#) == .string("𝄞"))
        #expect(try parse("\"héllo wörld — 日本語 😀\"") == .string("héllo wörld — 日本語 😀"))
        #expect(try parse("\"mixed é\\n😀\"") == .string("mixed é\n😀"))
    }

    @Test("strings written by the JSON quoter parse back as themselves")
    func roundTripsStringsThroughTheQuoter() throws {
        let samples = ["plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "\u{1} control", "é 😀 日本"]
        for sample in samples {
            #expect(try parse(JSONString.quoted(sample)) == .string(sample))
        }
    }

    @Test("numbers parse as the nearest double, negative zero, exponents and underflow included")
    func parsesNumbers() throws {
        guard case .number(let negativeZero) = try parse("-0") else {
            Issue.record("not a number")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(try parse("1e-7") == .number(1e-7))
        #expect(try parse("1.5E+3") == .number(1500))
        #expect(try parse("-12.25e-2") == .number(-0.1225))
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("123456789012345") == .number(123_456_789_012_345))
        #expect(try parse("9007199254740993") == .number(9_007_199_254_740_992))
        #expect(try parse("12345678901234567890123") == .number(1.2345678901234568e22))
        #expect(try parse("1e-999") == .number(0))
        #expect(try parse("[0,-1,10]") == .array([.number(0), .number(-1), .number(10)]))
    }

    @Test("a byte-order mark is skipped, and columns after it count from the document")
    func skipsAByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)
        #expect(try JSONParser.parse(bytes, file: "bom.json") == .object(JSONObject([("a", .number(1))])))
        let bad: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)
        #expect(parseError(bad)?.place == .lineColumn("test.json", 1, 3))
    }

    @Test("an empty or blank document is refused at the end of the input")
    func rejectsAnEmptyDocument() {
        expectError("", at: 1, 1, containing: "empty document")
        expectError("  \n\t\n", at: 3, 1, containing: "empty document")
    }

    @Test("invalid, surrogate, overlong or stray UTF-8 is refused at its column")
    func rejectsInvalidUTF8() {
        let inString: [UInt8] = Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        let error = parseError(inString)
        #expect(error == InputError(.lineColumn("test.json", 1, 5), .syntax("invalid UTF-8")))
        let surrogate: [UInt8] = Array("\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"".utf8)
        #expect(parseError(surrogate)?.problem == .syntax("invalid UTF-8"))
        let overlong: [UInt8] = Array("\"".utf8) + [0xC0, 0xAF] + Array("\"".utf8)
        #expect(parseError(overlong)?.problem == .syntax("invalid UTF-8"))
        let outside: [UInt8] = [0x5B, 0xFF, 0x5D]
        #expect(syntax(parseError(outside))?.contains("invalid UTF-8") == true)
    }

    @Test("an unterminated string is refused where it opens")
    func rejectsUnterminatedStrings() {
        expectError("{\"a\": \"abc", at: 1, 7, containing: "unterminated string")
        expectError("[\"ab\\", at: 1, 2, containing: "unterminated string")
    }

    @Test("a bad escape, hex sequence or lone surrogate is refused at the string")
    func rejectsBadEscapes() {
        expectError(#"["a\x"]"#, at: 1, 4, containing: "invalid escape '\\x'")
        expectError(#"["\u12G4"]"#, at: 1, 3, containing: "expected four hex digits")
        expectError(#"["\uD83D"]"#, at: 1, 3, containing: "lone high surrogate \\uD83D")
        expectError(#"["\uD83Dx"]"#, at: 1, 3, containing: "lone high surrogate")
        expectError(#"["\uD83D\u0041"]"#, at: 1, 3, containing: "lone high surrogate")
        expectError(#"["ok", "\uDE00"]"#, at: 1, 9, containing: "lone low surrogate \\uDE00")
    }

    @Test("a raw control character in a string is refused, named by its code point")
    func rejectsControlCharactersInStrings() {
        expectError("[\"a\tb\"]", at: 1, 4, containing: "control character U+0009")
        expectError("{\"k\": \"line\nbreak\"}", at: 1, 12, containing: "control character U+000A")
    }

    @Test("a trailing comma in an array or object is refused at the comma")
    func rejectsTrailingCommas() {
        expectError("[1, 2,]", at: 1, 6, containing: "trailing comma before ']'")
        expectError("{\n  \"a\": 1,\n}", at: 2, 9, containing: "trailing comma before '}'")
    }

    @Test("anything after the end of the document is refused where it starts")
    func rejectsTrailingGarbage() {
        expectError("{} x", at: 1, 4, containing: "unexpected 'x' after the end of the document")
        expectError("1 2", at: 1, 3, containing: "after the end of the document")
        expectError("[1]]", at: 1, 4, containing: "after the end of the document")
    }

    @Test("leading zeros, NaN, Infinity and other numbers JSON does not allow are refused")
    func rejectsNumbersThatAreNotJSON() {
        expectError("[01]", at: 1, 2, containing: "leading zero")
        expectError("[-012]", at: 1, 2, containing: "leading zero")
        expectError("[NaN]", at: 1, 2, containing: "invalid value 'NaN'")
        expectError("[Infinity]", at: 1, 2, containing: "invalid value 'Infinity'")
        expectError("[-Infinity]", at: 1, 2, containing: "expected a digit after '-'")
        expectError("[1.]", at: 1, 2, containing: "expected a digit after '.'")
        expectError("[.5]", at: 1, 2, containing: "invalid number '.5'")
        expectError("[+1]", at: 1, 2, containing: "invalid number '+1'")
        expectError("[1e]", at: 1, 2, containing: "expected a digit in the exponent")
        expectError("[1.5.2]", at: 1, 5, containing: "unexpected '.'")
        expectError("[0x10]", at: 1, 3, containing: "unexpected 'x'")
    }

    @Test("a number beyond the double range is refused as out of range")
    func rejectsNumbersThatOverflow() {
        expectError("{\"a\":\n  1e999}", at: 2, 3, containing: "number out of range")
        expectError("[-1e400]", at: 1, 2, containing: "number out of range")
    }

    @Test("a key repeated in one object is refused at its second occurrence")
    func rejectsDuplicateKeys() {
        expectError("{\"x\": 1,\n \"y\": 2,\n \"x\": 3}", at: 3, 2, containing: "duplicate key \"x\"")
        expectError(#"{"a": {"b": 1, "b": 1}}"#, at: 1, 16, containing: "duplicate key \"b\"")
    }

    @Test("the same key in different objects is accepted")
    func allowsTheSameKeyInDifferentObjects() throws {
        let value = try parse(#"[{"x": 1}, {"x": 2}]"#)
        #expect(value == .array([.object(JSONObject([("x", .number(1))])), .object(JSONObject([("x", .number(2))]))]))
    }

    @Test("64 levels of nesting parse and 65 are refused, as is any smaller limit exceeded")
    func limitsNestingDepth() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        expectError(tooDeep, at: 1, 65, containing: "nested deeper than 64 levels")
        guard let custom = parseError(#"{"a": {"b": {}}}"#, maxDepth: 2) else { return }
        #expect(custom == InputError(.lineColumn("test.json", 1, 13), .syntax("nested deeper than 2 levels")))
    }

    @Test("a CR, LF or CRLF counts as one line end in error locations")
    func countsCRLFAsOneLineEnd() {
        expectError("{\r\n\"a\": 1,\r\n\"a\": 2}", at: 3, 1, containing: "duplicate key")
        expectError("[\r1,\r\n2,\n\r]", at: 3, 2, containing: "trailing comma")
    }

    @Test("error columns count characters, not bytes")
    func countsColumnsInCharactersNotBytes() {
        expectError("[\"é😀\", x]", at: 1, 8, containing: "invalid value 'x'")
    }

    @Test("each structural mistake is refused with its line, column and what was expected")
    func reportsStructuralErrors() {
        expectError("[1 2]", at: 1, 4, containing: "expected ',' or ']'")
        expectError("{\"a\" 1}", at: 1, 6, containing: "expected ':'")
        expectError("{1: 2}", at: 1, 2, containing: "expected a string key")
        expectError("{\"a\": 1 \"b\": 2}", at: 1, 9, containing: "expected ',' or '}'")
        expectError("[1,\n 2", at: 2, 3, containing: "to close the array at line 1, column 1")
        expectError("{\"a\": ", at: 1, 7, containing: "unexpected end of input, expected a value")
        expectError("[tru]", at: 1, 2, containing: "invalid value 'tru'")
        expectError("[nulls]", at: 1, 2, containing: "invalid value 'nulls'")
        expectError("[}", at: 1, 2, containing: "unexpected '}', expected a value")
    }

    @Test("a JSON error is described as file, line and column, then the problem")
    func errorDescriptionNamesFileLineAndColumn() {
        let error = parseError("[1,\n  ]")
        #expect(error == InputError(.lineColumn("test.json", 1, 3), .syntax("trailing comma before ']'")))
        #expect(error?.description == "test.json: line 1, column 3: trailing comma before ']'")
    }

    @Test("a JSON file is parsed from disk with its keys in order")
    func parsesAFileFromDisk() throws {
        let movie = try JSONParser.parseFile(TestPaths.data + "/content/sabre/bbb.json")
        guard case .object(let object) = movie else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"])
    }

    @Test("a missing JSON file is refused as no such file")
    func reportsAMissingFile() {
        #expect(throws: InputError(.file("/nonexistent/x.json"), .unreadable("no such file"))) {
            try JSONParser.parseFile("/nonexistent/x.json")
        }
    }

    @Test("a 7 MB document of 100 000 objects parses within the time limit")
    func parsesALargeDocumentQuickly() throws {
        var text = "["
        for index in 0..<100_000 {
            if index > 0 { text += ",\n" }
            text += #"{"time_s": \#(index).25, "bandwidth_kbps": \#(index % 9000), "label": "segment \#(index) é"}"#
        }
        text += "]"
        let bytes = Array(text.utf8)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            guard case .array(let elements) = try JSONParser.parse(bytes, file: "big.json") else {
                Issue.record("not an array")
                return
            }
            #expect(elements.count == 100_000)
        }
        // About 7 MB; generous even for a debug build on a shared machine.
        #expect(elapsed < .seconds(20 * TestPaths.timeScale), "\(bytes.count) bytes took \(elapsed)")
    }
}
