/// Where in a user's input an ``InputError`` is: the file as the user named it (`nil` for the command line)
/// and the position in it. Built by the readers (lines, JSON paths) and the command parsers (options).
public struct InputPlace: Equatable, Sendable {
    /// A position inside one input.
    public enum Position: Equatable, Sendable {
        /// A line of a text file, 1-based.
        case line(Int)
        /// A line and column (1-based, the column counted in characters), for syntax errors.
        case lineColumn(line: Int, column: Int)
        /// A JSON path such as `$.players[0].policy`.
        case jsonPath(String)
        /// A command-line option or argument, such as `--policies`.
        case option(String)
        /// A place named in words where none of the above fits: `piece 3`, `lines 1–40`, a policy spec.
        case named(String)

        /// The position a rendered place names: `line N` and `line N, column M` are lines, `$…` a JSON path,
        /// `-…` an option, anything else a place named in words.
        public init(text: String) {
            if let line = Self.lineNumber(text) {
                self = .line(line)
            } else if text.hasPrefix("line "), let comma = text.firstIndex(of: ","),
                let line = Self.lineNumber(String(text[..<comma])),
                text[comma...].hasPrefix(", column "), let column = Int(text[comma...].dropFirst(9)), column > 0
            {
                self = .lineColumn(line: line, column: column)
            } else if text.hasPrefix("$") {
                self = .jsonPath(text)
            } else if text.hasPrefix("-"), text.count > 1 {
                self = .option(text)
            } else {
                self = .named(text)
            }
        }

        private static func lineNumber(_ text: String) -> Int? {
            guard text.hasPrefix("line "), let line = Int(text.dropFirst(5)), line > 0 else { return nil }
            return String(line) == text.dropFirst(5) ? line : nil
        }
    }

    /// The file, as the user named it; `nil` for the command line.
    public var file: String?
    /// The position in the file, or `nil` for the file as a whole (or no position at all).
    public var position: Position?

    /// A place in `file` (if any) at `position` (if any).
    public init(file: String? = nil, position: Position? = nil) {
        self.file = file
        self.position = position
    }

    /// Nowhere in particular: an error about the command as a whole.
    public static let none = InputPlace()

    /// The file as a whole (or nowhere in particular when `file` is `nil`).
    public static func file(_ file: String?) -> InputPlace { InputPlace(file: file) }

    /// A line of `file` (1-based).
    public static func line(_ file: String, _ line: Int) -> InputPlace { InputPlace(file: file, position: .line(line)) }

    /// A line and column of `file` (1-based).
    public static func lineColumn(_ file: String, _ line: Int, _ column: Int) -> InputPlace {
        InputPlace(file: file, position: .lineColumn(line: line, column: column))
    }

    /// A JSON path in `file`.
    public static func jsonPath(_ file: String, _ path: String) -> InputPlace {
        InputPlace(file: file, position: .jsonPath(path))
    }

    /// A command-line option or argument.
    public static func option(_ name: String) -> InputPlace { InputPlace(position: .option(name)) }

    /// A place named in words, in `file` if given.
    public static func named(_ name: String, file: String? = nil) -> InputPlace {
        InputPlace(file: file, position: .named(name))
    }
}
