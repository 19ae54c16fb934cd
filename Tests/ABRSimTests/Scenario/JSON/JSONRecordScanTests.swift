import Testing

@testable import ABRSim

/// ``JSONParser/parseRecords(_:file:keys:maxDepth:record:_:)``'s fast record scanner against the full parser.
@Suite("the JSON record scanner")
struct JSONRecordScanTests {
    static let document = #"""
        [
         {"duration_ms": 1000, "bandwidth_kbps": 5000.5, "latency_ms": 75},
         {"latency_ms": 20, "duration_ms": 2e3, "bandwidth_kbps": -0.0},
         {"duration_ms": 500, "bandwidth_kbps": 1, "latency_ms": 0, "extra": true}
        ]
        """#

    /// What `parseRecords` reads from `bytes`: the records it scanned and the elements it handed on, or the
    /// error's place and message.
    static func scan(_ bytes: [UInt8]) -> Result<[String], InputError> {
        var seen: [String] = []
        do {
            _ = try JSONParser.parseRecords(
                bytes, file: "t.json", keys: ["duration_ms", "bandwidth_kbps", "latency_ms"],
                record: { index, values in
                    seen.append("\(index): \(Array(values))")
                    return true
                },
                { index, value in seen.append("\(index): element \(value)") })
            return .success(seen)
        } catch let error as InputError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .success([])
        }
    }

    @Test("a whole document gives its two plain records as numbers and hands the third element to the full parser")
    func aWholeDocumentScansItsRecords() throws {
        let seen = try Self.scan(Array(Self.document.utf8)).get()
        #expect(seen.count == 3)
        #expect(seen[0] == "0: [1000.0, 5000.5, 75.0]")
        #expect(seen[1] == "1: [2000.0, -0.0, 20.0]")
        #expect(seen[2].hasPrefix("2: element "))
    }

    @Test("every truncation of a records document, down to a lone '[', fails where the full parser fails")
    func everyTruncationFailsWhereTheFullParserFails() {
        let bytes = Array(Self.document.utf8)
        for end in 1..<bytes.count {
            let prefix = Array(bytes[..<end])
            let full: InputError? = {
                do {
                    _ = try JSONParser.parse(prefix, file: "t.json")
                    return nil
                } catch { return error as? InputError }
            }()
            switch Self.scan(prefix) {
            case .success:
                #expect(full == nil, "prefix of \(end) bytes scanned but the full parser refuses it")
            case .failure(let error):
                #expect(error.location == full?.location, "prefix of \(end) bytes")
                #expect(error.message == full?.message, "prefix of \(end) bytes")
            }
        }
    }

    @Test("a document of a newline, '[' and a newline is refused at its end, as the fuzzer's input was")
    func theFuzzerFindingIsRefused() {
        guard case .failure(let error) = Self.scan(Array("\n[\n ".utf8)) else {
            Issue.record("the truncated array was accepted")
            return
        }
        #expect(error.file == "t.json")
        #expect(error.message.contains("end of input"), "\(error)")
    }

    @Test("records in any key order, and integers of up to 20 digits, give the full parser's numbers bit for bit")
    func keyOrdersAndLongIntegersMatchTheFullParser() throws {
        let numbers = [
            "0", "-0", "7", "-7", "999999999999999", "-999999999999999", "1000000000000000", "9007199254740993",
            "12345678901234567890", "123456789012345678", "1.5", "-0.25", "2e3", "1E-2", "0.1", "16823",
        ]
        let orders = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]]
        let keys = ["duration_ms", "bandwidth_kbps", "latency_ms"]
        var elements: [String] = []
        for (n, number) in numbers.enumerated() {
            let order = orders[n % orders.count]
            let members = order.map { "\"\(keys[$0])\": \($0 == 1 ? number : String($0 + n))" }
            elements.append("{" + members.joined(separator: ", ") + "}")
        }
        // Handed on, not scanned: an escaped key, a key that extends another, a missing key, a string value.
        elements.append(#"{"duration\u005fms": 1, "bandwidth_kbps": 2, "latency_ms": 3}"#)
        elements.append(#"{"duration_msx": 1, "bandwidth_kbps": 2, "latency_ms": 3}"#)
        elements.append(#"{"duration_ms": 1, "latency_ms": 3}"#)
        elements.append(#"{"duration_ms": 1, "bandwidth_kbps": "2", "latency_ms": 3}"#)
        let text = "[\n" + elements.joined(separator: ",\n") + "\n]"
        var scanned: [Int: [Double]] = [:]
        var handedOn: [Int] = []
        _ = try JSONParser.parseRecords(
            Array(text.utf8), file: "t.json", keys: keys,
            record: { index, values in
                scanned[index] = Array(values)
                return true
            },
            { index, _ in handedOn.append(index) })
        #expect(handedOn == Array(numbers.count..<elements.count))
        #expect(scanned.count == numbers.count)
        let full = try JSONParser.parse(Array(text.utf8), file: "t.json")
        guard case .array(let parsed) = full else {
            Issue.record("not an array")
            return
        }
        for (index, values) in scanned {
            guard case .object(let object) = parsed[index] else {
                Issue.record("element \(index) is not an object")
                continue
            }
            for (slot, key) in keys.enumerated() {
                guard case .number(let expected)? = object.values[key] else {
                    Issue.record("element \(index) has no number \(key)")
                    continue
                }
                #expect(values[slot].bitPattern == expected.bitPattern, "element \(index), \(key)")
            }
        }
        #expect(scanned[1]?[1].sign == .minus, "-0 keeps its sign")
        #expect(scanned[7]?[1] == 9_007_199_254_740_992, "a 16-digit integer rounds as Double(String) does")
    }
}
