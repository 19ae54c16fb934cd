import Testing

@testable import ABRSim

/// ``LineReader``: ``LineReader/withNextLine(maxLineBytes:_:)`` hands over the same lines, numbered the same, as
/// ``LineReader/nextLine(maxLineBytes:)``, whatever the read buffer's size.
@Suite("the line reader")
struct LineReaderTests {
    /// Every line of the file at `path` through `nextLine`, or through `withNextLine`, with its number.
    static func lines(_ path: String, bufferBytes: Int, inPlace: Bool) throws -> [String] {
        let reader = try LineReader(path: path, bufferBytes: bufferBytes)
        var lines: [String] = []
        if inPlace {
            while let line = try reader.withNextLine({ String(decoding: $0, as: UTF8.self) }) {
                lines.append("\(reader.lineNumber): \(line)")
            }
        } else {
            while let line = try reader.nextLine() {
                lines.append("\(reader.lineNumber): \(String(decoding: line, as: UTF8.self))")
            }
        }
        return lines
    }

    @Test(
        "in place or sliced, every buffer size from 1 to 64 bytes gives the same lines: BOM, CRLF, blank and last lines"
    )
    func inPlaceLinesMatchSlicedLines() throws {
        let text: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("0.0\t4.03768755221\r\n\n0.549999952316 4.79283060109\n\r\n".utf8)
            + Array(repeating: UInt8(ascii: "7"), count: 90) + Array("\n  1 2 3\r\nlast without newline".utf8)
        let path = NetworkTestSupport.writeBytes(text)
        let expected = [
            "1: 0.0\t4.03768755221", "2: ", "3: 0.549999952316 4.79283060109", "4: ",
            "5: " + String(repeating: "7", count: 90), "6:   1 2 3", "7: last without newline",
        ]
        for bufferBytes in 1...64 {
            #expect(try Self.lines(path, bufferBytes: bufferBytes, inPlace: false) == expected, "\(bufferBytes) bytes")
            #expect(try Self.lines(path, bufferBytes: bufferBytes, inPlace: true) == expected, "\(bufferBytes) bytes")
        }
    }

    @Test("a cooked trace read line by line in place gives Double(String)'s values and names a bad line")
    func aCookedTraceReadsInPlace() throws {
        let good = NetworkTestSupport.write("0.0 4.03768755221\n0.549999952316\t4.79283060109 extra\r\n\n1.5 0\n")
        let trace = try PensieveCookedTrace.read(path: good)
        #expect(trace.times == [0.0, 0.549999952316, 1.5].map { Double("\($0)")! })
        #expect(trace.bandwidthsMbps == [Double("4.03768755221")!, Double("4.79283060109")!, 0])
        let bad = NetworkTestSupport.write("0.0 4.0\n0.5 4.1\n1.0\n")
        #expect {
            try PensieveCookedTrace.read(path: bad)
        } throws: { error in
            (error as? InputError)?.file == bad && (error as? InputError)?.location == "line 3"
        }
    }
}
