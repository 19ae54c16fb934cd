/// Renders an ``InputError`` to the one line the command line prints (`file: place: message`), the only place
/// that turns error data into text. Called by ``InputError/description`` (and so by `abrsim`'s error handler).
public enum InputErrorMessage {
    /// `file: place: message`, leaving out the parts that are absent, on one line: control characters a user's
    /// input put in the text (a newline in a JSON string, a tab, an escape sequence, U+2028) are shown escaped
    /// (``VisibleText``), as `\n`, `\t` or `\u{1B}`.
    public static func line(_ error: InputError) -> String {
        let parts = [error.place.file, error.place.position.map(text(of:)), text(of: error.problem)]
        return VisibleText.escaping(parts.compactMap({ $0 }).joined(separator: ": "))
    }

    /// A position as a message names it: `line 3`, `line 3, column 7`, a JSON path, an option.
    public static func text(of position: InputPlace.Position) -> String {
        switch position {
        case .line(let line): return "line \(line)"
        case .lineColumn(let line, let column): return "line \(line), column \(column)"
        case .jsonPath(let path): return path
        case .option(let name): return name
        case .named(let name): return name
        }
    }

    private static func subjected(_ subject: String?, _ text: String) -> String {
        subject.map { "\($0) \(text)" } ?? text
    }

    /// The problem in words, without its place.
    public static func text(of problem: InputProblem) -> String {
        switch problem {
        case .expected(let expected, let found):
            return "expected \(expected), found \(found)"
        case .outOfRange(let what, let bound, let found, let unit):
            return "expected \(what) \(bound), found \(found)" + (unit.map { " \($0)" } ?? "")
        case .mustBe(let subject, let rule, let found, let unit):
            return subjected(subject, "must be \(rule), got \(found)" + (unit.map { " \($0)" } ?? ""))
        case .negative(let what, let found, let unit):
            return "negative \(what) \(found) \(unit)"
        case .oneOf(let subject, let allowed, let found):
            return subjected(subject, "must be \(listedAsAlternatives(allowed)), got '\(found)'")
        case .isNot(let what, let subject, let found):
            return subjected(subject, "\(found) is not \(what)")
        case .empty(let what, let part):
            return "empty \(what): no \(part)"
        case .overLimit(let found, let limit):
            return "\(found), more than the limit of \(limit)"
        case .countMismatch(let found, let what, let expected, let per):
            return "\(found) \(what) for \(expected) \(per)"
        case .noneGiven(let what, let container):
            return container.map { "\($0) needs at least one \(what)" } ?? "give at least one \(what)"
        case .missing(let what):
            return "missing \(what)"
        case .required(let what):
            return subjected(what, "is required")
        case .unknownName(let name, let kind, let known):
            return "unknown \(kind) '\(name)' (known: \(known.joined(separator: ", ")))"
        case .unknownKeys(let names, let known):
            let valid =
                known.isEmpty ? "this object takes no keys" : "expected one of: " + known.joined(separator: ", ")
            return "unknown key\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) (\(valid))"
        case .unknownParameter(let name, let known):
            let expected = known.isEmpty ? "it takes none" : "expected one of: \(known.joined(separator: ", "))"
            return "unknown parameter '\(name)' (\(expected))"
        case .unreadable(let why), .syntax(let why), .invalid(let why), .conflicting(_, let why):
            return why
        case .inReferencedFile(let part, let inner), .within(let part, let inner):
            return "\(part): \(text(of: inner))"
        case .formatClash(let inner, let detected, let declared, let declaredAt):
            return "\(text(of: inner)); the file reads as \(detected), not the declared \(declared)"
                + (declaredAt.map { " at \($0)" } ?? "")
        case .located(let inner, let position):
            return "\(text(of: inner)) (\(position))"
        case .setBy(let inner, let setting):
            return "\(text(of: inner)) (set by \(setting))"
        case .doesNotApply(let target, let hint):
            return "does not apply to \(target)" + (hint.map { " (\($0))" } ?? "")
        case .needs(let needed, let reason):
            return "needs \(needed)" + (reason.map { " (\($0))" } ?? "")
        case .unsupported(let peer, let supports, let found, let reason):
            return "\(peer) supports only \(supports), got \(found)" + (reason.map { " (\($0))" } ?? "")
        }
    }
}
