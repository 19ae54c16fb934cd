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
}
