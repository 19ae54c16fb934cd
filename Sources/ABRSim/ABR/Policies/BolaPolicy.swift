#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// BOLA-BASIC: Lyapunov buffer-based adaptation (Spiteri, Urgaonkar, Sitaraman, "BOLA: Near-Optimal Bitrate
/// Adaptation for Online Videos", INFOCOM 2016, arXiv:1601.06748), as sabre's `Bola` class runs it with
/// `abr_basic` (Spiteri, Sitaraman, Sparacio, MMSys 2018).
///
/// For each segment it picks the variant m ≤ `maxVariant` maximising (Vp·(v_m + γp) − Q) / S_m, where
/// - v_m = ln(b_m / b_0) is the utility from the *declared* bitrates (so v_0 = 0; for constant-bitrate content this
///   is the paper's ln(S_m / S_1)),
/// - Q is the buffer level in **seconds** and Vp = V·p is therefore in seconds too (the paper counts Q in segments
///   of p seconds; multiplying V by p gives the same decisions), γp is dimensionless,
/// - S_m is the size of variant m: its declared bitrate (`sizes=bitrate`, the default, as the paper and sabre) or
///   the next segment's actual size (`sizes=segment`, for variable-bitrate content).
///
/// If no variant has a positive objective (Q ≥ Vp·(v_top + γp)), it waits until the buffer has drained to that
/// level: that wait is what keeps BOLA's buffer below its maximum. No throughput estimate is used.
///
/// Vp and γp come from two buffer bounds
/// (``Parameters/derive(bitratesBps:segmentSeconds:minimumBuffer:maximumBuffer:)``):
/// - the lowest variant is chosen whenever Q ≤ `minimumBuffer` (the 0→1 switching threshold is exactly there;
///   default 10 s, dash.js's `MINIMUM_BUFFER_S`);
/// - the top variant's objective reaches zero at Q = `maximumBuffer` − p, so BOLA stops downloading there and the
///   buffer never exceeds `maximumBuffer` after a download (sabre's Vp = (bufferSize − p)/(u_max + γp)); default
///   the player's forward-buffer target, as sabre uses its player's buffer size.
/// sabre instead fixes γp = 5 and derives Vp from the upper bound alone, which puts the lowest-variant threshold
/// wherever the ladder happens to put it; fixing both ends makes the behaviour predictable from the parameters.
/// When the bounds leave less than a segment between them, `minimumBuffer` is lowered to half the upper level.
public final class BolaPolicy: ABRPolicy {
    /// Where S_m, the size in the objective's denominator, comes from.
    public enum SizeSource: String, ParameterChoice {
        /// The declared bitrate of each variant (× the segment duration, which cancels in the comparison).
        case bitrate
        /// The next segment's actual size at each variant.
        case segment
    }

    /// BOLA's two constants for one ladder, with the utilities they apply to.
    public struct Parameters: Equatable, Sendable {
        /// V·p, seconds.
        public var vp: Double
        /// γ·p, dimensionless.
        public var gammaP: Double
        /// v_m = ln(b_m / b_0), one per variant.
        public var utilities: [Double]

        /// Vp and γp for a ladder (`bitratesBps` ascending, at least two) with segments of `segmentSeconds`, such
        /// that the 0→1 threshold is at `minimumBuffer` seconds and the top variant's objective is zero at
        /// `maximumBuffer` − `segmentSeconds` seconds.
        ///
        /// From Q_{0,1} = Vp·(γp − v_1·b_0/(b_1 − b_0)) = Bmin and Vp·(v_top + γp) = Bmax − p:
        /// Vp = (Bmax − p − Bmin) / (v_top + v_1·b_0/(b_1 − b_0)), γp = Bmin/Vp + v_1·b_0/(b_1 − b_0).
        public static func derive(
            bitratesBps: [Double], segmentSeconds: Double, minimumBuffer: Double, maximumBuffer: Double
        ) -> Parameters {
            let utilities = bitratesBps.map { log($0 / bitratesBps[0]) }
            let upper = max(maximumBuffer - segmentSeconds, segmentSeconds)
            let lower = min(max(minimumBuffer, 0), upper / 2)
            let offset = utilities[1] * bitratesBps[0] / (bitratesBps[1] - bitratesBps[0])
            let vp = (upper - lower) / (utilities[utilities.count - 1] + offset)
            return Parameters(vp: vp, gammaP: lower / vp + offset, utilities: utilities)
        }

        /// The buffer level (seconds) above which variant `m`'s objective is no longer positive.
        public func zeroObjectiveBuffer(_ m: Int) -> Double { vp * (utilities[m] + gammaP) }

