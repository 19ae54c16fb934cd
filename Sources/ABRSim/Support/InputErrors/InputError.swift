/// A problem with something a user gave ABRSim: a scenario, a trace, a content description, a command line.
///
/// Every reader and validator throws this type, so that the command line can print one clear line and exit with
/// status 2, never a crash or a stack trace. The error is data: where the problem is (``place``: the file and
/// the line, JSON path or option) and what it is (``problem``: an expected value, a missing field, an unknown
/// name …). Tests assert on that data; ``InputErrorMessage`` renders it to the one line users see
/// (`file: place: message`), in one place.
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Where the problem is.
    public var place: InputPlace
    /// What is wrong.
    public var problem: InputProblem

    /// An error with `problem` at `place`.
    public init(_ place: InputPlace, _ problem: InputProblem) {
        self.place = place
        self.problem = problem
    }

    /// The file the problem is in, as the user named it; `nil` for command-line problems.
    public var file: String? {
        get { place.file }
        set { place.file = newValue }
    }

    /// The rendered position within the file (`line 3`, `$.players[0]`, `--policies`), or `nil`; setting it
    /// reads the text back as a position (``InputPlace/Position/init(text:)``), for callers that re-place an error.
    public var location: String? {
        get { place.position.map(InputErrorMessage.text(of:)) }
        set { place.position = newValue.map(InputPlace.Position.init(text:)) }
    }

    /// The rendered problem, without the file and place.
    public var message: String { InputErrorMessage.text(of: problem) }

    /// The one line users see (``InputErrorMessage/line(_:)``).
    public var description: String { InputErrorMessage.line(self) }
}
