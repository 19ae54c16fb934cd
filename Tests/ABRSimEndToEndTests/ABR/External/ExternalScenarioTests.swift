import Testing

@testable import ABRSim

#if canImport(Glibc)
    import Glibc
#endif

/// External and optimal policies named in a scenario file: a JSON array command run in the scenario's folder,
/// and the network handed to `optimal` by the runner.
@Suite("external and optimal policies in a scenario")
struct ExternalScenarioTests {
    /// Writes `text` to `path`.
    func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw InputError(.none, .invalid("cannot write \(path)")) }
        fputs(text, file)
        fclose(file)
    }

    @Test("a scenario runs its external policy in the scenario's folder, and the optimum beside it")
    func scenarioRunsAnExternalPolicyInItsFolderAndTheOptimum() throws {
        var template = Array("/tmp/abrsim-external-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let folder = String(cString: try #require(created))
        defer {
            unlink(folder + "/policy.py")
            unlink(folder + "/scenario.json")
            rmdir(folder)
        }
        // A policy that only works when started in the scenario's folder (it reads a file beside it).
        try write(
            "import json, sys\nchoice = int(open('policy.py').read().count('x') > 0)\n"
                + "for line in sys.stdin: print(json.dumps({'variant': choice}), flush=True)\n",
            to: folder + "/policy.py")
        try write(
            """
            {"name": "ext", "seed": 1,
             "network": {"stretches": [{"constantKbps": 2000, "seconds": 300}]},
             "content": {"ladderKbps": [500, 1000], "segmentSeconds": 4, "durationSeconds": 16},
             "players": [
               {"id": "a", "policy": {"name": "external", "command": ["python3", "policy.py"], "timeout": 5},
                "automaticallyWaitsToMinimizeStalling": false},
               {"id": "b", "policy": "optimal(qoe=log)", "startSeconds": 50,
                "automaticallyWaitsToMinimizeStalling": false}]}
            """, to: folder + "/scenario.json")
        let scenario = try ScenarioLoader().load(folder + "/scenario.json")
        #expect(scenario.players[0].policy.parameters[0].value == .list(["python3", "policy.py"]))
        let report = try ScenarioRunner().run(scenario)
        #expect(report.players[0].summary.finalState == .ended)
        #expect(report.players[0].segments.map(\.variant) == [1, 1, 1, 1])
        #expect(report.players[0].policy == "external(command=[python3 policy.py],timeout=5)")
        // Alone on 2 Mbit/s after player a has finished, the optimum takes the top variant throughout.
        #expect(report.players[1].segments.map(\.variant) == [1, 1, 1, 1])
    }
}
