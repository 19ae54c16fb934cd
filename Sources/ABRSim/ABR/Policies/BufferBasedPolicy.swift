/// Buffer-based adaptation, BBA-0 (Huang, Johari, McKeown, Trunnell, Watson, "A Buffer-Based Approach to Rate
/// Adaptation", SIGCOMM 2014), with the linear reservoir/cushion map of Pensieve's baseline (`test/bb.py` in
/// hongzimao/pensieve; `reference-simulators.md`).
///
/// With the buffer `b` in seconds (after the previous segment) and `N` variants in the ladder:
/// `b < reservoir` → 0; `b ≥ reservoir + cushion` → the top; otherwise ⌊(N − 1)·(b − reservoir)/cushion⌋; the
/// result is then capped at `maxVariant` (a cap does not stretch the map, it clips it).
/// Pensieve: reservoir 5 s, cushion 10 s, 6 rungs, so ⌊5·(b − 5)/10⌋. The arithmetic is bb.py's, in its order,
/// so the Pensieve profile reproduces its choices bit for bit. Stateless; ignores throughput entirely.
public final class BufferBasedPolicy: ABRPolicy {
    /// Buffer (seconds) below which the lowest variant is fetched.
    public let reservoir: Double
    /// Buffer span (seconds) above the reservoir over which the variant rises linearly to the top.
    public let cushion: Double

    /// A BBA-0 policy; `reservoir` ≥ 0 and `cushion` > 0, in seconds (defaults 5 and 10 as Pensieve's bb.py).
    public init(
        reservoir: Double = Parameters.reservoir.defaultValue, cushion: Double = Parameters.cushion.defaultValue
    ) {
        precondition(reservoir >= 0 && cushion > 0, "BBA needs reservoir ≥ 0 and cushion > 0")
        self.reservoir = reservoir
        self.cushion = cushion
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let rung = variant(forBuffer: context.bufferSeconds, variantCount: context.content.variantCount)
        return .variant(max(0, min(rung, context.maxVariant)))
    }

    /// The variant for `buffer` seconds on a ladder of `variantCount` rungs, before any cap.
    public func variant(forBuffer buffer: Double, variantCount: Int) -> Int {
        let top = max(variantCount - 1, 0)
        if buffer < reservoir { return 0 }
        if buffer >= reservoir + cushion { return top }
        // bb.py: `(A_DIM - 1) * (buffer_size - RESEVOIR) / float(CUSHION)`, then `int(...)`.
        return min(Int(Double(top) * (buffer - reservoir) / cushion), top)
    }
}

extension BufferBasedPolicy {
    /// `bba`'s parameters.
    public enum Parameters {
        public static let reservoir = Parameter.number(
            "reservoir", default: 5, in: .nonNegative, unit: "s", source: "Huang et al. 2014 (BBA-0 reservoir)",
            "buffer below which the lowest variant is fetched")
        public static let cushion = Parameter.number(
            "cushion", default: 10, unit: "s", source: "Huang et al. 2014",
            "buffer span over which the variant rises to the top")
    }
}

extension BuiltInPolicies {
    static let bba = PolicyDescriptor(
        name: "bba",
        summary: "buffer-based BBA-0: lowest below the reservoir, linear over the cushion (Huang et al. 2014)",
        parameters: [BufferBasedPolicy.Parameters.reservoir, BufferBasedPolicy.Parameters.cushion]
    ) { arguments, _ in
        BufferBasedPolicy(
            reservoir: try arguments.value(BufferBasedPolicy.Parameters.reservoir),
            cushion: try arguments.value(BufferBasedPolicy.Parameters.cushion))
    }
}
