/// One neuron of LoL+'s self-organising map (dash.js v5.1.1 `LearningAbrController.js`): a variant and its learnt
/// state (throughput normalised by the ladder's magnitude, latency / 100, rebuffer seconds, normalised switch).
/// Owned by ``LoLpLearningController``.
public struct LoLpNeuron: Sendable, Equatable {
    /// The variant index.
    public var variant: Int
    /// Its bitrate, bit/s.
    public var bitrateBps: Double
    /// State: throughput.
    public var throughput: Double
    /// State: latency.
    public var latency = 0.0
    /// State: rebuffer.
    public var rebuffer = 0.0
    /// State: switch.
    public var bitrateSwitch = 0.0

    /// The state as a vector (throughput, latency, rebuffer, switch).
    public var state: [Double] { [throughput, latency, rebuffer, bitrateSwitch] }
}
