/// The per-segment NQoE of the ACM MMSys 2020 Twitch low-latency challenge, as LoL's `QoeEvaluator` computes it
/// (NUStreaming/LoL, `dash.js/samples/low-latency/abr/LoL_qoeEvaluator.js`): a bitrate reward minus switch,
/// rebuffering, latency and playback-speed penalties, each a running weighted sum over the logged segments.
///
/// Set up once per session with the segment duration and the ladder's extremes (LoL's `setupPerSegmentQoe`), then
/// call ``logSegmentMetrics(bitrateKbps:rebufferSeconds:latencySeconds:playbackSpeed:)`` once per downloaded
/// segment; ``totalQoe`` is the score so far. Units: bitrates kbit/s (as the ladder gives them), rebuffering and
/// latency seconds, playback speed a rate (1 = real time). A pure value: no clock, no I/O. Called by the reference
/// tests and, through a QoE model, by the metrics of a live run; inputs must be finite (the caller checks them).
public struct LiveNQoE: Sendable, Equatable {
    /// The weight of each term, derived from the session's segment duration and ladder.
    public struct Weights: Sendable, Equatable {
        /// Reward per kbit/s of a segment's bitrate: the segment duration in seconds (1 when none is given).
        public var bitrateReward: Double
        /// Penalty per kbit/s of a bitrate change between consecutive segments: 1.
        public var bitrateSwitchPenalty: Double
        /// Penalty per second of rebuffering: the ladder's top bitrate in kbit/s (1000 when none is given).
        public var rebufferPenalty: Double
        /// Penalty per second of latency while the latency is at most ``lowLatencyThresholdSeconds``: the ladder's
        /// lowest bitrate × 0.05.
        public var lowLatencyPenalty: Double
        /// Penalty per second of latency above ``lowLatencyThresholdSeconds`` (up to
        /// ``highLatencyThresholdSeconds``): the ladder's top bitrate × 0.1.
        public var highLatencyPenalty: Double
        /// Penalty per unit of |1 − playback speed|: the ladder's lowest bitrate in kbit/s (200 when none is given).
        public var playbackSpeedPenalty: Double

        /// The latency (seconds) up to which ``lowLatencyPenalty`` applies: 1.1 s.
        public static let lowLatencyThresholdSeconds = 1.1
        /// The latency (seconds) up to which ``highLatencyPenalty`` applies: 10⁸ s. A latency above it adds
        /// nothing, as in LoL.
        public static let highLatencyThresholdSeconds = 100_000_000.0

        /// The weights LoL derives. A duration or bitrate of 0 or NaN counts as not given (LoL tests them for
        /// truth) and takes the default named on each weight; the latency penalties use the bitrates as given.
        public init(segmentDurationSeconds: Double, maxBitrateKbps: Double, minBitrateKbps: Double) {
            func given(_ x: Double) -> Double? { x == 0 || x.isNaN ? nil : x }
            bitrateReward = given(segmentDurationSeconds) ?? 1
            bitrateSwitchPenalty = 1
            rebufferPenalty = given(maxBitrateKbps) ?? 1000
            lowLatencyPenalty = minBitrateKbps * 0.05
            highLatencyPenalty = maxBitrateKbps * 0.1
            playbackSpeedPenalty = given(minBitrateKbps) ?? 200
        }

        /// The penalty per second for a segment logged at `latencySeconds`, `nil` above the last threshold.
        public func latencyPenalty(atLatencySeconds latencySeconds: Double) -> Double? {
            if latencySeconds <= Self.lowLatencyThresholdSeconds { return lowLatencyPenalty }
            if latencySeconds <= Self.highLatencyThresholdSeconds { return highLatencyPenalty }
            return nil
        }
    }

    /// The session's weights.
    public let weights: Weights
    /// Σ bitrate reward × bitrate (kbit/s·s).
    public private(set) var bitrateWeightedSum = 0.0
    /// Σ switch penalty × |bitrate − previous bitrate| (kbit/s).
    public private(set) var bitrateSwitchWeightedSum = 0.0
    /// Σ rebuffer penalty × rebuffering seconds.
    public private(set) var rebufferWeightedSum = 0.0
    /// Σ latency penalty (by band) × latency seconds.
    public private(set) var latencyWeightedSum = 0.0
    /// Σ speed penalty × |1 − playback speed|.
    public private(set) var playbackSpeedWeightedSum = 0.0
    /// The score so far: bitrate − switch − rebuffer − latency − speed sums, subtracted in that order.
    public private(set) var totalQoe = 0.0
    /// The previous segment's bitrate in kbit/s; a switch is counted only after a non-zero one (as LoL does).
    public private(set) var lastBitrateKbps: Double?
    /// How many segments have been logged.
    public private(set) var segmentCount = 0

    /// A session with no segments yet, its weights derived from the segment duration (seconds) and the ladder's top
    /// and lowest bitrates (kbit/s): LoL's `setupPerSegmentQoe(segmentDuration, maxBitrateKbps, minBitrateKbps)`.
    public init(segmentDurationSeconds: Double, maxBitrateKbps: Double, minBitrateKbps: Double) {
        weights = Weights(
            segmentDurationSeconds: segmentDurationSeconds, maxBitrateKbps: maxBitrateKbps,
            minBitrateKbps: minBitrateKbps)
    }

    /// Adds one segment: its bitrate (kbit/s), the rebuffering it caused (seconds), the live latency (seconds) and
    /// the playback speed when it was logged; updates every weighted sum and ``totalQoe``.
    public mutating func logSegmentMetrics(
        bitrateKbps: Double, rebufferSeconds: Double, latencySeconds: Double, playbackSpeed: Double
    ) {
        bitrateWeightedSum += weights.bitrateReward * bitrateKbps
        if let last = lastBitrateKbps, last != 0 {
            bitrateSwitchWeightedSum += weights.bitrateSwitchPenalty * abs(bitrateKbps - last)
        }
        lastBitrateKbps = bitrateKbps
        rebufferWeightedSum += weights.rebufferPenalty * rebufferSeconds
        if let penalty = weights.latencyPenalty(atLatencySeconds: latencySeconds) {
            latencyWeightedSum += penalty * latencySeconds
        }
        playbackSpeedWeightedSum += weights.playbackSpeedPenalty * abs(1 - playbackSpeed)
        totalQoe =
            bitrateWeightedSum - bitrateSwitchWeightedSum - rebufferWeightedSum - latencyWeightedSum
            - playbackSpeedWeightedSum
        segmentCount += 1
    }
}
