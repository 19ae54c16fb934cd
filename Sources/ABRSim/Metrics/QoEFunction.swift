/// One QoE model's quality function and session score: what `summary.csv`'s `qoe_*` columns, the offline
/// optimum, comparisons and the MPC planner's objective are computed with.
///
/// Each model is one conforming type (``LinearQoE``, ``LogQoE``, ``HDQoE``, ``MMSysNQoE``) listed in ``QoEModel/registry``; code
/// outside the Metrics folder names models by ``QoEModel`` and scores through ``QoEScorer`` or ``QoETally``.
/// q is unitless (the linear model's is Mbit/s); bitrates are declared bit/s, times seconds. Pure, thread-safe.
public protocol QoEFunction: Sendable {
    /// The name scenarios and policy parameters give (`linear`, `log`, `hd`).
    var name: String { get }
    /// The model's published weights (μ per stall second, λ per unit of |Δq|, μₛ per startup second).
    var defaultWeights: QoEWeights { get }
    /// q of every rung of `ladderBps` (ascending); `explicit`, one value per rung, is a table the model may take
    /// instead of its own (``HDQoE``'s rewards); other models ignore it.
    func qualities(ladderBps: [Double], explicit: [Double]?) -> [Double]
    /// q of a declared bitrate, on or off the ladder; `qualities` are ``qualities(ladderBps:explicit:)``'s.
    func quality(bitrateBps: Double, ladderBps: [Double], qualities: [Double]) -> Double
    /// The session's QoE from the tally of its segments' q, its rebuffer (stall) seconds and startup seconds.
    /// The default is Σq − μ·stall − λ·Σ|Δq| − μₛ·startup (``QoETally/score(weights:stallSeconds:startupSeconds:)``).
    func score(_ tally: QoETally, stallSeconds: Double, startupSeconds: Double, weights: QoEWeights) -> Double
    /// The session's QoE from its segments in play order, each with its own rebuffering and, for live, latency and
    /// playback rate (a live model's terms). The default tallies q of each segment's bitrate and scores the tally
    /// with the segments' summed rebuffering (``score(_:stallSeconds:startupSeconds:weights:)``).
    func score(segments: [QoESegment], ladderBps: [Double], startupSeconds: Double, weights: QoEWeights) -> Double
}

extension QoEFunction {
    public func score(_ tally: QoETally, stallSeconds: Double, startupSeconds: Double, weights: QoEWeights) -> Double {
        tally.score(weights: weights, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }

    public func score(segments: [QoESegment], ladderBps: [Double], startupSeconds: Double, weights: QoEWeights)
        -> Double
    {
        let qualities = qualities(ladderBps: ladderBps, explicit: nil)
        var tally = QoETally()
        var stall = 0.0
        for segment in segments {
            tally.add(quality: quality(bitrateBps: segment.bitrateBps, ladderBps: ladderBps, qualities: qualities))
            stall += segment.rebufferSeconds
        }
        return score(tally, stallSeconds: stall, startupSeconds: startupSeconds, weights: weights)
    }
}

/// One played segment as a per-segment QoE model sees it: what ``QoEFunction/score(segments:ladderBps:startupSeconds:weights:)``
/// scores. Bitrate in bit/s, times in seconds.
public struct QoESegment: Sendable, Equatable {
    /// The segment's declared bitrate.
    public var bitrateBps: Double
    /// Its media duration.
    public var durationSeconds: Double
    /// The rebuffering (stall) it caused.
    public var rebufferSeconds: Double
    /// The live latency when it was logged, `nil` for video on demand.
    public var latencySeconds: Double?
    /// The playback rate when it was logged (1 = real time).
    public var playbackRate: Double

    /// A segment; latency `nil` (VOD) and rate 1 unless given.
    public init(
        bitrateBps: Double, durationSeconds: Double, rebufferSeconds: Double = 0, latencySeconds: Double? = nil,
        playbackRate: Double = 1
    ) {
        self.bitrateBps = bitrateBps
        self.durationSeconds = durationSeconds
        self.rebufferSeconds = rebufferSeconds
        self.latencySeconds = latencySeconds
        self.playbackRate = playbackRate
    }
}

/// Σq and Σ|Δq| of one quality function over a session's segments in play order: the sums every additive QoE
/// model is scored from. Fed by ``SegmentTally`` (one per reported model) and ``QoEScorer``.
public struct QoETally: Sendable, Equatable {
    /// Σ q.
    public private(set) var qualitySum = 0.0
    /// Σ |q(n+1) − q(n)| between consecutive segments.
    public private(set) var qualityChanges = 0.0
    /// q of the last segment added.
    public private(set) var lastQuality: Double?

    /// An empty tally.
    public init() {}

    /// Adds the next segment's q.
    @inline(__always) public mutating func add(quality q: Double) {
        qualitySum += q
        if let lastQuality { qualityChanges += abs(q - lastQuality) }
        lastQuality = q
    }

    /// Σq − μ·stall − λ·Σ|Δq| − μₛ·startup, in that order of operations.
    public func score(weights: QoEWeights, stallSeconds: Double, startupSeconds: Double) -> Double {
        weights.score(quality: qualitySum, stallSeconds: stallSeconds, changes: qualityChanges)
            - weights.cost(startupSeconds: startupSeconds)
    }
}
