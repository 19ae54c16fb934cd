import Testing

@testable import ABRSim

struct KeepUpPredictorRegistryTests {
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
        #expect(KeepUpPredictorRegistry.builtIn.names == ["playThrough", "lastVariantPlayThrough", "fixedThreshold"])
    }

    @Test("a registered factory builds its predictor from the scenario's parameters")
    func factoriesReadTheirParameters() throws {
        let registry = KeepUpPredictorRegistry.builtIn
        let fixed = try registry.makePredictor(
            "fixedThreshold", parameters: Parameters(values: ["startSeconds": 8, "afterStallSeconds": 3]))
        let threshold = try #require(fixed as? FixedThresholdPredictor)
        #expect(threshold.startSeconds == 8 && threshold.afterStallSeconds == 3)
        let last = try registry.makePredictor(
            "lastVariantPlayThrough", parameters: Parameters(values: ["safetyFactor": 0.5]))
        let playThrough = try #require(last as? PlayThroughPredictor)
        #expect(playThrough.variants == .lastChosen && playThrough.safetyFactor == 0.5)
        #expect(playThrough.resumeHorizonSeconds == .infinity && playThrough.minimumBufferSeconds == 1)
        #expect(throws: Parameters.OutOfRange.self) {
            try registry.makePredictor("playThrough", parameters: Parameters(values: ["safetyFactor": 0]))
        }
        #expect(try registry.makePredictor("noSuchPredictor", parameters: Parameters(values: [:])) == nil)
    }

    @Test("adding a predictor is one registration, and its name joins the list the decoder's error gives")
    func addingAPredictor() throws {
        var registry = KeepUpPredictorRegistry.builtIn
        registry.register("bufferAtLeast") { BufferAtLeast(seconds: try $0.number("seconds", in: 0...100) ?? 4) }
        let made = try registry.makePredictor("bufferAtLeast", parameters: Parameters(values: ["seconds": 6]))
        #expect((made as? BufferAtLeast)?.seconds == 6)
        #expect(
            PlayerDecoder.alternatives(registry.names)
                == "playThrough, lastVariantPlayThrough, fixedThreshold or bufferAtLeast")
        #expect(PlayerDecoder.alternatives(["one"]) == "one")
    }
}
