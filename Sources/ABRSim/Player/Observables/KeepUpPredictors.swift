/// The named parameters a scenario gives a keep-up predictor (`keepUp` in a player's settings).
///
/// Implemented by the scenario decoder over the JSON object; a predictor's factory reads the parameters it knows,
/// and any other key is bad input. Values are numbers in the units each parameter names.
public protocol KeepUpParameters {
    /// The number under `name`, if given; a value outside `range` is bad input (thrown, with its place).
    func number(_ name: String, in range: ClosedRange<Double>) throws -> Double?
}

/// The keep-up predictors a scenario can name (`{"predictor": NAME, …}`), each with the factory that builds it
/// from its parameters.
///
/// The scenario decoder looks names up in ``registry``, and its error for an unknown name lists its names.
/// Adding a predictor is one file (the type, conforming to ``KeepUpPredictor``, with its factory) and one
/// `KeepUpPredictors.registry.register(factory, name:)` call (or one entry in the built-in list).
public enum KeepUpPredictors: Seam {
    /// Builds a predictor from its parameters (throwing bad input for a value out of range).
    public typealias Factory = @Sendable (any KeepUpParameters) throws -> any KeepUpPredictor

    /// The built-in predictors, `playThrough` (the default), `lastVariantPlayThrough` and `fixedThreshold`, then
    /// any registered later.
    public static let registry = Registry<Factory>([
        ("playThrough", { try PlayThroughPredictor(PlayThroughPredictor(), parameters: $0) }),
        ("lastVariantPlayThrough", { try PlayThroughPredictor(PlayThroughPredictor.lastVariant, parameters: $0) }),
        ("fixedThreshold", { try FixedThresholdPredictor(parameters: $0) }),
    ])

    /// The predictor registered as `name`, built from `parameters`; `nil` when no predictor has that name.
    public static func makePredictor(_ name: String, parameters: any KeepUpParameters) throws
        -> (any KeepUpPredictor)?
    {
        guard let factory = registry.member(named: name) else { return nil }
        return try factory(parameters)
    }
}

extension PlayThroughPredictor {
    /// `base` with the parameters given: `minimumBufferSeconds`, `safetyFactor`, `resumeHorizonSeconds`.
    init(_ base: PlayThroughPredictor, parameters: any KeepUpParameters) throws {
        self = base
        if let x = try parameters.number("minimumBufferSeconds", in: ScenarioBounds.bufferSeconds) {
            minimumBufferSeconds = x
        }
        if let x = try parameters.number("safetyFactor", in: 0.001...1000) { safetyFactor = x }
        if let x = try parameters.number("resumeHorizonSeconds", in: 0.001...86_400) { resumeHorizonSeconds = x }
    }
}

extension FixedThresholdPredictor {
    /// The defaults with the parameters given: `startSeconds`, `afterStallSeconds`.
    init(parameters: any KeepUpParameters) throws {
        self.init()
        if let x = try parameters.number("startSeconds", in: ScenarioBounds.bufferSeconds) { startSeconds = x }
        if let x = try parameters.number("afterStallSeconds", in: ScenarioBounds.bufferSeconds) {
            afterStallSeconds = x
        }
    }
}
