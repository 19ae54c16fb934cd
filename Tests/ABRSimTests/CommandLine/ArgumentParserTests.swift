import Testing

@testable import ABRSim

/// A command shaped like `abrsim run`, used by most tests.
private let run = CommandSpec(
    name: "abrsim run", summary: "Run one scenario and write its CSV tables.",
    positionals: [
        PositionalSpec("SCENARIO", help: "The scenario file"),
        PositionalSpec("TRACE", help: "Traces to run instead of the scenario's", isOptional: true, isVariadic: true),
    ],
    options: [
        .option("out", valueName: "DIR", help: "Output directory", defaultValue: "results"),
        .option("seed", valueName: "N", help: "Random seed"),
        .option("rate", valueName: "X", help: "Playback rate"),
        .option("policy", valueName: "NAME", help: "A policy to compare", isRepeatable: true),
        .flag("verbose", help: "Print progress"),
    ])

/// The error from parsing `args` and then reading `--seed` and `--rate` (where declared) as numbers, or `nil`
/// (recorded as a failure when it is another kind of error).
private func failure(_ args: [String], spec: CommandSpec = run) -> InputError? {
    do {
        let parsed = try parse(args, spec: spec)
        if spec.option(named: "seed") != nil { _ = try parsed.int("seed") }
        if spec.option(named: "rate") != nil { _ = try parsed.double("rate") }
        return nil
    } catch let error as InputError {
        return error
    } catch {
        Issue.record("not an InputError: \(error)")
        return nil
    }
}

/// The options of ``run`` as an unknown option's error lists them.
private let runOptions = ["--out", "--seed", "--rate", "--policy", "--verbose", "--help"]

@Suite("the command-line parser")
struct ArgumentParserTests {
    @Test("options in both spellings, a flag and positionals before and after them are read into their places")
    func optionsFlagsAndPositionalsAreRead() throws {
        let parsed = try parse(["study.json", "--out", "o", "--verbose", "--seed=7", "a.csv", "b.csv"], spec: run)
        #expect(parsed.positionals == ["study.json", "a.csv", "b.csv"])
        #expect(parsed.positional("SCENARIO") == "study.json")
        #expect(parsed.positionalValues("TRACE") == ["a.csv", "b.csv"])
        #expect(parsed.value("out") == "o")
        #expect(try parsed.int("seed") == 7)
        #expect(parsed.flag("verbose"))
        #expect(!parsed.flag("help"))
        #expect(!parsed.helpRequested)
    }

    @Test("absent options take their declared defaults or nothing, and absent flags are off")
    func defaultsApplyWhenOptionsAreAbsent() throws {
        let parsed = try parse(["s.json"], spec: run)
        #expect(parsed.value("out") == "results")
        #expect(parsed.values("out") == ["results"])
        #expect(parsed.value("seed") == nil)
        #expect(try parsed.int("seed") == nil)
        #expect(try parsed.double("rate") == nil)
        #expect(parsed.values("policy") == [])
        #expect(!parsed.flag("verbose"))
        #expect(parsed.positionalValues("TRACE") == [])
    }

    @Test("a repeatable option collects every value in order, and its single value is the last")
    func repeatableOptionsCollectEveryValue() throws {
        let parsed = try parse(["--policy", "bba", "s.json", "--policy=bola", "--policy", "mpc"], spec: run)
        #expect(parsed.values("policy") == ["bba", "bola", "mpc"])
        #expect(parsed.value("policy") == "mpc")
    }

    @Test("after -- every argument is a positional, even one that looks like an option or -h")
    func doubleDashEndsOptions() throws {
        let parsed = try parse(["--seed", "1", "--", "--odd-name.json", "-h"], spec: run)
        #expect(parsed.positionals == ["--odd-name.json", "-h"])
        #expect(!parsed.helpRequested)
    }

    @Test("option values may be negative numbers, empty, contain = or be a lone -")
    func valuesMayBeNegativeNumbersEmptyOrContainEquals() throws {
        let parsed = try parse(["-", "--rate", "-0.5", "--seed=-3", "--out=", "--policy", "a=b"], spec: run)
        #expect(try parsed.double("rate") == -0.5)
        #expect(try parsed.int("seed") == -3)
        #expect(parsed.value("out") == "")
        #expect(parsed.value("policy") == "a=b")
        #expect(parsed.positionals == ["-"])
    }

    @Test(
        "-h or --help is seen before an unknown option or a missing value is reported",
        arguments: [["-h"], ["--help"], ["s.json", "--bogus", "--help"], ["--out", "-h"]])
    func helpIsDetectedBeforeAnyOtherCheck(args: [String]) throws {
        let parsed = try parse(args, spec: run)
        #expect(parsed.helpRequested)
        #expect(parsed.flag("help"))
    }

    @Test(
        "each command-line mistake is its own problem, placed at the option when there is one and no file",
        arguments: [
            (["s.json", "--foo"], InputError(.none, .unknownName("--foo", kind: "option", known: runOptions))),
            (["s.json", "--foo=1"], InputError(.none, .unknownName("--foo", kind: "option", known: runOptions))),
            (["s.json", "-x"], InputError(.none, .unknownName("-x", kind: "option", known: runOptions))),
            (["s.json", "--out"], InputError(.option("--out"), .required("a value"))),
            (["s.json", "--out", "--verbose"], InputError(.option("--out"), .required("a value"))),
            (["s.json", "--out", "--"], InputError(.option("--out"), .required("a value"))),
            ([], InputError(.none, .missing("SCENARIO"))),
            (["--verbose"], InputError(.none, .missing("SCENARIO"))),
            (["s.json", "--seed", "x"], InputError(.option("--seed"), .expected("an integer", found: "'x'"))),
            (["s.json", "--seed", "1.5"], InputError(.option("--seed"), .expected("an integer", found: "'1.5'"))),
            (["s.json", "--rate", "fast"], InputError(.option("--rate"), .expected("a number", found: "'fast'"))),
            (["s.json", "--rate", "nan"], InputError(.option("--rate"), .expected("a number", found: "'nan'"))),
            (
                ["s.json", "--verbose=yes"],
                InputError(.option("--verbose"), .expected("no value (it is a flag)", found: "'yes'"))
            ),
            (["s.json", "--verbose", "--verbose"], InputError(.none, .duplicate("--verbose", of: "option"))),
            (["s.json", "--out", "a", "--out=b"], InputError(.none, .duplicate("--out", of: "option"))),
        ])
    func everyMistakeHasItsProblem(args: [String], error: InputError) {
        #expect(failure(args) == error)
    }

