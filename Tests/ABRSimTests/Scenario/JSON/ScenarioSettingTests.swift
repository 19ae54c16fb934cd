import Testing

@testable import ABRSim

/// `--set` edits, grid axes, and the split and aggregate of `tune --traces`.
@Suite("the --set edits, grid axes and tune's networks")
struct ScenarioSettingTests {
    /// Parsed afresh for each use (a stored static would keep its tree to exit, which LeakSanitizer reports).
    static var document: JSONValue {
        get throws {
            try JSONParser.parse(
                Array(#"{"players": [{"id": "a"}, {"id": "b", "rate": 1}], "my key": {"x": 1}}"#.utf8), file: "s.json")
        }
    }

    @Test("--set paths are read in the syntax of the error messages, and malformed ones are refused")
    func pathsInTheSyntaxOfTheErrorMessages() throws {
        #expect(
            try ScenarioSetting.parsePath("$.players[0].policy", option: "--set") == [
                .key("players"), .index(0), .key("policy"),
            ])
        #expect(
            try ScenarioSetting.parsePath("players[*].rate", option: "--set") == [
                .key("players"), .everyElement, .key("rate"),
            ])
        #expect(try ScenarioSetting.parsePath(#"$["my key"].x"#, option: "--set") == [.key("my key"), .key("x")])
        #expect(try ScenarioSetting.parse(#"$["my key"].x=2"#).canonicalPath == #"$["my key"].x"#)
        for bad in ["", "$", "players[", "players[-1]", "players..x", "players x"] {
            #expect(throws: InputError.self) { try ScenarioSetting.parsePath(bad, option: "--set") }
        }
    }

    @Test("--set values are JSON or else bare words, and broken JSON is refused")
    func valuesAreJSONOrBareWords() throws {
        #expect(try ScenarioSetting.parse("a=4").value == .number(4))
        #expect(try ScenarioSetting.parse("a=false").value == .bool(false))
        #expect(try ScenarioSetting.parse("a=bba").value == .string("bba"))
        #expect(try ScenarioSetting.parse("a=3g").value == .string("3g"))
        #expect(try ScenarioSetting.parse(#"a="x=y""#).value == .string("x=y"))
        #expect(try ScenarioSetting.parse(#"a={"b": [1]}"#).value == .object(JSONObject([("b", .array([.number(1)]))])))
        #expect(throws: InputError.self) { try ScenarioSetting.parse("a={") }
    }

