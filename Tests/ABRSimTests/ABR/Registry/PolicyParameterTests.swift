import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Each policy parameter is declared once (issue 15, item 3): parsing, validation, grids and the `abrsim policies`
/// listing all follow the declarations, and every range boundary is enforced as bad input.
@Suite("policy parameters declared once")
struct PolicyParameterTests {
    static let registry = PolicyRegistry.builtIn
    static var environment: PolicyEnvironment { PolicyEnvironment(seed: 1, playerIndex: 0) }
    /// Policies a test can make without a network, content or a program to start.
    static let makeable = registry.descriptors.filter { !["optimal", "external"].contains($0.name) }

    /// A two-rung ladder: 0 and 1 are its variant indices.
    static let twoRungs = try! Content.constantBitrate(ladderKbps: [500, 1000], segmentSeconds: 4, segmentCount: 3)

    static func spec(_ name: String, _ parameter: String, _ value: PolicySpec.Value) -> PolicySpec {
        PolicySpec(name: name, parameters: [(parameter, value)])
    }

    /// The one-line message `validate` gives for `spec`, or `nil` if it is accepted.
    static func refusal(_ spec: PolicySpec, content: Content? = nil) -> String? {
        do {
            try registry.validate(spec, file: "s.json", location: "$.players[0].policy", content: content)
            return nil
        } catch let error as InputError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The problem `spec` is refused with, `nil` if it is accepted or refused otherwise than by an ``InputError``.
    static func refusalProblem(_ spec: PolicySpec, content: Content? = nil) -> InputProblem? {
        do {
            try registry.validate(spec, file: "s.json", location: "$.players[0].policy", content: content)
            return nil
        } catch {
            return (error as? InputError)?.problem
        }
    }

    /// The rule and the value `spec`'s parameter is refused with: the `mustBe` of its refusal, or `nil`.
    static func refusedRule(_ spec: PolicySpec) -> (rule: String, found: String)? {
        guard case .within(_, .mustBe(_, let rule, let found, _))? = refusalProblem(spec) else { return nil }
        return (rule, found)
    }

    @Test("every built-in policy's declared defaults survive label → parse → the same configuration")
    func defaultsRoundTripThroughTheLabel() throws {
        for descriptor in Self.registry.descriptors {
            let defaults = descriptor.defaultSpec
            let parsed = try PolicySpec.parse(defaults.label)
            #expect(parsed == defaults, "\(descriptor.name): \(defaults.label)")
            #expect(descriptor.resolved(parsed) == descriptor.resolved(PolicySpec(name: descriptor.name)))
            #expect(Self.refusal(parsed) == nil, "\(descriptor.name)")
            let declaredWithDefault = descriptor.parameters.filter { $0.defaultValue != nil }.map(\.name)
            #expect(parsed.parameters.map(\.name) == declaredWithDefault)
        }
    }

    @Test("a policy made from its written-out defaults has the configuration of one made from its name alone")
    func writtenOutDefaultsMakeTheDefaultPolicy() throws {
        func made(_ name: String) throws -> (plain: any ABRPolicy, written: any ABRPolicy) {
            let descriptor = try #require(Self.registry.descriptor(named: name))
            let written = try PolicySpec.parse(descriptor.defaultSpec.label)
            return (
                try Self.registry.makePolicy(PolicySpec(name: name), environment: Self.environment),
                try Self.registry.makePolicy(written, environment: Self.environment)
            )
        }
        let hlsjs = try made("hlsjs")
        #expect((hlsjs.written as? HlsJsPolicy)?.configuration == HlsJsPolicy.Configuration())
        #expect((hlsjs.plain as? HlsJsPolicy)?.configuration == HlsJsPolicy.Configuration())
        let exoplayer = try made("exoplayer")
        #expect((exoplayer.written as? ExoPlayerPolicy)?.configuration == ExoPlayerPolicy.Configuration())
        let shaka = try made("shaka")
        #expect((shaka.written as? ShakaPolicy)?.configuration == ShakaPolicy.Configuration())
        let mpc = try #require(try made("robust-mpc").written as? MPCPolicy)
        let reference = MPCPolicy(robust: true)
        #expect(mpc.horizon == reference.horizon && mpc.window == reference.window)
        #expect(mpc.rebufferPenalty == reference.rebufferPenalty && mpc.smoothnessPenalty == 1)
        #expect(mpc.timing == .includingLatency && mpc.planningSizeOffset == 0 && mpc.isRobust)
        let bba = try #require(try made("bba").written as? BufferBasedPolicy)
        #expect(bba.reservoir == 5 && bba.cushion == 10)
        #expect((try made("fixed").written as? FixedPolicy)?.variant == 0)
        // The published values, written here by hand from the players' sources, are what the declarations hold.
        #expect(HlsJsPolicy.Configuration().bandwidthFactor == 0.95)
        #expect(HlsJsPolicy.Configuration().fastHalfLife == 3 && HlsJsPolicy.Configuration().slowHalfLife == 9)
        #expect(ExoPlayerPolicy.Configuration().bandwidthFraction == 0.7)
        #expect(ShakaPolicy.Configuration().switchInterval == 8)
    }

    @Test("a policy that a value changes is labelled with that value and parses back to it")
    func aChangedValueRoundTrips() throws {
        let spec = try PolicySpec.parse("hlsjs(bandwidthFactor=0.8,emergencySwitchDown=off)")
        #expect(spec.label == "hlsjs(bandwidthFactor=0.8,emergencySwitchDown=off)")
        let policy = try #require(
            try Self.registry.makePolicy(try PolicySpec.parse(spec.label), environment: Self.environment)
                as? HlsJsPolicy)
        var expected = HlsJsPolicy.Configuration()
        expected.bandwidthFactor = 0.8
        expected.emergencySwitchDown = false
        #expect(policy.configuration == expected)
    }

