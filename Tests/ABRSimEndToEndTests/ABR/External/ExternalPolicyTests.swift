import ABRSimTestSupport
import Testing

@testable import ABRSim

/// BBA-0 in Swift with the rule of `scenarios/policies/bba.py` (reservoir 5 s, cushion 10 s), as the reference.
final class ReferenceBBA: ABRPolicy {
    func decide(_ context: ABRContext) -> ABRDecision {
        let n = context.content.variantCount
        let buffer = context.bufferSeconds
        let variant: Int
        if buffer < 5 {
            variant = 0
        } else if buffer >= 15 {
            variant = n - 1
        } else {
            variant = Int((Double(n - 1) * (buffer - 5) / 10).rounded(.down))
        }
        return .variant(min(variant, context.maxVariant))
    }
}

/// The external policy: the protocol end to end with a Python BBA-0, and every way a child can fail.
@Suite("external policies end to end")
struct ExternalPolicyTests {
    /// The repository's root.
    static let root = TestPaths.packageRoot

    func run(_ policy: any ABRPolicy, segments: Int = 20) throws -> SimulationResult {
        let curve = try OptimalFixture.pensieveCurve("norway_bus_1")
        let content = try Content.constantBitrate(
            ladderKbps: OptimalFixture.pensieveLadderKbps, segmentSeconds: 4, segmentCount: segments)
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = 30
        let player = PlayerConfiguration(
            id: "p", content: content, policy: policy, policyLabel: "test", settings: settings,
            estimator: LastSampleEstimator())
        return Simulation(curve: curve, players: [player]).run()
    }

    func make(_ spec: PolicySpec, directory: String? = nil) throws -> any ABRPolicy {
        try PolicyRegistry.builtIn.makePolicy(
            spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0, directory: directory))
    }

    /// An external policy running a Python snippet.
    func python(_ code: String, timeout: Double? = nil) throws -> any ABRPolicy {
        var parameters: [(name: String, value: PolicySpec.Value)] = [("command", .list(["python3", "-c", code]))]
        if let timeout { parameters.append(("timeout", .number(timeout))) }
        return try make(PolicySpec(name: "external", parameters: parameters))
    }

    func failure(of result: SimulationResult) -> String? {
        if case .failed(let reason) = result.totals[0].finalState { return reason }
        return nil
    }

    @Test("the Python BBA chooses the same variants as a Swift reference BBA, across three rungs or more")
    func pythonBBAMatchesTheSwiftReference() throws {
        let external = try make(
            PolicySpec(name: "external", parameters: [("command", .list(["python3", "bba.py"]))]),
            directory: Self.root + "/scenarios/policies")
        let outside = try run(external)
        let reference = try run(ReferenceBBA())
        #expect(outside.totals[0].finalState == .ended)
        let variants = outside.segments[0].map(\.variant)
        #expect(variants == reference.segments[0].map(\.variant))
        // The run crosses BBA's thresholds: it uses the bottom, the top and something in between.
        #expect(Set(variants).count >= 3)
    }

    @Test("a garbage reply fails the player, naming the policy, the segment and the reply")
    func garbageReplyFailsThePlayerNamingThePolicy() throws {
        let policy = try python("import sys\nfor line in sys.stdin: print('hello', flush=True)")
        let reason = try #require(failure(of: try run(policy)))
        #expect(reason.hasPrefix("external policy 'external(command=[python3 -c"))
        #expect(reason.contains("segment 0") && reason.contains("not a JSON object") && reason.contains("'hello'"))
    }

    @Test("a reply of a variant outside the ladder fails the player")
    func outOfRangeVariantFailsThePlayer() throws {
        let policy = try python("import sys\nfor line in sys.stdin: print('{\"variant\": 9}', flush=True)")
        let reason = try #require(failure(of: try run(policy)))
        #expect(reason.contains("external policy '") && reason.contains("variant 9 is outside 0…5"))
    }

    @Test("a policy crash fails the player with its exit status and stderr")
    func crashFailsThePlayerWithItsStderr() throws {
        let code = "import sys\nsys.stdin.readline()\nraise RuntimeError('model file missing')"
        let reason = try #require(failure(of: try run(try python(code))))
        #expect(reason.contains("external policy '") && reason.contains("closed its output before replying"))
        #expect(reason.contains("exit status 1"))
        #expect(reason.contains("RuntimeError: model file missing"))
    }

    @Test("a policy that stops after three decisions fails the player at the fourth")
    func crashAfterSomeDecisionsFailsAtTheNextOne() throws {
        let code = "import sys\nfor i in range(3):\n    sys.stdin.readline()\n    print('{\"variant\": 0}', flush=True)"
        let result = try run(try python(code))
        let reason = try #require(failure(of: result))
        #expect(reason.contains("segment 3"))
        #expect(result.segments[0].count == 3)
    }

    @Test("a hanging policy fails the player within its timeout")
    func hangTimesOut() throws {
        let start = ChildProcess.now()
        let policy = try python("import sys, time\nsys.stdin.readline()\ntime.sleep(30)", timeout: 0.5)
        let reason = try #require(failure(of: try run(policy)))
        #expect(reason.contains("external policy '") && reason.contains("no reply within 0.5 s"))
        #expect(ChildProcess.now() - start < 10 * TestPaths.timeScale)
    }

    @Test("a missing policy program or command is an input error naming the policy")
    func missingProgramIsAnInputError() throws {
        #expect {
            try make(PolicySpec(name: "external", parameters: [("command", .list(["/nonexistent/abr-model"]))]))
        } throws: { error in
            "\(error)".contains("external policy 'external(command=[/nonexistent/abr-model])'")
                && "\(error)".contains("cannot start")
        }
        #expect(throws: InputError.self) { try make(PolicySpec(name: "external")) }
    }

    @Test("an external command may be given as words on the command line")
    func commandMayBeWordsFromTheCommandLine() throws {
        let spec = try PolicySpec.parse("external(command=python3 bba.py,timeout=2)")
        let policy = try make(spec, directory: Self.root + "/scenarios/policies")
        let result = try run(policy, segments: 4)
        #expect(result.totals[0].finalState == .ended)
    }
}
