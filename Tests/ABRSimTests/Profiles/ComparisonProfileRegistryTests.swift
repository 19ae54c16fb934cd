import ABRSimTestSupport
import Testing

@testable import ABRSim

/// A profile of the test's own, registered for one test: ABRSim's model on the first two segments only, with no
/// scenario player. It shows that a new profile is one conforming type (with its engine) plus one registration.
private struct TwoSegmentProfile: ComparisonProfile {
    var name: String { "two-segments" }

    func checkArguments(scenarioGiven: Bool) throws {
        if scenarioGiven {
            throw InputError(.option("--scenario"), .notApplicable(nil, onlyFor: nil, here: "the two-segments profile"))
        }
    }

    func run(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport] {
        var short = plan
        short.content = try plan.content.prefix(segments: 2)
        return try FaithfulProfile().run(short, registry: registry, jobs: jobs)
    }
}

@Suite("the comparison profile registry")
struct ComparisonProfileRegistryTests {
    @Test("a registered profile is found by --profile and its engine runs every policy on every trace")
    func aRegisteredProfileRunsThroughComparison() throws {
        let traces = ["norway_tram_1", "TMobile-LTE-short.down"].map { TestPaths.scenarios + "/traces/" + $0 }
        let content = try Content.constantBitrate(ladderKbps: [300, 1200], segmentSeconds: 4, segmentCount: 6)
        let policies = try ["bba", "throughput"].map { try PolicySpec.parse($0) }
        let arguments = ["--traces", "x", "--profile", "two-segments"]
        #expect(Profile.requestedName(in: arguments) == "two-segments")
        #expect(Profile(rawValue: "two-segments") == nil)
        try Profile.registry.withRegistered(TwoSegmentProfile(), name: "two-segments") {
            let profile = try #require(Profile(rawValue: Profile.requestedName(in: arguments)!))
            #expect(try Profile.runOwnCommand(arguments, sweep: false) == nil)
            #expect(
                throws: InputError(
                    .option("--scenario"), .notApplicable(nil, onlyFor: nil, here: "the two-segments profile"))
            ) {
                try profile.definition.checkArguments(scenarioGiven: true)
            }
            var plan = ComparisonPlan(traces: traces, content: content, policies: policies)
            plan.model = profile
            let reports = try Comparison.run(plan, jobs: 1)
            // Policy-major, two segments each, the same runs as the faithful model on two-segment content.
            var faithful = ComparisonPlan(traces: traces, content: try content.prefix(segments: 2), policies: policies)
            faithful.model = .faithful
            let expected = try Comparison.run(faithful, jobs: 1)
            #expect(reports.map { $0.players[0].policy } == ["bba", "bba", "throughput", "throughput"])
            #expect(reports.allSatisfy { $0.players[0].segments.count == 2 })
            #expect(
                reports.map { $0.players[0].segments.map(\.doneTime) }
                    == expected.map {
                        $0.players[0].segments.map(\.doneTime)
                    })
        }
        #expect(Profile.registry.names == ["faithful", "pensieve"])
    }

    @Test("the pensieve profile's policy defaults come from the policies' descriptors")
    func pensieveDefaultsAreKeyedByDescriptor() throws {
        let bba = PensieveProfile.policySpecDefaults(try PolicySpec.parse("bba(cushion=20)"))
        #expect(bba.parameters.map(\.name) == ["cushion", "reservoir"])
        let mpc = PensieveProfile.policySpecDefaults(try PolicySpec.parse("robust-mpc"))
        #expect(mpc.parameters.map(\.name).contains("planningSizeOffset"))
        #expect(PensieveProfile.policySpecDefaults(try PolicySpec.parse("bola")).parameters.isEmpty)
        #expect(
            PensieveProfile.policyDefaults.allSatisfy {
                PolicyRegistry.builtIn.descriptors.map(\.name).contains($0.policy.name)
            })
    }
}
