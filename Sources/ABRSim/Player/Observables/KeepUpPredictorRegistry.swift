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
/// The scenario decoder looks names up here (``builtIn``), and its error for an unknown name lists
/// ``names``. Adding a predictor is one file (the type, conforming to ``KeepUpPredictor``, with its factory) and
/// one ``register(_:_:)`` line in ``builtIn``.
public struct KeepUpPredictorRegistry: Sendable {
    /// Builds a predictor from its parameters (throwing bad input for a value out of range).
    public typealias Factory = @Sendable (any KeepUpParameters) throws -> any KeepUpPredictor

    private var factories: [(name: String, factory: Factory)] = []

    /// An empty registry.
    public init() {}

    /// The registered names, in registration order.
    public var names: [String] { factories.map(\.name) }

    /// Registers `factory` under `name` (replacing an earlier registration of that name).
    public mutating func register(_ name: String, _ factory: @escaping Factory) {
        factories.removeAll { $0.name == name }
        factories.append((name, factory))
    }

    /// The predictor registered as `name`, built from `parameters`; `nil` when no predictor has that name.
    public func makePredictor(_ name: String, parameters: any KeepUpParameters) throws -> (any KeepUpPredictor)? {
        guard let entry = factories.first(where: { $0.name == name }) else { return nil }
        return try entry.factory(parameters)
    }

    /// The built-in predictors: `playThrough` (the default), `lastVariantPlayThrough` and `fixedThreshold`.
    public static let builtIn: KeepUpPredictorRegistry = {
        var registry = KeepUpPredictorRegistry()
        registry.register("playThrough") { try PlayThroughPredictor(PlayThroughPredictor(), parameters: $0) }
        registry.register("lastVariantPlayThrough") {
            try PlayThroughPredictor(PlayThroughPredictor.lastVariant, parameters: $0)
        }
        registry.register("fixedThreshold") { try FixedThresholdPredictor(parameters: $0) }
        return registry
    }()
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
