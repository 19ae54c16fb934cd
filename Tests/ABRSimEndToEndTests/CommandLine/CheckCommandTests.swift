import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim check` driven through the built binary: verdict lines, the final count, exit statuses 0/1/2, the
/// JUnit file, and the project's own CI suite loading cleanly.
@Suite("abrsim check")
struct CheckCommandTests {
    static var fixtures: String { TestPaths.packageRoot + "/Tests/Fixtures/check" }

    @Test(
        "check exits 1 on a failing expectation, printing verdict lines, and its JUnit case names the value and bound")
    func aFailingExpectationExitsOneAndItsJUnitCaseNamesValueAndBound() throws {
        let out = TestPaths.scratch("check")
        let junit = out + "/reports/junit.xml"
        let outcome = try runABRSim(["check", Self.fixtures, "--junit", junit])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let file = Self.fixtures + "/failing.json"
        // Hand physics in the fixture: 0.1 s RTT + 2 Mbit at 1 Mbit/s = 2.1 s to the first frame.
        #expect(
            lines == [
                "FAIL \(file) main startup_s = 2.1 (max 1)", "PASS \(file) main stall_count = 0 (max 0)",
                "1 passed, 1 failed",
            ])
        let parsed = try JUnitParse(String(contentsOfFile: junit, encoding: .utf8))
        #expect(parsed.attributes["testsuites"]?["tests"] == "2")
        #expect(parsed.attributes["testsuites"]?["failures"] == "1")
        #expect(parsed.attributes["testsuite"]?["name"] == file)
        #expect(parsed.caseNames == ["main startup_s (max 1)", "main stall_count (max 0)"])
        #expect(parsed.failureMessages == ["measured 2.1, bound max 1"])
        #expect(parsed.failureText.contains("$.expect[0]"))
    }

    @Test("check exits 0 when every expectation holds, ending with the count")
    func allExpectationsHoldingExitsZero() throws {
        let dir = TestPaths.scratch("check")
        let text = try String(contentsOfFile: Self.fixtures + "/failing.json", encoding: .utf8)
            .replacingOccurrences(of: #""max": 1 }"#, with: #""min": 2, "max": 3 }"#)
        writeFile(dir, "passing.json", text)
        let outcome = try runABRSim(["check", "passing.json"], in: dir)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("PASS passing.json main startup_s = 2.1 (min 2, max 3)\n"))
        #expect(outcome.standardOutput.hasSuffix("\n2 passed, 0 failed\n"))
    }

    @Test("bad input in any scenario, a missing path or no argument makes check exit 2 before anything runs")
    func badInputAnywhereExitsTwoBeforeAnythingRuns() throws {
        let dir = TestPaths.scratch("check")
        let good = try String(contentsOfFile: Self.fixtures + "/failing.json", encoding: .utf8)
        writeFile(dir, "a-good.json", good)
        writeFile(dir, "b-bad.json", good.replacingOccurrences(of: #""stall_count""#, with: #""stalls""#))
        let outcome = try runABRSim(["check", ".", "--junit", "junit.xml"], in: dir)
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        let message = outcome.standardError
        #expect(message.contains("b-bad.json") && message.contains("$.expect[1].metric") && message.contains("stalls"))
        #expect(message.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/junit.xml"))
        let missing = try runABRSim(["check", "nothing-here"], in: dir)
        #expect(missing.status == 2 && missing.standardError.contains("nothing-here"))
        let noArguments = try runABRSim(["check"], in: dir)
        #expect(noArguments.status == 2 && noArguments.standardError.contains("SCENARIO"))
    }

    @Test("check prints the same lines with one job or four")
    func outputIsTheSameWhateverTheNumberOfJobs() throws {
        let dir = TestPaths.scratch("check")
        let base = try String(contentsOfFile: Self.fixtures + "/failing.json", encoding: .utf8)
        for (index, rate) in [300, 1000, 4000, 800].enumerated() {
            writeFile(
                dir, "s\(index).json", base.replacingOccurrences(of: "1000, \"seconds\"", with: "\(rate), \"seconds\""))
        }
        let serial = try runABRSim(["check", ".", "--jobs", "1"], in: dir)
        let parallel = try runABRSim(["check", ".", "--jobs", "4"], in: dir)
        #expect(serial.status == 1)
        #expect(serial.standardOutput == parallel.standardOutput)
        #expect(serial.standardOutput.split(separator: "\n").count == 9)
    }

    @Test("the project's CI suite loads at least eight scenarios, each expecting something")
    func theProjectCISuiteLoadsWithAtLeastEightScenariosThatExpectSomething() throws {
        let suite = try ExpectationSuite.load([TestPaths.scenarios + "/ci"])
        #expect(suite.scenarios.count >= 8)
        #expect(suite.scenarios.allSatisfy { !$0.expectations.isEmpty })
    }
}
