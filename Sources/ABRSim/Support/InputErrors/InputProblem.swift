/// What is wrong with a user's input, as data: the kind of problem and its particulars (what was expected,
/// what was found, the valid choices). ``InputErrorMessage`` renders it; tests compare it.
///
/// The cases are few on purpose: a reader picks the one that says what kind of mistake the user made, and
/// ``invalid(_:)`` states any other rule the input breaks.
public indirect enum InputProblem: Equatable, Sendable {
    /// A value of the wrong kind or form: `expected E, found F` (`expected a number, found "x"`).
    case expected(String, found: String)
    /// A value outside its valid range: `expected W B, found F` with `what` such as `a number`, the `bound`
    /// such as `in 0…10` or `> 0`, the value `found` as the user wrote it and its `unit` if it has one
    /// (`expected a number > 0, found -1 s`).
    case outOfRange(what: String, bound: String, found: String, unit: String? = nil)
    /// Something required is absent: `missing W` (`missing key "content"`, `missing column rate`).
    case missing(String)
    /// A name that is not among the valid ones: `unknown K 'n' (known: a, b)` (`unknown policy 'bbb' (known: …)`).
    case unknownName(String, kind: String, known: [String])
    /// Keys of a JSON object that its decoder does not read: `unknown key "x" (expected one of: a, b)`; with no
    /// `known` keys, `(this object takes no keys)`. The keys are shown as given (callers quote them).
    case unknownKeys([String], known: [String])
    /// The file cannot be read at all: `no such file`, `is a directory, expected a file`, `cannot open: …`.
    case unreadable(String)
    /// The text does not parse: `unterminated string`, `trailing comma before ']'`.
    case syntax(String)
    /// Options or keys that cannot be given together (or of which exactly one is needed); the `reason` names
    /// them for users (`give either equals or min/max, not both`).
    case conflicting([String], reason: String)
    /// The input breaks a rule stated in words (`the times must increase`).
    case invalid(String)
    /// A problem with a file named at this place, not in it: `x.down: no such file`.
    case inReferencedFile(String, InputProblem)
    /// A trace that reads as another format than the one declared: `…; the file reads as csv, not the declared
    /// mahimahi`, and where it was declared if known (` at s.json: $.network.format`).
    case formatClash(InputProblem, detected: String, declared: String, declaredAt: String? = nil)
    /// A problem caused by a command-line setting: `… (set by --set a=b)`.
    case setBy(InputProblem, setting: String)
}
