/// A registered QoE model, by name: what scenarios (`qoe`), the `optimal` policy's `qoe=` parameter and
/// ``QoEScorer`` pass around.
///
/// The QoE family of MPC and Pensieve: QoE = Σₙ q(Rₙ) − μ·Σₙ Tₙ − λ·Σₙ |q(Rₙ₊₁) − q(Rₙ)| − μₛ·T_startup, with Rₙ
/// the declared bitrate of segment n in play order and Tₙ its rebuffer (stall) seconds; each model supplies q
/// (reference-literature §6; Mao et al., "Neural Adaptive Video Streaming with Pensieve", SIGCOMM 2017, and its
/// `sim/` code; Yin et al., MPC, SIGCOMM 2015): ``linear`` (``LinearQoE``), ``log`` (``LogQoE``), ``hd``
/// (``HDQoE``). λ defaults to 1 and μₛ to 0 for every model (startup is reported on its own).
public typealias QoEModel = Registered<QoEModels>

/// The QoE models scenarios, summaries and the offline optimum can name.
public enum QoEModels: Seam {
    /// Every QoE model; add one with `QoEModel.registry.register(MyQoE(), name: …)`.
    public static let registry: Registry<any QoEFunction> = {
        let models: [any QoEFunction] = [LinearQoE(), LogQoE(), HDQoE(), MMSysNQoE(), ShortVideoQoE()]
        return Registry(models.map { (name: $0.name, member: $0) })
    }()
}

extension Registered where S == QoEModels {
    /// The model `definition` defines, under its own name.
    public init(_ definition: any QoEFunction) { self.init(name: definition.name, definition: definition) }

    /// q(R) = R in Mbit/s.
    public static var linear: QoEModel { QoEModel(LinearQoE()) }
    /// q(R) = ln(R / R_min).
    public static var log: QoEModel { QoEModel(LogQoE()) }
    /// Pensieve's HD reward table.
    public static var hd: QoEModel { QoEModel(HDQoE()) }
    /// The MMSys'20 low-latency challenge's NQoE.
    public static var nqoe: QoEModel { QoEModel(MMSysNQoE()) }

    /// The published weights of this model.
    public var defaultWeights: QoEWeights { definition.defaultWeights }

    /// q of every rung of a ladder (bit/s, ascending), lowest first. `hdRewards`, if given, is an explicit q per
    /// rung for models that take one (``HDQoE``); it is ignored by the others.
    public func qualities(ladderBps: [Double], hdRewards: [Double]? = nil) -> [Double] {
        definition.qualities(ladderBps: ladderBps, explicit: hdRewards)
    }

    /// Scores a session: `bitratesBps` are the declared bitrates of the segments in play order, `stallSeconds`
    /// the total rebuffer time (Σ Tₙ, startup excluded), `startupSeconds` the startup delay, `ladderBps` the
    /// content's ladder. Pure; callers: tests, tools.
    public func score(
        bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double, ladderBps: [Double],
        weights: QoEWeights? = nil, hdRewards: [Double]? = nil
    ) -> Double {
        QoEScorer(model: self, ladderBps: ladderBps, weights: weights ?? defaultWeights, hdRewards: hdRewards)
            .score(bitratesBps: bitratesBps, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }
}

/// A QoE model bound to one ladder and one set of weights, with q of every rung precomputed: what the
/// offline optimum maximises segment by segment and what ``SegmentTally`` scores sessions with.
public struct QoEScorer: Sendable, Equatable {
    /// The model.
    public var model: QoEModel
    /// μ (per stall second), λ (per unit of |Δq|), μₛ (per startup second).
    public var weights: QoEWeights
    /// The ladder, bit/s ascending.
    public let ladderBps: [Double]
    /// q of each rung.
    public let qualities: [Double]

    /// A scorer for `model` on `ladderBps` with `weights` (default: the model's published ones) and, for `hd`,
    /// an optional explicit reward per rung.
    public init(model: QoEModel, ladderBps: [Double], weights: QoEWeights? = nil, hdRewards: [Double]? = nil) {
        self.model = model
        self.weights = weights ?? model.defaultWeights
        self.ladderBps = ladderBps
        qualities = model.qualities(ladderBps: ladderBps, hdRewards: hdRewards)
    }

    /// q(R) for a declared bitrate, on or off the ladder (see each model).
    public func quality(bitrateBps: Double) -> Double {
        model.definition.quality(bitrateBps: bitrateBps, ladderBps: ladderBps, qualities: qualities)
    }

    /// The reward of one segment at rung `variant` after rung `previous` (`nil` for the first segment):
    /// q − λ·|q − q_previous|. Stall and startup penalties are charged separately.
    @inline(__always) public func segmentReward(variant: Int, previous: Int?) -> Double {
        weights.segmentReward(quality: qualities[variant], previous: previous.map { qualities[$0] })
    }

    /// The session's QoE (see ``QoEModel``).
    public func score(bitratesBps: [Double], stallSeconds: Double, startupSeconds: Double) -> Double {
        var tally = QoETally()
        for bitrate in bitratesBps { tally.add(quality: quality(bitrateBps: bitrate)) }
        return score(tally, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }

    /// The session's QoE from a tally of this model's q.
    public func score(_ tally: QoETally, stallSeconds: Double, startupSeconds: Double) -> Double {
        model.definition.score(tally, stallSeconds: stallSeconds, startupSeconds: startupSeconds, weights: weights)
    }

    /// The session's QoE from its segments with their own rebuffering, latency and rate (live terms included).
    public func score(segments: [QoESegment], startupSeconds: Double) -> Double {
        model.definition.score(
            segments: segments, ladderBps: ladderBps, startupSeconds: startupSeconds, weights: weights)
    }

    /// The session's QoE from rung indices in play order (the offline optimum's plan).
    public func score(variants: [Int], stallSeconds: Double, startupSeconds: Double) -> Double {
        score(bitratesBps: variants.map { ladderBps[$0] }, stallSeconds: stallSeconds, startupSeconds: startupSeconds)
    }
}
