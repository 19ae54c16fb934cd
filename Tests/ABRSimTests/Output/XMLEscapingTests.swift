import ABRSimTestSupport
import Testing

@testable import ABRSim

@Suite("escaping XML")
struct XMLEscapingTests {
    @Test("markup characters become entities")
    func markup() {
        #expect(escapeXML("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(escapeXML("débit 日本 😀") == "débit 日本 😀")
    }

    @Test("control characters, separators and XML's non-characters are shown as visible escapes")
    func controlCharacters() {
        #expect(escapeXML("a\nb\tc\rd") == #"a\nb\tc\rd"#)
        #expect(
            escapeXML("\u{1}\u{1B}\u{85}\u{2028}\u{FEFF}\u{FFFE}\u{FFFF}")
                == #"\u{1}\u{1B}\u{85}\u{2028}\u{FEFF}\u{FFFE}\u{FFFF}"#)
        #expect(isWellFormedXML("<a b=\"\(escapeXML("x\u{0}<\"y"))\">\(escapeXML("\u{1}&\u{FFFE}"))</a>"))
    }

    @Test("element text may keep its tabs and line feeds")
    func keepingLineBreaks() {
        #expect(escapeXML("one\n\ttwo\r<3>", keepingLineBreaks: true) == "one\n\ttwo\\r&lt;3&gt;")
    }
}