    @Test("--set edits every element, creates missing objects and names where an edit cannot go on")
    func editsSetEveryElementCreateMissingObjectsAndNameWhereTheyStop() throws {
        let every = try ScenarioSetting.parse("players[*].rate=2").apply(to: Self.document, file: "s.json")
        guard case .object(let root) = every, case .array(let players)? = root["players"] else {
            Issue.record("not an object")
            return
        }
        for player in players {
            guard case .object(let object) = player else { continue }
            #expect(object["rate"] == .number(2))
        }
        let created = try ScenarioSetting.parse("allocation.strategy=equal").apply(to: Self.document, file: "s.json")
        guard case .object(let withAllocation) = created, case .object(let allocation)? = withAllocation["allocation"]
        else {
            Issue.record("no allocation object")
            return
        }
        #expect(allocation["strategy"] == .string("equal"))
        let outOfRange = #expect(throws: InputError.self) {
            try ScenarioSetting.parse("players[2].rate=1").apply(to: Self.document, file: "s.json")
        }
        #expect(outOfRange?.place == .jsonPath("s.json", "$.players"))
        let throughString = #expect(throws: InputError.self) {
            try ScenarioSetting.parse("players[0].id.x=1").apply(to: Self.document, file: "s.json")
        }
        #expect(throughString?.place.position == .jsonPath("$.players[0].id"))
    }

    @Test("a decoding error inside an edited value is traced to the --set that made it")
    func anErrorInsideAnEditedValueIsTracedToItsSetting() throws {
        let setting = try ScenarioSetting.parse("players[*].rate=x")
        #expect(setting.isCause(ofErrorAt: "$.players[3].rate", problem: .expected("a number", found: "\"x\"")))
        #expect(setting.isCause(ofErrorAt: "$.players[3].rate.y", problem: .invalid("…")))
        #expect(!setting.isCause(ofErrorAt: "$.players[3].rates", problem: .invalid("…")))
        #expect(!setting.isCause(ofErrorAt: "$.players[3]", problem: .missing("key \"id\"")))
        let typo = try ScenarioSetting.parse("players[0].rat=1")
        #expect(typo.isCause(ofErrorAt: "$.players[0]", problem: .unknownKeys(["\"rat\""], known: ["id", "rate"])))
        #expect(!typo.isCause(ofErrorAt: "$.players[0]", problem: .unknownKeys(["\"rte\""], known: ["id", "rate"])))
        #expect(!typo.isCause(ofErrorAt: "$.players[0]", problem: .invalid("unknown key \"rat\"")))
    }

    @Test("grid axes refuse empty or repeated values and keys that cannot vary in the run")
    func gridAxesRefuseEmptyAndRepeatedValuesAndKeysThatCannotVary() throws {
        let axis = try SweepGridAxis.parse("players[*].preferredForwardBufferDuration=10|30|60")
        #expect(axis.values.map(\.value) == [.number(10), .number(30), .number(60)])
        #expect(axis.values.map(\.valueText) == ["10", "30", "60"])
        #expect(throws: InputError.self) { try SweepGridAxis.parse("seed=1||2") }
        #expect(throws: InputError.self) { try SweepGridAxis.parse("seed=1|1.0") }
        #expect(throws: InputError.self) { try SweepGridAxis.parse("seed") }
        #expect(throws: InputError.self) {
            try SweepGridAxis.parse("network.preset=lte|3g").checkVaries(traces: true, policies: false, seed: false)
        }
        try SweepGridAxis.parse("network.rttMs=20|80").checkVaries(traces: true, policies: false, seed: false)
        try SweepGridAxis.parse("network.preset=lte|3g").checkVaries(traces: false, policies: false, seed: false)
        #expect(throws: InputError.self) {
            try SweepGridAxis.parse("expect=[]|[]").checkVaries(traces: false, policies: false, seed: false)
        }
    }

    @Test("the tune holdout split is seeded, disjoint, complete, in file order and never empty")
    func theHoldoutSplitIsSeededDisjointAndComplete() throws {
        let files = (0..<10).map { "t\($0)" }
        let split = try TuneNetworks.split(files, holdout: 0.3, seed: 7)
        #expect(split.holdout.count == 3 && split.training.count == 7)
        #expect(Set(split.holdout).isDisjoint(with: split.training))
        #expect((split.training + split.holdout).sorted() == files.sorted())
        #expect(split.training == files.filter { split.training.contains($0) }, "each part keeps the files' order")
        #expect(try TuneNetworks.split(files, holdout: 0.3, seed: 7) == split)
        let others = (1...20).map { try! TuneNetworks.split(files, holdout: 0.3, seed: UInt64($0)).holdout }
        #expect(Set(others).count > 5, "the seed chooses the held-out networks")
        #expect(try TuneNetworks.split(["a", "b"], holdout: 0.01, seed: 1).holdout.count == 1)
        #expect(try TuneNetworks.split(["a", "b"], holdout: 0.99, seed: 1).training.count == 1)
        #expect(throws: InputError.self) { try TuneNetworks.split(["a"], holdout: 0.5, seed: 1) }
        #expect(throws: InputError.self) { try TuneNetworks.split(files, holdout: 1, seed: 1) }
    }

    @Test("aggregates over networks are the mean or GSL's percentile, and tuning scores combine by the mean")
    func aggregatesOverNetworks() throws {
        let values: [Double?] = [4, 1, 3, 2]
        #expect(NetworkAggregate.mean.combine(values) == 2.5)
        // GSL's quantile: sorted 1 2 3 4, position (n − 1)·q: q = 0.1 → 0.3 → 1.3; q = 0.5 → 2.5.
        #expect(abs(try #require(NetworkAggregate.percentile(10).combine(values)) - 1.3) < 1e-12)
        #expect(NetworkAggregate.percentile(50).combine(values) == 2.5)
        #expect(NetworkAggregate.percentile(100).combine(values) == 4)
        #expect(NetworkAggregate.mean.combine([1, nil]) == nil)
        #expect(try NetworkAggregate.parse("p10", location: "--aggregate") == .percentile(10))
        #expect(throws: InputError.self) { try NetworkAggregate.parse("p101", location: "--aggregate") }
        #expect(throws: InputError.self) { try NetworkAggregate.parse("median", location: "--aggregate") }
        let networks = TuneNetworks(traces: [], rttSeconds: 0, aggregate: .mean)
        let combined = networks.combine([
            TuneScore(value: 2, maximises: true, violation: 0), TuneScore(value: 4, maximises: true, violation: 0.5),
        ])
        #expect(combined.value == 3 && combined.violation == 0.25 && !combined.isFeasible)
    }
}