    /// Values on and just outside each declared bound: (value, accepted).
    static func boundaryCases(_ kind: PolicyParameter.Kind) -> [(PolicySpec.Value, Bool)] {
        switch kind {
        case .number(let range):
            var cases: [(PolicySpec.Value, Bool)] = [
                (.number(range.upper), true), (.number(range.upper.nextUp), false),
                (.number(range.lower.nextDown), false),
            ]
            cases.append((.number(range.lower), !range.excludesLower))
            let justAbove = range.lower == 0 ? Double.leastNormalMagnitude : range.lower.nextUp
            cases.append((.number(justAbove), true))
            cases.append((.number(Double.leastNonzeroMagnitude), false))  // denormal
            cases.append((.text("many"), false))
            return cases
        case .count(let range):
            return [
                (.number(Double(range.lowerBound)), true), (.number(Double(range.upperBound)), true),
                (.number(Double(range.lowerBound - 1)), false), (.number(Double(range.upperBound + 1)), false),
                (.number(Double(range.lowerBound) + 0.5), false), (.text("many"), false),
            ]
        case .word(let words):
            return words.map { (.text($0), true) } + [(.text("nonsense"), false), (.number(1), false)]
        case .member(let names):
            return names.names().map { (.text($0), true) } + [(.text("nonsense"), false), (.number(1), false)]
        case .variant:
            return [(.number(0), true), (.number(-1), false), (.number(0.5), false)]
        case .command:
            return [(.list(["true"]), true), (.text("true"), true), (.number(1), false)]
        }
    }

