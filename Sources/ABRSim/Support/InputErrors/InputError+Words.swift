/// The string-only ways of making an ``InputError`` that came before ``InputPlace`` and ``InputProblem``, kept so
/// that code written against them still builds; each makes an ``InputProblem/invalid(_:)`` rule in words. New code
/// states the place and the problem as data.
extension InputError {
    /// An error stated in words, in `file` at `location` (read as a position by ``InputPlace/Position/init(text:)``).
    @available(*, deprecated, message: "state the place and the problem: InputError(_:_:)")
    public init(file: String? = nil, location: String? = nil, _ message: String) {
        self.init(InputPlace(file: file, position: location.map(InputPlace.Position.init(text:))), .invalid(message))
    }

    /// An error stated in words at a line of a text file (1-based).
    @available(*, deprecated, message: "state the place and the problem: InputError(.line(file, line), …)")
    public static func atLine(_ file: String, _ line: Int, _ message: String) -> InputError {
        InputError(.line(file, line), .invalid(message))
    }
}

extension JSONReader {
    /// An error stated in words at this value.
    @available(*, deprecated, message: "state the problem: error(.invalid(…)) or a more specific case")
    public func error(_ message: String) -> InputError { error(.invalid(message)) }
}
