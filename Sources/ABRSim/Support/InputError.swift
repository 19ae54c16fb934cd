/// A problem with something a user gave ABRSim: a scenario, a trace, a content description, a command line.
///
/// Every reader and validator throws this type, so that the command line can print one clear line
/// (`file: location: message`) and exit with status 2, never a crash or a stack trace. `location` is a
/// line (`line 12`, `line 12, column 4`) or a JSON path (`$.players[0].policy`), whichever names the place best.
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file the problem is in, as the user named it; `nil` for command-line problems.
    public var file: String?
    /// Where in the file: `line N`, `line N, column M`, or a JSON path such as `$.network.stretches[2]`.
    public var location: String?
    /// What is wrong and, where it helps, what was expected.
    public var message: String

    /// Creates an error; `file` and `location` are optional so command-line errors can leave them out.
    public init(file: String? = nil, location: String? = nil, _ message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// An error at a line of a text file (1-based).
    public static func atLine(_ file: String, _ line: Int, _ message: String) -> InputError {
        InputError(file: file, location: "line \(line)", message)
    }

    /// `file: location: message`, leaving out the parts that are absent, on one line: control characters a user's
    /// input put in the text (a newline in a JSON string, a tab, an escape sequence, U+2028) are shown escaped
    /// (``VisibleText``), as `\n`, `\t` or `\u{1B}`.
    public var description: String {
        VisibleText.escaping([file, location, message].compactMap({ $0 }).joined(separator: ": "))
    }
}
