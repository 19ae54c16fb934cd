/// Always the same variant: the baseline for hand-checkable physics and for "what if we pinned quality".
///
/// Parameters: `variant` (0-based, lowest first). Clamped by the player to its caps.
public final class FixedPolicy: ABRPolicy {
    /// The variant requested for every segment.
    public let variant: Int

    /// A policy that always picks `variant`.
    public init(variant: Int) { self.variant = variant }

    public func decide(_ context: ABRContext) -> ABRDecision { .variant(variant) }

    /// Never adapts: the keep-up predictor judges its player at its own variant.
    public var isAdaptive: Bool { false }
}
