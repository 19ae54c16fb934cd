import Testing

@testable import ABRSim

/// The one renderer of ``InputError``: each problem and place becomes the line users see.
@Suite("input errors render to one line")
struct InputErrorMessageTests {
    @Test("each kind of problem renders its particulars in the words users see")
    func eachProblemRendersItsParticulars() {
        let cases: [(InputProblem, String)] = [
            (.expected("a number", found: "a string"), "expected a number, found a string"),
            (.outOfRange(what: "a number", bound: "in 0…1", found: "2"), "expected a number in 0…1, found 2"),
            (
                .outOfRange(what: "a latency", bound: "≥ 0", found: "-1", unit: "ms"),
                "expected a latency ≥ 0, found -1 ms"
            ),
            (.missing(#"key "content""#), #"missing key "content""#),
            (.required(), "is required"),
            (.required("--to FORMAT"), "--to FORMAT is required"),
            (
                .mustBe("backoffFactor", rule: "at least 1", found: "0.5"),
                "backoffFactor must be at least 1, got 0.5"
            ),
            (.mustBe(nil, rule: "in 1…8", found: "9"), "must be in 1…8, got 9"),
            (.mustBe("the RTT", rule: "≥ 0", found: "-1", unit: "s"), "the RTT must be ≥ 0, got -1 s"),
            (.negative("bandwidth", found: "-5.0", unit: "kbit/s"), "negative bandwidth -5.0 kbit/s"),
            (.oneOf("kind", allowed: ["live", "event"], found: "vod"), "kind must be live or event, got 'vod'"),
            (.oneOf(nil, allowed: ["pc", "mobile", "tv"], found: "x"), "must be pc, mobile or tv, got 'x'"),
            (.isNot("a number", subject: "rate_kbps", found: "'x'"), "rate_kbps 'x' is not a number"),
            (.isNot("a positive number", subject: nil, found: "FRAME-RATE=0"), "FRAME-RATE=0 is not a positive number"),
            (.empty("trace", no: "samples"), "empty trace: no samples"),
            (
                .countMismatch(found: 3, of: "resolutions", expected: 4, per: "ladder rungs"),
                "3 resolutions for 4 ladder rungs"
            ),
            (.noneGiven("bitrate", in: "the ladder"), "the ladder needs at least one bitrate"),
            (.noneGiven("policy"), "give at least one policy"),
            (.overLimit("300 players", limit: "256"), "300 players, more than the limit of 256"),
            (.unknownParameter("x", known: ["a", "b"]), "unknown parameter 'x' (expected one of: a, b)"),
            (.unknownParameter("x", known: []), "unknown parameter 'x' (it takes none)"),
            (
                .within("policy 'bba'", .mustBe("reservoir", rule: "in 0…100 s", found: "-1")),
                "policy 'bba': reservoir must be in 0…100 s, got -1"
            ),
            (.located(.missing("bandwidth_kbps"), at: "line 2, column 2"), "missing bandwidth_kbps (line 2, column 2)"),
            (.unknownName("bbb", kind: "policy", known: ["bba", "bola"]), "unknown policy 'bbb' (known: bba, bola)"),
            (.unknownKeys([#""x""#], known: ["a", "b"]), #"unknown key "x" (expected one of: a, b)"#),
            (.unknownKeys([#""x""#, #""y""#], known: []), #"unknown keys "x", "y" (this object takes no keys)"#),
            (.unreadable("no such file"), "no such file"),
            (.syntax("unterminated string"), "unterminated string"),
            (
                .conflicting(["equals", "min"], reason: "give either equals or min/max, not both"),
                "give either equals or min/max, not both"
            ),
            (.duplicate("main", of: "player id"), "player id 'main' is given twice"),
            (.duplicate("2/3", of: "shard", alsoAt: "out-a"), "shard '2/3' is given twice (also at out-a)"),
            (
                .outOfOrder("the times", order: "increase", found: "2", after: "3"),
                "the times must increase, got 2 after 3"
            ),
            (
                .mustBeRelative(
                    "hold-back", found: "2", rule: "at least", other: "a target duration", otherValue: "6", unit: "s"),
                "hold-back 2 s must be at least a target duration (6 s)"
            ),
            (
                .mustBeRelative("min", found: "3", rule: "at most", other: "max", otherValue: nil),
                "min 3 must be at most max"
            ),
            (
                .notApplicable("dvrWindowSeconds", onlyFor: "kind live", here: "event"),
                "dvrWindowSeconds is only for kind live, not event"
            ),
            (.notApplicable("rttMs", onlyFor: "a stretch", here: nil), "rttMs is only for a stretch"),
            (
                .missingPrerequisite("partHoldBackSeconds", needs: "partTargetSeconds"),
                "partHoldBackSeconds needs partTargetSeconds"
            ),
            (
                .tooFew("lines", atLeast: 2, found: 1, in: "a retention curve"),
                "a retention curve needs at least two lines, found 1"
            ),
            (.tooFew("runs", atLeast: 12, found: 3, in: "shard 1/2"), "shard 1/2 needs at least 12 runs, found 3"),
            (
                .exactlyOne(of: ["pause", "play", "seek"], found: ["pause", "play", "seek"]),
                "give exactly one of pause, play or seek, found pause, play and seek"
            ),
            (.exactlyOne(of: ["a", "b"], found: ["b"]), "give exactly one of a or b, found b"),
            (.exactlyOne(of: ["fractions", "file"], found: []), "give one of fractions or file"),
            (
                .changesNothing("this grid axis", because: "no run reads 'tune'"),
                "no run reads 'tune', so this grid axis changes nothing"
            ),
            (.damaged("line 'done x'"), "is damaged: line 'done x'"),
            (
                .differs("its sweep", from: "that of a", difference: "runs 4, not 6"),
                "its sweep differs from that of a (runs 4, not 6)"
            ),
            (.differs("this file", from: "the one before", difference: nil), "this file differs from the one before"),
            (
                .withAdvice(.damaged("incomplete"), advice: "remove the folder to start over"),
                "is damaged: incomplete; remove the folder to start over"
            ),
            (.invalid("the times must increase"), "the times must increase"),
            (.inReferencedFile("x.down", .unreadable("no such file")), "x.down: no such file"),
            (
                .formatClash(.invalid("bad line"), detected: "csv", declared: "mahimahi"),
                "bad line; the file reads as csv, not the declared mahimahi"
            ),
            (
                .formatClash(
                    .invalid("bad line"), detected: "csv", declared: "mahimahi", declaredAt: "s.json: $.network.format"),
                "bad line; the file reads as csv, not the declared mahimahi at s.json: $.network.format"
            ),
            (
                .setBy(.expected("a number", found: "a string"), setting: "--set rate=x"),
                "expected a number, found a string (set by --set rate=x)"
            ),
        ]
        for (problem, words) in cases {
            #expect(InputErrorMessage.text(of: problem) == words)
            #expect(InputError(.none, problem).description == words)
        }
    }

    @Test("the place comes first as file then position, and absent parts are left out")
    func thePlaceComesFirst() {
        let problem = InputProblem.invalid("bad")
        #expect(InputError(.line("t.csv", 3), problem).description == "t.csv: line 3: bad")
        #expect(InputError(.lineColumn("s.json", 2, 7), problem).description == "s.json: line 2, column 7: bad")
        #expect(InputError(.jsonPath("s.json", "$.players[0]"), problem).description == "s.json: $.players[0]: bad")
        #expect(InputError(.option("--policies"), problem).description == "--policies: bad")
        #expect(InputError(.named("piece 3"), problem).description == "piece 3: bad")
        #expect(InputError(.file("t.csv"), problem).description == "t.csv: bad")
        #expect(InputError(.none, problem).description == "bad")
    }

    @Test("a rendered line holds no control character a user's input put in it")
    func controlCharactersAreShownEscaped() {
        let error = InputError(.jsonPath("s\nx.json", "$"), .unknownName("a\tb", kind: "policy", known: ["bba"]))
        #expect(error.description == #"s\nx.json: $: unknown policy 'a\tb' (known: bba)"#)
        #expect(!error.description.contains("\n"))
    }

    @Test("a position written as text reads back as the same kind of position")
    func positionsReadBackFromTheirText() {
        let positions: [InputPlace.Position] = [
            .line(12), .lineColumn(line: 3, column: 9), .jsonPath("$.a[1]"), .option("--out"), .named("piece 2"),
        ]
        for position in positions {
            #expect(InputPlace.Position(text: InputErrorMessage.text(of: position)) == position)
        }
        #expect(InputPlace.Position(text: "line 0") == .named("line 0"))
        #expect(InputPlace.Position(text: "line 01") == .named("line 01"))
    }
}
