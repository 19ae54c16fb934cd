/// Test results as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) render.
///
/// A report holds suites, a suite holds test cases, a failing case carries a message. The writer escapes
/// every text with ``escapeXML(_:keepingLineBreaks:)`` and writes no times, so the
/// same results give the same bytes. Knows nothing about scenarios: `abrsim check` builds it from its results.
public struct JUnitReport: Sendable, Equatable {
    /// One test case: a name, a class name (CI systems group by it), and a failure if it failed.
    public struct TestCase: Sendable, Equatable {
        /// The case's name.
        public var name: String
        /// The group it belongs to (`classname` attribute).
        public var className: String
        /// The failure's one-line message, `nil` when the case passed.
        public var failure: String?
        /// Longer text inside the `<failure>` element.
        public var failureDetail: String

        /// Creates a case.
        public init(name: String, className: String, failure: String? = nil, failureDetail: String = "") {
            self.name = name
            self.className = className
            self.failure = failure
            self.failureDetail = failureDetail
        }
    }

    /// A named group of cases (one scenario file in `abrsim check`).
    public struct Suite: Sendable, Equatable {
        /// The suite's name.
        public var name: String
        /// Its cases, in order.
        public var cases: [TestCase]

        /// Creates a suite.
        public init(name: String, cases: [TestCase]) {
            self.name = name
            self.cases = cases
        }

        /// Cases that failed.
        public var failureCount: Int { cases.filter { $0.failure != nil }.count }
    }

    /// The report's name (`<testsuites name=…>`).
    public var name: String
    /// The suites, in order.
    public var suites: [Suite]

    /// Creates a report.
    public init(name: String, suites: [Suite]) {
        self.name = name
        self.suites = suites
    }

    /// The XML document, UTF-8, ending with a line feed.
    public var xml: String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failureCount }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites name=\"\(escapeXML(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            text += "  <testsuite name=\"\(escapeXML(suite.name))\" tests=\"\(suite.cases.count)\""
            text += " failures=\"\(suite.failureCount)\" errors=\"0\" skipped=\"0\">\n"
            for testCase in suite.cases {
                text += "    <testcase classname=\"\(escapeXML(testCase.className))\""
                text += " name=\"\(escapeXML(testCase.name))\""
                guard let failure = testCase.failure else {
                    text += "/>\n"
                    continue
                }
                text += ">\n      <failure message=\"\(escapeXML(failure))\" type=\"expectation\">"
                text += escapeXML(testCase.failureDetail, keepingLineBreaks: true) + "</failure>\n    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }
}
