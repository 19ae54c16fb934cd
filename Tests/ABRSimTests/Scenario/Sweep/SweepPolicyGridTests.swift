import Testing

@testable import ABRSim

@Suite("policy grids")
struct SweepPolicyGridTests {
    func labels(_ text: String) throws -> [String] { try PolicyGrid.expand(text).map(\.label) }

    @Test("a policy grid range lists every step up to its end, with a default step of 1")
    func aRangeWithAStepListsEveryValueUpToTheEnd() throws {
        #expect(try labels("bba(reservoir=5..15:5)") == ["bba(reservoir=5)", "bba(reservoir=10)", "bba(reservoir=15)"])
        #expect(try labels("bba(reservoir=5..14:5)") == ["bba(reservoir=5)", "bba(reservoir=10)"])
        #expect(try labels("bba(reservoir=1..3)") == ["bba(reservoir=1)", "bba(reservoir=2)", "bba(reservoir=3)"])
        #expect(try labels("bba(reservoir=4..4)") == ["bba(reservoir=4)"])
    }

    @Test("decimal grid steps give the values as written, not floating-point sums")
    func decimalStepsGiveTheValuesAsWrittenNotTheirFloatingPointSums() throws {
        let specs = try PolicyGrid.expand("throughput(safety=0.7..1:0.1)")
        #expect(specs.map(\.label) == (7...10).map { "throughput(safety=\($0 == 10 ? "1" : "0.\($0)"))" })
        #expect(specs[2].parameters[0].value == .number(0.9))
    }

    @Test("grid alternatives may be numbers or words, expanded in order as a product")
    func alternativesMayBeNumbersOrWords() throws {
        let specs = try PolicyGrid.expand("throughput(estimator=ewma|harmonic,safety=0.8|0.9)")
        #expect(
            specs.map(\.label) == [
                "throughput(estimator=ewma,safety=0.8)", "throughput(estimator=ewma,safety=0.9)",
                "throughput(estimator=harmonic,safety=0.8)", "throughput(estimator=harmonic,safety=0.9)",
            ])
        #expect(specs[1].parameters[1].value == .number(0.9))
        #expect(specs[2].parameters[0].value == .text("harmonic"))
    }

    @Test("a policy without a grid expands to itself")
    func specsWithoutGridsExpandToThemselves() throws {
        #expect(try PolicyGrid.expand("bba") == [PolicySpec(name: "bba")])
        #expect(try PolicyGrid.expand("bba(reservoir=5)") == [PolicySpec.parse("bba(reservoir=5)")])
    }

    @Test("empty, backward, malformed or huge grids are refused, naming the option")
    func emptyBackwardOrHugeGridsAreRejectedWithTheParameterNamed() throws {
        func within(_ text: String, _ parameter: String, _ problem: InputProblem) -> InputProblem {
            .within("'\(text)': parameter '\(parameter)'", problem)
        }
        let limit = PolicyGrid.maximumExpansion
        for (text, problem) in [
            (
                "bba(reservoir=9..1)",
                within(
                    "bba(reservoir=9..1)", "reservoir=9..1",
                    .mustBeRelative(
                        "the range's end", found: "1", rule: "at least", other: "its start", otherValue: "9"))
            ),
            (
                "bba(reservoir=1..9:-1)",
                within("bba(reservoir=1..9:-1)", "reservoir=1..9:-1", .mustBe("the step", rule: "> 0", found: "-1"))
            ),
            (
                "bba(reservoir=1..x)",
                within(
                    "bba(reservoir=1..x)", "reservoir=1..x",
                    .expected("a range LOW..HIGH or LOW..HIGH:STEP of numbers", found: "'1..x'"))
            ),
            (
                "bba(reservoir=a||b)",
                within(
                    "bba(reservoir=a||b)", "reservoir=a||b", .mustBe("an alternative", rule: "non-empty", found: "''"))
            ),
            (
                "bba(reservoir=0..1e9)",
                within(
                    "bba(reservoir=0..1e9)", "reservoir=0..1e9",
                    .mustBe("the range's count of values", rule: "at most \(limit)", found: "1000000001"))
            ),
            (
                "bba(reservoir=1..400,cushion=1..400)",
                .within(
                    "'bba(reservoir=1..400,cushion=1..400)'",
                    .overLimit("a grid of at least 160000 combinations", limit: "\(limit)"))
            ),
        ] {
            let error = try #require(throws: InputError.self) { try PolicyGrid.expand(text, source: "--policies") }
            #expect(error.place == .option("--policies"))
            #expect(error.problem == problem, "\(error)")
        }
    }
}
