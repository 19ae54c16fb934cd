/// The recursive-descent parser behind ``TuneObjective/parse(_:source:file:)``: one pass over the characters,
/// errors that quote the whole text and say what was expected where.
struct TuneObjectiveParser {
    let characters: [Character]
    let text: String
    let source: String
    let file: String?
    var position = 0

    init(text: String, source: String, file: String?) {
        self.characters = Array(text)
        self.text = text
        self.source = source
        self.file = file
    }

    mutating func parseObjective() throws -> TuneObjective {
        let direction = try word("'max' or 'min'")
        let maximises: Bool
        switch direction.lowercased() {
        case "max", "maximise", "maximize": maximises = true
        case "min", "minimise", "minimize": maximises = false
        default: throw failure(.expected("'max' or 'min' at the start", found: "'\(direction)'"))
        }
        let goal = try parseTerm()
        var constraints: [TuneConstraint] = []
        skipSpaces()
        if position < characters.count {
            let keyword = try word("'subject to'").lowercased()
            if keyword == "subject" {
                let to = try word("'to' after 'subject'")
                guard to.lowercased() == "to" else {
                    throw failure(.expected("'to' after 'subject'", found: "'\(to)'"))
                }
            } else if keyword != "st" && keyword != "s.t." {
                throw failure(.expected("'subject to' after the objective term", found: "'\(keyword)'"))
            }
            constraints.append(try parseConstraint())
            while true {
                skipSpaces()
                if position >= characters.count { break }
                if characters[position] == "," {
                    position += 1
                } else {
                    let joiner = try word("'and'")
                    guard joiner.lowercased() == "and" else {
                        throw failure(.expected("'and' between constraints", found: "'\(joiner)'"))
                    }
                }
                constraints.append(try parseConstraint())
            }
        }
        return TuneObjective(maximises: maximises, goal: goal, constraints: constraints)
    }

    mutating func parseTerm() throws -> TuneTerm {
        var name = try word("a metric")
        var aggregate: TuneAggregate?
        if let parsed = TuneAggregate(rawValue: name.lowercased()) {
            aggregate = parsed
            name = try word("a metric after '\(parsed.rawValue)'")
        }
        guard let metric = TuneMetric(rawValue: name.lowercased()) else {
            throw failure(.unknownName(name, kind: "metric", known: TuneMetric.allCases.map(\.rawValue)))
        }
        var selectors: [String] = []
        skipSpaces()
        if position < characters.count, characters[position] == "[" {
            position += 1
            var current = ""
            while true {
                guard position < characters.count else { throw failure(.missing("the ']' that closes the '['")) }
                let character = characters[position]
                position += 1
                if character == "," || character == "]" {
                    let selector = current.trimmingSpaces()
                    guard !selector.isEmpty else {
                        throw failure(
                            .mustBe("a player selector in \(metric.rawValue)[…]", rule: "non-empty", found: "''"))
                    }
                    selectors.append(selector)
                    current = ""
                    if character == "]" { break }
                } else {
                    current.append(character)
                }
            }
        }
        if metric.isRunLevel && (aggregate != nil || !selectors.isEmpty) {
            throw failure(
                .notApplicable(
                    "an aggregate or [players]", onlyFor: "per-player metrics",
                    here: "\(metric.rawValue), which belongs to the whole run"))
        }
        return TuneTerm(aggregate: aggregate, metric: metric, selectors: selectors)
    }

    mutating func parseConstraint() throws -> TuneConstraint {
        let term = try parseTerm()
        skipSpaces()
        let isUpper: Bool
        if matches("<=") {
            isUpper = true
        } else if matches(">=") {
            isUpper = false
        } else {
            throw failure(.expected("'<=' or '>=' after \(term)", found: foundHere))
        }
        skipSpaces()
        let start = position
        while position < characters.count, characters[position].isNumberCharacter { position += 1 }
        let numberText = String(characters[start..<position])
        guard var bound = Double(numberText), bound.isFinite else {
            throw failure(
                .expected(
                    "a number after the comparison in the constraint on \(term)",
                    found: numberText.isEmpty ? foundHere : "'\(numberText)'"))
        }
        skipSpaces()
        if position < characters.count, characters[position] == "%" {
            position += 1
            bound /= 100
        }
        return TuneConstraint(term: term, isUpperBound: isUpper, bound: bound)
    }

    /// The next word: letters, digits, `_`, `.`; empty input is an error saying what was `expected`.
    mutating func word(_ expected: String) throws -> String {
        skipSpaces()
        let start = position
        while position < characters.count,
            characters[position].isLetter || characters[position].isNumber
                || characters[position] == "_" || characters[position] == "."
        {
            position += 1
        }
        guard position > start else {
            throw failure(.expected(expected, found: foundHere))
        }
        return String(characters[start..<position])
    }

    mutating func matches(_ token: String) -> Bool {
        let tokenCharacters = Array(token)
        guard position + tokenCharacters.count <= characters.count,
            Array(characters[position..<(position + tokenCharacters.count)]) == tokenCharacters
        else { return false }
        position += tokenCharacters.count
        return true
    }

    mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    /// The character at the current position as an error quotes it, or `the end`.
    var foundHere: String { position < characters.count ? "'\(characters[position])'" : "the end" }

    /// `problem` within the objective's text, at its source.
    func failure(_ problem: InputProblem) -> InputError {
        InputError(
            InputPlace(file: file, position: InputPlace.Position(text: source)),
            .within("bad objective '\(text)'", problem))
    }
}

extension Character {
    /// Whether the character can be part of a decimal number such as `-1.5e-3`.
    var isNumberCharacter: Bool { isNumber || self == "." || self == "-" || self == "+" || self == "e" || self == "E" }
}

extension String {
    /// The string without leading and trailing white space.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
