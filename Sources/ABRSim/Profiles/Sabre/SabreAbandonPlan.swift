/// What BOLA's abandonment rule (in both ``SabreBola`` and ``SabreBolaEnh``) computes the same way at every step of
/// one download, computed once: per quality the buffer target Vp·(γp + u) (ms), per lower quality q′ the size
/// `size × bitrate[q′] / bitrate[q]` (bits) the download would have had at q′, both with sabre's operations, so
/// each value is the one the rule would compute at the step; and the quiet level.
///
/// The quiet level: a buffer level (ms, the level the rule scores with) at and above which the rule provably
/// abandons nothing, so it need not score the step. There every lower quality's target is at or below the
/// level, so its score (target − level) / size is ≤ 0; the download's own target is at least every lower one, so
/// its score is either > 0 (and no lower score beats it) or ≤ 0 with a magnitude no larger than any lower quality's
/// over its smaller size (correctly rounded subtraction and division are monotone, so this holds for the rounded
/// values too, signed zeros included). It is −∞ at quality 0 (there is no lower quality) and NaN (never quiet)
/// when the targets are not ordered that way or a bitrate is not positive and finite.
///
/// Kept by the rule and refreshed by ``prepare(_:utilities:vp:gp:quality:size:)`` whenever Vp, the quality or
/// the size differ from the ones it was made for, so a rule called for another download is never given stale
/// values.
struct SabreAbandonPlan {
    /// Vp·(γp + u) per quality, ms.
    private(set) var targets: [Double] = []
    /// Per quality below ``quality``, the download's size at that quality, bits.
    private(set) var otherSizes: [Double] = []
    /// See the type's description; ms.
    private(set) var quietLevel = Double.nan
    private var vp = Double.nan
    private var gp = Double.nan
    private var quality = -1
    private var size = Double.nan

    /// Makes the plan describe a download of `size` bits at `quality` under `vp` and `gp`; free when it already does.
    /// `utilities` must be the same at every call (the rule's own, fixed when it starts).
    @inline(__always)
    mutating func prepare(
        _ sim: SabreSimulation, utilities: [Double], vp: Double, gp: Double, quality: Int, size: Double
    ) {
        if vp == self.vp && gp == self.gp && quality == self.quality && size == self.size { return }
        rebuild(sim, utilities: utilities, vp: vp, gp: gp, quality: quality, size: size)
    }

    private mutating func rebuild(
        _ sim: SabreSimulation, utilities: [Double], vp: Double, gp: Double, quality: Int, size: Double
    ) {
        if vp != self.vp || gp != self.gp || targets.count != utilities.count {
            targets.removeAll(keepingCapacity: true)
            for u in utilities { targets.append(vp * (gp + u)) }
            self.vp = vp
            self.gp = gp
        }
        self.quality = quality
        self.size = size
        otherSizes.removeAll(keepingCapacity: true)
        let bitrates = sim.bitrates
        let own = bitrates[quality]
        var highest = -Double.infinity
        var ordered = own > 0 && own.isFinite && targets[quality].isFinite
        for q in 0..<quality {
            otherSizes.append(size * bitrates[q] / own)
            highest = max(highest, targets[q])
            ordered = ordered && bitrates[q] > 0 && bitrates[q].isFinite && targets[q].isFinite
        }
        quietLevel = quality == 0 ? -.infinity : ordered && highest <= targets[quality] ? highest : .nan
    }
}
