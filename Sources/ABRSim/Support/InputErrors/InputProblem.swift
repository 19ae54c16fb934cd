/// What is wrong with a user's input, as data: the kind of problem and its particulars (what was expected,
/// what was found, the valid choices). ``InputErrorMessage`` renders it; tests compare it.
///
/// Each case is a general kind of mistake, named for it (a value out of range, given twice, out of order, in the
/// wrong mode, …): a reader picks the one that says what the user did wrong, and ``invalid(_:)`` is left for the
/// few rules no case states.
public indirect enum InputProblem: Equatable, Sendable {
    /// A value of the wrong kind or form: `expected E, found F` (`expected a number, found "x"`).
    case expected(String, found: String)
    /// A value outside its valid range: `expected W B, found F` with `what` such as `a number`, the `bound`
    /// such as `in 0…10` or `> 0`, the value `found` as the user wrote it and its `unit` if it has one
    /// (`expected a number > 0, found -1 s`).
    case outOfRange(what: String, bound: String, found: String, unit: String? = nil)
    /// A value that breaks its rule: `S must be R, got F` (`backoffFactor must be at least 1, got 0.5`,
    /// `--rtt-ms must be ≥ 0, got -1`), the `subject` left out where the place names it (`must be in 1…8, got 9`);
    /// `found` as the user wrote it, then its `unit` if it has one (`the RTT must be ≥ 0, got -1 s`).
    case mustBe(String?, rule: String, found: String, unit: String? = nil)
    /// A value below 0 where only 0 or more is read: `negative W F U` (`negative bandwidth -5.0 kbit/s`).
    case negative(String, found: String, unit: String)
    /// A word that is not one of a fixed few: `S must be a, b or c, got 'x'` (`kind must be live or event, got
    /// 'vod'`), the `subject` left out where the place names it.
    case oneOf(String?, allowed: [String], found: String)
    /// A value that is not of the kind its field holds: `S F is not W` (`rate_kbps 'x' is not a number`,
    /// `FRAME-RATE=x is not a positive number` with no subject), `found` quoted as the reader shows it.
    case isNot(String, subject: String?, found: String)
    /// A file with nothing to read: `empty W: no P` (`empty trace: no samples`).
    case empty(String, no: String)
    /// A count or size past what ABRSim reads: `F, more than the limit of L` (`300 players, more than the limit of
    /// 256`, `latency 700000 ms, more than the limit of 600000 ms`).
    case overLimit(String, limit: String)
    /// A list whose length does not match another's: `F W for E O` (`3 resolutions for 4 ladder rungs`).
    case countMismatch(found: Int, of: String, expected: Int, per: String)
    /// A list with nothing in it: `C needs at least one W` (`the ladder needs at least one bitrate`), or, with no
    /// `container` (a command's own list), `give at least one W`.
    case noneGiven(String, in: String? = nil)
    /// Something required is absent: `missing W` (`missing key "content"`, `missing column rate`).
    case missing(String)
    /// A required option or part is absent, named by the place or by `what`: `is required`, `W is required`
    /// (`--to FORMAT is required`).
    case required(String? = nil)
    /// A name that is not among the valid ones: `unknown K 'n' (known: a, b)` (`unknown policy 'bbb' (known: …)`).
    case unknownName(String, kind: String, known: [String])
    /// Keys of a JSON object that its decoder does not read: `unknown key "x" (expected one of: a, b)`; with no
    /// `known` keys, `(this object takes no keys)`. The keys are shown as given (callers quote them).
    case unknownKeys([String], known: [String])
    /// A parameter a policy does not declare: `unknown parameter 'x' (expected one of: a, b)`, or `(it takes
    /// none)` for a policy without parameters.
    case unknownParameter(String, known: [String])
    /// The file cannot be read at all: `no such file`, `is a directory, expected a file`, `cannot open: …`.
    case unreadable(String)
    /// The text does not parse: `unterminated string`, `trailing comma before ']'`.
    case syntax(String)
    /// Options or keys that cannot be given together (or of which exactly one is needed); the `reason` names
    /// them for users (`give either equals or min/max, not both`).
    case conflicting([String], reason: String)
    /// A value given twice where each must differ: `O 'V' is given twice` (`player id 'main' is given twice`,
    /// `parameter 'reservoir' is given twice`), with the other place when known (`shard '2/3' is given twice (also
    /// at out-b)`).
    case duplicate(String, of: String, alsoAt: String? = nil)
    /// Values that must come in an order and do not: `S must O, got F after P` (`the times must increase, got 2
    /// after 3`, `bitrates must increase, lowest first, got 500 after 800`).
    case outOfOrder(String, order: String, found: String, after: String)
    /// A value that must stand in a relation to another value: `S F U must be R O (V U)` (`hold-back 2 s must be at
    /// least a target duration (6 s)`, `min 3 must be at most max (1)`), the other's value left out when `nil`.
    case mustBeRelative(String, found: String, rule: String, other: String, otherValue: String?, unit: String? = nil)
    /// A setting that does not apply in this mode or to this kind of input: `S is only for A, not H`
    /// (`dvrWindowSeconds is only for kind live, not event`), `S is only for A` when `here` is `nil`, or, where
    /// the place names the setting and no `onlyFor` is given, `does not apply to H` (`--content: does not apply to
    /// a feed scenario`); then the `hint` in parentheses if there is one.
    case notApplicable(String?, onlyFor: String?, here: String?, hint: String? = nil)
    /// A setting or request that needs another one the input lacks: `S needs N` (`partHoldBackSeconds needs
    /// partTargetSeconds`, `"shared" needs a top-level sharedCache`), `needs N` where the place names the setting
    /// (`--set: needs a feed scenario`); then the `reason` in parentheses if there is one (`--aggregate: needs
    /// --traces (it combines over them)`).
    case missingPrerequisite(String?, needs: String, reason: String? = nil)
    /// Fewer of something than a rule needs: `C needs at least N W, found F` (`a retention curve needs at least two
    /// lines, found 1`, `--holdout needs at least two traces, found 1`), `N` in words up to ten.
    case tooFew(String, atLeast: Int, found: Int, in: String)
    /// Alternatives of which exactly one must be given: `give exactly one of a, b or c, found a and b`, or `give
    /// one of a, b or c` when none was (`give one of fractions, leaveProbabilities or file`).
    case exactlyOne(of: [String], found: [String])
    /// A value that would change nothing where it must change something: `B, so S changes nothing` (`the name labels
    /// the sweep's rows, so this grid axis changes nothing`).
    case changesNothing(String, because: String)
    /// A file ABRSim itself wrote (a sweep's state or index) that is not as ABRSim left it: `is damaged: D`
    /// (`is damaged: line 'done x'`, `is damaged: 120 bytes, shorter than its committed 300`).
    case damaged(String)
    /// Something that belongs with another run or file than the one it is used with: `S differs from O (D)`
    /// (`its sweep differs from that of out-a (runs 4, not 6)`), `(D)` left out when `nil`.
    case differs(String, from: String, difference: String?)
    /// The input breaks a rule stated in words, a rule no other case states (`another abrsim sweep is writing this
    /// folder`).
    case invalid(String)
    /// A problem with one part of what the place names: `P: problem` (`policy 'bola': bufferSeconds must be > 0,
    /// got -1`, `'bola(a=1..x)': parameter 'a=1..x': …`).
    case within(String, InputProblem)
    /// A problem with a file named at this place, not in it: `x.down: no such file`.
    case inReferencedFile(String, InputProblem)
    /// A trace that reads as another format than the one declared: `…; the file reads as csv, not the declared
    /// mahimahi`, and where it was declared if known (` at s.json: $.network.format`).
    case formatClash(InputProblem, detected: String, declared: String, declaredAt: String? = nil)
    /// A problem with the line and column of the value appended, where the place is a JSON path in a long file:
    /// `… (line 3, column 7)`.
    case located(InputProblem, at: String)
    /// A problem caused by a command-line setting: `… (set by --set a=b)`.
    case setBy(InputProblem, setting: String)
    /// A problem with what the user can do about it: `P; A` (`…; remove the folder to start over`).
    case withAdvice(InputProblem, advice: String)
    /// One half of a pair whose other half is absent: `W without M` (`#EXTINF on line 3 without a URI after it`,
    /// `'(' without its ')' in 'a(b'`).
    case unpaired(String, missing: String)
    /// A value that must agree with the same value elsewhere and does not: `W is F, but O in E` (`segment 3's
    /// duration is 4 s, but 2 s in low.m3u8 (line 7)`).
    case disagrees(String, found: String, other: String, in: String)
    /// A value a profile's peer (the program it reproduces) cannot represent: `P supports only S, got F`, then the
    /// `reason` in parentheses if there is one (`the mmgc22 profile supports only a window of 4, got 3 (the
    /// challenge's player knows the playing clip and the next 4)`).
    case unsupported(by: String, supports: String, found: String, reason: String? = nil)
}