    @Test("a positional beyond those declared is refused, naming the argument and the command")
    func extraPositionalsAreRejected() {
        let check = CommandSpec(
            name: "abrsim check", summary: "Check.", positionals: [PositionalSpec("SCENARIO", help: "")])
        #expect(
            failure(["a.json", "b.json"], spec: check)
                == InputError(.none, .expected("no more arguments for 'abrsim check'", found: "'b.json'")))
        let none = CommandSpec(name: "abrsim policies", summary: "List policies.")
        #expect(
            failure(["x"], spec: none)
                == InputError(.none, .expected("no more arguments for 'abrsim policies'", found: "'x'")))
    }

    @Test("a required variadic positional needs at least one argument and then takes them all")
    func aRequiredVariadicPositionalNeedsOneArgument() throws {
        let info = CommandSpec(
            name: "abrsim trace info", summary: "Describe traces.",
            positionals: [PositionalSpec("TRACE", help: "Trace files", isVariadic: true)])
        #expect(failure([], spec: info) == InputError(.none, .noneGiven("TRACE")))
        #expect(try parse(["a", "b"], spec: info).positionalValues("TRACE") == ["a", "b"])
    }

    @Test("an optional positional is nil when left out and read when given")
    func optionalPositionalsMayBeLeftOut() throws {
        let plot = CommandSpec(
            name: "abrsim plot", summary: "Plot results.",
            positionals: [
                PositionalSpec("RESULTS", help: "Results directory"),
                PositionalSpec("OUT", help: "Plot directory", isOptional: true),
            ])
        #expect(try parse(["r"], spec: plot).positional("OUT") == nil)
        #expect(try parse(["r", "p"], spec: plot).positional("OUT") == "p")
    }

    @Test("the usage text lists the summary, arguments, options with defaults and repeatability, and help")
    func usageListsArgumentsOptionsDefaultsAndHelp() {
        let expected = """
            abrsim run — Run one scenario and write its CSV tables.

            Usage: abrsim run [options] SCENARIO [TRACE...]

            Arguments:
              SCENARIO  The scenario file
              TRACE...  Traces to run instead of the scenario's

            Options:
              --out DIR      Output directory (default: results)
              --seed N       Random seed
              --rate X       Playback rate
              --policy NAME  A policy to compare (repeatable)
              --verbose      Print progress
              -h, --help     Show this help and exit

            """
        #expect(run.usage() == expected)
    }

    @Test("an option too long for the column puts its help on the next line, aligned")
    func longOptionNamesPutTheirHelpOnTheNextLine() {
        let spec = CommandSpec(
            name: "abrsim tune", summary: "Tune.",
            options: [.option("an-extremely-long-option-name", valueName: "VALUE", help: "Long")])
        let lines = spec.usage().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = lines.firstIndex(of: "  --an-extremely-long-option-name VALUE")
        #expect(at != nil)
        #expect(at.map { lines[$0 + 1] } == "  " + String(repeating: " ", count: 26) + "  Long")
    }
}

/// ``ListArgument``: commas inside parentheses belong to the item; empty items and unbalanced parentheses are errors.
@Suite("list arguments")
struct ListArgumentTests {
    @Test("a list argument splits at commas outside parentheses, trims items and flattens repeated options")
    func itemsAreSplitAtTopLevelCommasAndTrimmed() throws {
        #expect(
            try ListArgument.items(" bba , robust-mpc(horizon=5, window=3),festive ", location: "--policies")
                == ["bba", "robust-mpc(horizon=5, window=3)", "festive"])
        #expect(try ListArgument.items("a((b),c)", location: "--x") == ["a((b),c)"])
        #expect(
            try ListArgument.items(["bba", "bola,throughput"], location: "--policies") == ["bba", "bola", "throughput"])
    }

    @Test(
        "an empty list, an empty item or unbalanced parentheses are refused, naming the option",
        arguments: [
            ("", InputProblem.empty("list", no: "items")), ("  ", .empty("list", no: "items")),
            (",", .missing("item 1 of ',' (a stray comma?)")), ("a,", .missing("item 2 of 'a,' (a stray comma?)")),
            ("a,,b", .missing("item 2 of 'a,,b' (a stray comma?)")),
            (" ,a", .missing("item 1 of ' ,a' (a stray comma?)")),
            ("a(", .unpaired("'(' in 'a('", missing: "its ')'")), ("a)", .unpaired("')' in 'a)'", missing: "its '('")),
            ("a(b)),c(", .unpaired("')' in 'a(b)),c('", missing: "its '('")),
        ])
    func emptyItemsAndUnbalancedParenthesesAreRefused(text: String, problem: InputProblem) {
        let error = #expect(throws: InputError.self) { try ListArgument.items(text, location: "--policies") }
        #expect(error?.place == .option("--policies"))
        #expect(error?.problem == problem, "\(String(describing: error))")
    }
}
