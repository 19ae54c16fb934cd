import ABRSimTestSupport
import Testing

@testable import ABRSim

/// A policy written outside the library, as a user's own package would: it conforms to the public protocol, is
/// registered by name, and is then used from a scenario file like a built-in one.
final class AlternatingPolicy: ABRPolicy {
    let low: Int
    let high: Int

    init(low: Int, high: Int) {
        self.low = low
        self.high = high
    }

    func decide(_ context: ABRContext) -> ABRDecision {
        .variant(context.segmentIndex.isMultiple(of: 2) ? low : min(high, context.maxVariant))
    }
}

@Suite("a Swift policy registered from outside the library")
struct SwiftPlugInPolicyTests {
    static let low = Parameter.variant("low", default: 0, source: "the lowest rung", "variant of even segments")
    static let high = Parameter.variant("high", default: 1, source: "the second rung", "variant of odd segments")

    static var registry: PolicyRegistry {
        var registry = PolicyRegistry.builtIn
        registry.register(
            PolicyDescriptor(
                name: "alternating", summary: "even segments low, odd segments high (a test plug-in)",
                parameters: [low, high]
            ) { arguments, _ in
                AlternatingPolicy(low: try arguments.value(low), high: try arguments.value(high))
            })
        return registry
    }

    @Test(
        "a policy registered from outside the library runs from a scenario by name, which the built-in registry refuses"
    )
    func aRegisteredPlugInRunsFromAScenario() throws {
        let directory = TestPaths.scratch("plugin")
        let path = writeFile(
            directory, "s.json",
            #"""
            {"name": "plugin", "network": {"preset": "lte"},
             "content": {"ladderKbps": [500, 1000, 2000], "segmentSeconds": 4, "segments": 6},
             "players": [{"id": "p", "policy": "alternating(high=2)"}]}
            """#)
        let scenario = try ScenarioLoader(registry: Self.registry).load(path)
        let report = try ScenarioRunner(registry: Self.registry).run(scenario)
        #expect(report.players[0].policy == "alternating(high=2)")
        #expect(report.players[0].segments.map(\.variant) == [0, 2, 0, 2, 0, 2])
        // The built-in registry does not know it.
        #expect(throws: InputError.self) { try ScenarioLoader().load(path) }
    }
}
