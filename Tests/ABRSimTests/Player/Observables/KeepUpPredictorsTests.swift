import Testing

@testable import ABRSim

@Suite("the keep-up predictor registry")
struct KeepUpPredictorsTests {
    /// Parameters from a dictionary, out-of-range values thrown as the decoder does.
    struct Parameters: KeepUpParameters {
        var values: [String: Double]
        struct OutOfRange: Error { var name: String }

        func number(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let value = values[name] else { return nil }
            guard range.contains(value) else { throw OutOfRange(name: name) }
            return value
        }
    }

    /// A predictor a user might add: likely once the buffer holds `seconds`.
    struct BufferAtLeast: KeepUpPredictor {
        var seconds: Double
        func evaluate(_ context: KeepUpContext) -> KeepUpVerdict {
            context.bufferSeconds >= seconds ? .likely : .unlikely(recheckAt: nil)
        }
    }

    @Test("the built-in predictors are registered under their scenario names")
    func builtInNames() {
        #expect(KeepUpPredictors.registry.names == ["playThrough", "lastVariantPlayThrough", "fixedThreshold"])
    }

    @Test("a registered factory builds its predictor from the scenario's parameters")
    func factoriesReadTheirParameters() throws {
        let fixed = try KeepUpPredictors.makePredictor(
            "fixedThreshold", parameters: Parameters(values: ["startSeconds": 8, "afterStallSeconds": 3]))
        let threshold = try #require(fixed as? FixedThresholdPredictor)
        #expect(threshold.startSeconds == 8 && threshold.afterStallSeconds == 3)
        let last = try KeepUpPredictors.makePredictor(
            "lastVariantPlayThrough", parameters: Parameters(values: ["safetyFactor": 0.5]))
        let playThrough = try #require(last as? PlayThroughPredictor)
        #expect(playThrough.variants == .lastChosen && playThrough.safetyFactor == 0.5)
        #expect(playThrough.resumeHorizonSeconds == .infinity && playThrough.minimumBufferSeconds == 1)
        #expect(throws: Parameters.OutOfRange.self) {
            try KeepUpPredictors.makePredictor("playThrough", parameters: Parameters(values: ["safetyFactor": 0]))
        }
        #expect(try KeepUpPredictors.makePredictor("noSuchPredictor", parameters: Parameters(values: [:])) == nil)
    }

    /// A scenario naming `predictor` on a constant link.
    static func scenario(predictor: String) -> [UInt8] {
        Array(
            """
            {"network": {"preset": "lte"},
             "content": {"ladderKbps": [500, 1000], "segmentSeconds": 2, "durationSeconds": 20},
             "players": [{"id": "p", "policy": "throughput",
                          "keepUp": {"predictor": "\(predictor)", "seconds": 6}}]}
            """.utf8)
    }

    @Test("adding a predictor is one registration: a scenario can name it, and the decoder's error lists it")
    func addingAPredictor() throws {
        let loader = ScenarioLoader()
        let factory: KeepUpPredictors.Factory = { BufferAtLeast(seconds: try $0.number("seconds", in: 0...100) ?? 4) }
        try KeepUpPredictors.registry.withRegistered(factory, name: "bufferAtLeast") {
            let scenario = try loader.load(
                json: Self.scenario(predictor: "bufferAtLeast"), label: "s.json", directory: ".", defaultName: "s")
            #expect((scenario.players[0].settings.keepUpPredictor as? BufferAtLeast)?.seconds == 6)
            #expect(
                KeepUpPredictors.registry.alternatives
                    == "playThrough, lastVariantPlayThrough, fixedThreshold or bufferAtLeast")
        }
        #expect(throws: InputError.self) {
            try loader.load(
                json: Self.scenario(predictor: "bufferAtLeast"), label: "s.json", directory: ".", defaultName: "s")
        }
        #expect(listedAsAlternatives(["one"]) == "one")
        #expect(listedAsAlternatives([]) == "")
    }
}
