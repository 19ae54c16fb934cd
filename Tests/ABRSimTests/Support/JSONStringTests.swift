import Foundation
import Testing

@testable import ABRSim

@Suite("quoting JSON strings")
struct JSONStringTests {
    @Test("quotes, backslashes and control characters are escaped, upper-case hex for the rest below U+0020")
    func escapes() {
        #expect(JSONString.quoted("") == #""""#)
        #expect(JSONString.quoted(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(JSONString.quoted("a\nb\rc\td") == #""a\nb\rc\td""#)
        #expect(JSONString.quoted("\u{0}\u{1}\u{1F}\u{1B}") == #""\u0000\u0001\u001F\u001B""#)
        // DEL, `/` and everything at or above U+0020 are written as they are.
        #expect(JSONString.quoted("/\u{7F} ") == "\"/\u{7F} \"")
    }

    @Test("non-ASCII text is written as it is, in UTF-8")
    func nonASCII() {
        #expect(JSONString.quoted("débit 日本 😀 \u{2028}") == "\"débit 日本 😀 \u{2028}\"")
    }

    @Test("every quoted string reads back as itself, by our parser and by Foundation's")
    func roundTrips() throws {
        let scalars = (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "€", "😀", "\u{2028}", "\u{FEFF}"]
        var samples = scalars.map { String($0) }
        samples.append(String(String.UnicodeScalarView(scalars)))
        for sample in samples {
            let quoted = JSONString.quoted(sample)
            #expect(try JSONParser.parse(Array(quoted.utf8), file: "q") == .string(sample))
            // Foundation drops a leading byte-order mark even inside a string, so that sample is ours alone.
            guard !sample.hasPrefix("\u{FEFF}") else { continue }
            let foundation = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed)
            #expect(foundation as? String == sample)
        }
    }
}
