import Testing

@testable import ABRSim

/// Sabre's command line refuses each mistake as an ``InputError`` naming the option, with the problem as data.
@Suite("sabre's command line: mistakes as data")
struct SabreCommandLineTests {
    func error(_ arguments: [String]) -> InputError? {
        do {
            _ = try SabreCommandLine.parse(arguments)
            return nil
        } catch { return error as? InputError }
    }

    @Test("a missing, extra or malformed value is refused naming the option and what was found")
    func badValuesAreRefusedWithWhatWasFound() {
        #expect(error(["-b"]) == InputError(.option("-b"), .expected("one argument", found: "none")))
        #expect(error(["-v=1"]) == InputError(.option("-v"), .expected("no value", found: "'1'")))
        #expect(error(["-s", "10"]) == InputError(.option("-s"), .expected("2 arguments", found: "1")))
        #expect(error(["-b", "lots"]) == InputError(.option("-b"), .expected("a float", found: "'lots'")))
        #expect(error(["-rmp", "1.5"]) == InputError(.option("-rmp"), .expected("an integer", found: "'1.5'")))
        #expect(error(["-b", "0"]) == InputError(.option("-b"), .mustBe(nil, rule: "> 0", found: "'0'")))
        #expect(error(["-gp", "inf"]) == InputError(.option("-gp"), .mustBe(nil, rule: "finite", found: "'inf'")))
        #expect(
            error(["-ma", "median"])
                == InputError(.option("-ma"), .oneOf(nil, allowed: ["ewma", "sliding"], found: "median")))
    }

    @Test("what sabre cannot run is refused as unsupported by sabre, with its reason")
    func whatSabreCannotRunIsUnsupported() {
        #expect(
            error(["-a", "bba"])
                == InputError(
                    .option("-a"),
                    .unsupported(
                        by: "sabre", supports: "implemented ABRs", found: "'bba'",
                        reason: "its Bba raises NotImplementedError")))
        #expect(
            error(["-nm", "0"])
                == InputError(
                    .option("-nm"),
                    .unsupported(
                        by: "sabre", supports: "a multiplier > 0", found: "'0'", reason: "it loops forever at 0")))
    }

    @Test("an unknown argument lists sabre's options; an ambiguous prefix lists what it could be")
    func unknownAndAmbiguousOptionsNameTheCandidates() {
        #expect(
            error(["leftover"])
                == InputError(
                    .named("leftover"),
                    .unknownName("leftover", kind: "argument", known: SabreCommandLine.options.map(\.short))))
        #expect(
            error(["--max", "60"]) == nil, "a unique prefix of --max-buffer is accepted")
        #expect(
            error(["--network-m", "2"]) == nil, "a unique prefix of --network-multiplier is accepted")
        #expect(
            error(["--netw", "x"])
                == InputError(
                    .option("--netw"),
                    .expected("a unique option prefix", found: "a prefix of --network or --network-multiplier")))
    }
}
