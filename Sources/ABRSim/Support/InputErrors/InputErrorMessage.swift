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

    /// `count` as a message says it: in words up to ten (`two`), in digits above.
    static func countInWords(_ count: Int) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return words.indices.contains(count) ? words[count] : String(count)
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
        case .duplicate(let value, let what, let other):
            return "\(what) '\(value)' is given twice" + (other.map { " (also at \($0))" } ?? "")
        case .outOfOrder(let subject, let order, let found, let previous):
            return "\(subject) must \(order), got \(found) after \(previous)"
        case .mustBeRelative(let subject, let found, let rule, let other, let otherValue, let unit):
            let suffix = unit.map { " \($0)" } ?? ""
            return "\(subject) \(found)\(suffix) must be \(rule) \(other)"
                + (otherValue.map { " (\($0)\(suffix))" } ?? "")
        case .notApplicable(let subject, let applies, let here, let hint):
            let rule =
                applies.map { "is only for \($0)" + (here.map { ", not \($0)" } ?? "") }
                ?? "does not apply to \(here ?? "this input")"
            return subjected(subject, rule) + (hint.map { " (\($0))" } ?? "")
        case .missingPrerequisite(let subject, let needed, let reason):
            return subjected(subject, "needs \(needed)") + (reason.map { " (\($0))" } ?? "")
        case .tooFew(let what, let least, let found, let container):
            return "\(container) needs at least \(countInWords(least)) \(what), found \(found)"
        case .exactlyOne(let alternatives, let found):
            let choices = listedAsAlternatives(alternatives)
            guard !found.isEmpty else { return "give one of \(choices)" }
            let given = found.count == 1 ? found[0] : found.dropLast().joined(separator: ", ") + " and " + found.last!
            return "give exactly one of \(choices), found \(given)"
        case .changesNothing(let subject, let reason):
            return "\(reason), so \(subject) changes nothing"
        case .damaged(let what):
            return "is damaged: \(what)"
        case .differs(let subject, let other, let difference):
            return "\(subject) differs from \(other)" + (difference.map { " (\($0))" } ?? "")
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
        case .withAdvice(let inner, let advice):
            return "\(text(of: inner)); \(advice)"
        case .unpaired(let what, let missing):
            return "\(what) without \(missing)"
        case .disagrees(let what, let found, let other, let elsewhere):
            return "\(what) is \(found), but \(other) in \(elsewhere)"
        case .unsupported(let peer, let supports, let found, let reason):
            return "\(peer) supports only \(supports), got \(found)" + (reason.map { " (\($0))" } ?? "")
        }
    }
}