    @Test("every declared range boundary is accepted on the inside and refused outside, naming policy and parameter")
    func everyBoundaryIsEnforced() throws {
        var checked = 0
        for descriptor in Self.registry.descriptors {
            for parameter in descriptor.parameters {
                for (value, accepted) in Self.boundaryCases(parameter.kind) {
                    let spec = Self.spec(descriptor.name, parameter.name, value)
                    let refusal = Self.refusal(spec)
                    checked += 1
                    if accepted {
                        #expect(refusal == nil, "\(spec.label): \(refusal ?? "")")
                        // The factory accepts whatever the declaration accepts.
                        if Self.makeable.contains(where: { $0.name == descriptor.name }) {
                            #expect(throws: Never.self, "\(spec.label)") {
                                _ = try Self.registry.makePolicy(spec, environment: Self.environment)
                            }
                        }
                    } else {
                        let message = try #require(refusal, "\(spec.label) was accepted")
                        #expect(message.hasPrefix("s.json: $.players[0].policy: policy '\(spec.label)': "))
                        guard case .within(let part, .mustBe(let subject, _, _, _))? = Self.refusalProblem(spec) else {
                            Issue.record("\(message) is not a rule on the parameter")
                            continue
                        }
                        #expect(part == "policy '\(spec.label)'")
                        #expect(subject == parameter.name, "\(message)")
                        #expect(!message.contains("\n"))
                        // The factory refuses it the same way when called directly.
                        if Self.makeable.contains(where: { $0.name == descriptor.name }) {
                            #expect(throws: InputError.self, "\(spec.label)") {
                                _ = try Self.registry.makePolicy(spec, environment: Self.environment)
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 300)
    }

    @Test("hand-picked boundaries: MPC's horizon is 1…10, the optimum's grid 0.02…0.5 s, a BBA reservoir ≥ 0")
    func handPickedBoundaries() {
        #expect(Self.refusal(Self.spec("mpc", "horizon", .number(10))) == nil)
        let horizon = Self.refusedRule(Self.spec("mpc", "horizon", .number(11)))
        #expect(horizon?.rule.hasPrefix("a whole number in 1…10") == true && horizon?.found == "11")
        #expect(Self.refusal(Self.spec("mpc", "horizon", .number(0))) != nil)
        #expect(Self.refusal(Self.spec("optimal", "grid", .number(0.02))) == nil)
        #expect(Self.refusal(Self.spec("optimal", "grid", .number(0.5))) == nil)
        let grid = Self.refusedRule(Self.spec("optimal", "grid", .number(0.6)))
        #expect(grid?.rule == "0.02…0.5 s" && grid?.found == "0.6")
        #expect(Self.refusal(Self.spec("bba", "reservoir", .number(0))) == nil)
        let reservoir = Self.refusedRule(Self.spec("bba", "reservoir", .number(-1)))
        #expect(reservoir?.rule == "≥ 0 s" && reservoir?.found == "-1")
        let cushion = Self.refusedRule(Self.spec("bba", "cushion", .number(0)))
        #expect(cushion?.rule == "> 0 s" && cushion?.found == "0")
        let abandon = Self.refusedRule(Self.spec("bola-e", "abandon", .number(2)))
        #expect(abandon?.rule.hasPrefix("a whole number") == true && abandon?.found == "2")
    }

    @Test("a variant index is checked against the ladder when the policy meets the content")
    func variantIndexIsCheckedAgainstTheLadder() throws {
        let seven = try PolicySpec.parse("fixed(variant=7)")
        // Without the content the index cannot be judged.
        #expect(Self.refusal(seven) == nil)
        #expect(
            Self.refusalProblem(seven, content: Self.twoRungs)
                == .within(
                    "policy 'fixed(variant=7)'",
                    .mustBe("variant", rule: "a variant index in 0…1 (the ladder has 2 variants)", found: "7")))
        #expect(Self.refusal(try PolicySpec.parse("fixed(variant=1)"), content: Self.twoRungs) == nil)
        let environment = PolicyEnvironment(seed: 1, playerIndex: 0, content: Self.twoRungs)
        #expect(throws: InputError.self) { try Self.registry.makePolicy(seven, environment: environment) }
        let one = try Self.registry.makePolicy(try PolicySpec.parse("fixed(variant=1)"), environment: environment)
        #expect((one as? FixedPolicy)?.variant == 1)
    }

    @Test("every estimator choice makes a throughput policy with that estimator")
    func everyEstimatorChoiceIsMade() throws {
        #expect(
            EstimatorKind.allCases.map(\.rawValue) == [
                "ewma", "harmonic", "last", "hlsjs", "shaka", "exoplayer", "dashjs-ll", "hlsjs-ll",
            ])
        for kind in EstimatorKind.allCases {
            let policy = try Self.registry.makePolicy(
                Self.spec("throughput", "estimator", .text(kind.rawValue)), environment: Self.environment)
            #expect(policy is ThroughputPolicy)
        }
    }

    @Test("a grid's values are checked against the declaration before any run")
    func gridValuesAreChecked() throws {
        #expect(try PolicyGrid.expand("bba(reservoir=0..10:5)").count == 3)
        #expect(throws: InputError.self) { try PolicyGrid.expand("bba(reservoir=-5..5:5)") }
        do {
            _ = try PolicyGrid.expand("mpc(window=1..2:0.5)", source: "--policies")
            Issue.record("a fractional window was accepted")
        } catch let error as InputError {
            #expect(error.place == .option("--policies"))
            #expect(
                error.problem
                    == .within(
                        "'mpc(window=1..2:0.5)': parameter 'window=1..2:0.5'",
                        .mustBe("window", rule: "a whole number in 1…10000 samples", found: "1.5")))
        }
        #expect(throws: InputError.self) { try PolicyGrid.expand("throughput(estimator=ewma|bogus)") }
        // A grid over a parameter the policy does not declare is left to the registry's check.
        #expect(try PolicyGrid.expand("bba(colour=1|2)").count == 2)
    }
}
