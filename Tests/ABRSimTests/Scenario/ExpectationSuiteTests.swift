import ABRSimTestSupport
import Foundation
import FoundationXML
import Testing

@testable import ABRSim

/// Finding scenario files, running a suite in parallel with a stable order, and the JUnit XML of its results.
@Suite("expectation suites and their JUnit report")
struct ExpectationSuiteTests {
    static let minimal =
        #"{"network": {"preset": "wifi"}, "content": {"ladderKbps": [500], "segmentSeconds": 4, "segments": 2},"#
        + #" "players": [{"id": "a", "policy": "fixed"}], "expect": [{"metric": "segments", "equals": 2}]}"#

    @Test("scenario folders are searched recursively for visible JSON files, once each, in path order")
    func foldersAreSearchedRecursivelyForJSONOnlyInPathOrder() throws {
        let root = TestPaths.scratch("suite")
        for folder in ["sub/deeper", ".hidden", "b"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for name in ["z.json", "a.json", "notes.txt", "sub/deeper/c.json", "sub/b.json", ".hidden/x.json", ".y.json"] {
            writeFile(root, name, Self.minimal)
        }
        let files = try ExpectationSuite.scenarioFiles([root, root + "/a.json"])
        let expected = ["a.json", "sub/b.json", "sub/deeper/c.json", "z.json"].map { root + "/" + $0 }
        #expect(files == expected)
    }

    @Test("a missing path or a folder without scenarios is refused")
    func aMissingPathOrAFolderWithoutScenariosIsAnError() throws {
        let root = TestPaths.scratch("suite")
        writeFile(root, "readme.txt", "no scenarios")
        #expect(throws: InputError.self) { try ExpectationSuite.scenarioFiles([root]) }
        #expect(throws: InputError.self) { try ExpectationSuite.scenarioFiles([root + "/missing.json"]) }
    }

    @Test("a suite's results keep file order and verdicts whatever the thread count")
    func resultsKeepFileOrderWhateverTheThreadCount() throws {
        let root = TestPaths.scratch("suite")
        for (index, preset) in ["3g", "wifi", "edge", "lte", "dsl"].enumerated() {
            let text = Self.minimal.replacingOccurrences(of: "\"wifi\"", with: "\"\(preset)\"")
                .replacingOccurrences(
                    of: #"{"metric": "segments", "equals": 2}"#, with: #"{"metric": "startup_s", "max": 2}"#)
            writeFile(root, "s\(index).json", text)
        }
        let suite = try ExpectationSuite.load([root])
        let serial = try suite.run(jobs: 1)
        let parallel = try suite.run(jobs: 4)
        #expect(serial == parallel)
        #expect(serial.map { $0.first?.file } == (0..<5).map { root + "/s\($0).json" })
        // Hand physics: one 2 Mbit segment plus the RTT; 3G (780 kbit/s) and Edge (240 kbit/s) need > 2 s.
        #expect(serial.map { $0[0].passed } == [false, true, false, true, true])
    }

    @Test("the JUnit report escapes its text, counts tests and failures, and parses as XML")
    func junitEscapesTextAndParsesAsXML() throws {
        let report = JUnitReport(
            name: "check <all> & \"more\"",
            suites: [
                JUnitReport.Suite(
                    name: "a&b.json",
                    cases: [
                        JUnitReport.TestCase(name: "p stall_count (max 0)", className: "a&b.json"),
                        JUnitReport.TestCase(
                            name: "p 'x' <y>", className: "a&b.json", failure: "measured 3, bound max 0\u{1}",
                            failureDetail: "line one\nline <two> & ]]>"),
                    ])
            ])
        let parsed = try JUnitParse(report.xml)
        #expect(parsed.attributes["testsuites"]?["name"] == "check <all> & \"more\"")
        #expect(parsed.attributes["testsuites"]?["tests"] == "2")
        #expect(parsed.attributes["testsuites"]?["failures"] == "1")
        #expect(parsed.caseNames == ["p stall_count (max 0)", "p 'x' <y>"])
        #expect(parsed.failureMessages == ["measured 3, bound max 0\\u{1}"])
        #expect(parsed.failureText == "line one\nline <two> & ]]>")
    }
}