        /// The buffer level (seconds) at which variants `m` and `n` (sizes `sm`, `sn`) score the same:
        /// Vp·(γp + (S_n·v_m − S_m·v_n)/(S_n − S_m)).
        public func threshold(_ m: Int, _ n: Int, sizes sm: Double, _ sn: Double) -> Double {
            vp * (gammaP + (sn * utilities[m] - sm * utilities[n]) / (sn - sm))
        }
    }

    /// Buffer (seconds) up to which the lowest variant is chosen.
    public let minimumBuffer: Double
    /// Buffer (seconds) BOLA keeps below; `nil` = the player's forward-buffer target.
    public let maximumBuffer: Double?
    /// Where the objective's sizes come from.
    public let sizeSource: SizeSource
    private var cached: (content: ObjectIdentifier, upper: Double, parameters: Parameters)?

    /// A BOLA-BASIC policy; buffers in seconds (`maximumBuffer` nil = the player's target).
    public init(
        minimumBuffer: Double = SpecParameters.minimumBuffer.defaultValue, maximumBuffer: Double? = nil,
        sizeSource: SizeSource = SpecParameters.sizes.defaultValue
    ) {
        self.minimumBuffer = minimumBuffer
        self.maximumBuffer = maximumBuffer
        self.sizeSource = sizeSource
    }

    /// The parameters in force for `context` (recomputed only when the content or upper bound changes).
    public func parameters(for context: ABRContext) -> Parameters {
        let upper = maximumBuffer ?? context.bufferTargetSeconds
        let id = ObjectIdentifier(context.content)
        if let cached, cached.content == id, cached.upper == upper { return cached.parameters }
        let parameters = Parameters.derive(
            bitratesBps: context.content.variants.map(\.bitrateBps),
            segmentSeconds: context.content.segmentDurations[0],
            minimumBuffer: minimumBuffer, maximumBuffer: upper)
        cached = (id, upper, parameters)
        return parameters
    }

    public func decide(_ context: ABRContext) -> ABRDecision {
        let content = context.content
        guard content.variantCount > 1 else { return .variant(0) }
        let parameters = parameters(for: context)
        let top = min(context.maxVariant, content.variantCount - 1)
        let buffer = context.bufferSeconds
        let stop = parameters.zeroObjectiveBuffer(top)
        if buffer >= stop { return waitForDrain(buffer - stop, rate: context.playbackRate) }
        let segment = min(context.segmentIndex, content.segmentCount - 1)
        var best = 0
        var bestScore = -Double.infinity
        for m in 0...top {
            let size =
                sizeSource == .segment ? content.sizeBits(segment: segment, variant: m) : content.variants[m].bitrateBps
            let score = (parameters.zeroObjectiveBuffer(m) - buffer) / size
            if score > bestScore {
                bestScore = score
                best = m
            }
        }
        return .variant(best)
    }
}

/// A wait until a buffer `excessSeconds` above a level has drained to it at playback `rate` (while paused the
/// buffer does not drain: ask again after `excessSeconds`, at least a second). Shared by buffer-driven policies.
func waitForDrain(_ excessSeconds: Double, rate: Double) -> ABRDecision {
    .wait(seconds: rate > 0 ? max(excessSeconds, 0) / rate : max(excessSeconds, 1))
}

extension BolaPolicy {
    /// `bola`'s spec parameters (``Parameters`` are the constants BOLA derives from them).
    public enum SpecParameters {
        public static let minimumBuffer = Parameter.number(
            "minimumBuffer", default: 10, in: .nonNegative, unit: "s", source: "dash.js MINIMUM_BUFFER_S",
            "lowest variant up to this buffer")
        public static let maximumBuffer = Parameter.number(
            "maximumBuffer", default: 0, in: .nonNegative, unit: "s", source: "sabre (its player's buffer size)",
            "buffer kept below this; 0 = the player's target")
        public static let sizes = Parameter.choice(
            "sizes", default: BolaPolicy.SizeSource.bitrate, source: "Spiteri et al. 2016",
            "bitrate (declared, as the paper) or segment (actual sizes)")
    }
}

extension BuiltInPolicies {
    static let bola = PolicyDescriptor(
        name: "bola",
        summary: "BOLA-BASIC: maximise (Vp(v_m+γp) − Q)/S_m, wait when nothing scores > 0 (Spiteri et al. 2016)",
        parameters: [
            BolaPolicy.SpecParameters.minimumBuffer, BolaPolicy.SpecParameters.maximumBuffer,
            BolaPolicy.SpecParameters.sizes,
        ]
    ) { arguments, _ in
        let maximum = try arguments.value(BolaPolicy.SpecParameters.maximumBuffer)
        return BolaPolicy(
            minimumBuffer: try arguments.value(BolaPolicy.SpecParameters.minimumBuffer),
            maximumBuffer: maximum > 0 ? maximum : nil,
            sizeSource: try arguments.value(BolaPolicy.SpecParameters.sizes))
    }
}
