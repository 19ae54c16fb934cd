/// A run of consecutive progress checks ahead of the request in flight, as the player can bound them before they
/// happen (``ABRPolicy/progressOutlook(in:)``): the checks' first and last times and bounds on what each of them
/// will report, valid while the link's flows and the player's state stay as they are (the player asks again after
/// any change). Times in seconds, sizes in bits, rates in bit/s.
public struct ProgressWindow {
    /// The request: segment, variant, size, when it was sent and when its first byte came.
    public var segment: Int
    public var variant: Int
    public var totalBits: Double
    public var requestTime: Double
    public var firstByteTime: Double
    /// The first and last check of the window (`firstTime ≤ lastTime`).
    public var firstTime: Double
    public var lastTime: Double
    /// Checks not yet reported from the first skipped one through `lastTime` (at least 1).
    public var uncountedChecks: Int
    /// At most the bits received at the first check, and at least those received at the last one.
    public var receivedAtLeast: Double
    public var receivedAtMost: Double
    /// At most received bits / (time − first byte) at every check of the window and of the earlier skipped runs
    /// the policy said take records (``ProgressOutlook/recordsOnly``).
    public var averageRateFloor: Double
    /// At most received bits / (time − first byte) at every check of the window.
    public var windowRateFloor: Double
    /// The skipped checks before the window in runs that take records, and the sum of a lower bound on received
    /// bits / (time − first byte) at each of them.
    public var earlierChecks: Int
    public var earlierRateFloorSum: Double
    /// Whether every check of those runs and of the window will have received bits, and the most buffer (seconds)
    /// at any check of those runs (a policy's records may depend on both).
    public var everyCheckReceives: Bool
    public var earlierBufferHigh: Double
    /// The least and the most forward buffer (seconds) at a check of the window.
    public var bufferLow: Double
    public var bufferHigh: Double
    /// The player's state over the window: what ``ABRContext`` will carry at each check.
    public var context: ABRContext
}

/// What a policy may do at the progress checks of a ``ProgressWindow``.
public enum ProgressOutlook: Equatable, Sendable {
    /// Nothing that any later check or decision depends on.
    case idle
    /// No abandonment, nor any change outliving the request, but records a later check of the same request may
    /// act on (so the player keeps their bounds: ``ProgressWindow/averageRateFloor``).
    case recordsOnly
    /// Possibly abandon, or change state that outlives the request.
    case mayAct
}
