/// CausalSim's slow-start download model (Alomar et al., NSDI'23, `thr_slow_start` in
/// `abr-synthetic/env/abr.py`): a request starts at ``initialRateBps`` and its rate doubles every RTT while the
/// doubled rate stays below the capacity; the rest goes at capacity. Every request starts afresh (the model has
/// no connection state). On a link whose capacity changes, the cap keeps doubling until it reaches the link's
/// peak rate, where it can no longer hold the flow back; in each round the flow gets the smaller of its cap and
/// its share.
public struct SlowStartModel: DownloadModel {
    /// CausalSim's default starting rate: two 1500-byte packets per second… of RTT, 3000 bytes/s, in bit/s.
    public static let defaultInitialRateBps = 3000.0 * 8

    public var name: String { "slow-start" }
    public var needsRoundTrip: Bool { true }
    public let roundTripSeconds: Double?
    /// The rate in the first round (bit/s, > 0).
    public let initialRateBps: Double

    /// The model; `roundTripSeconds` `nil` uses the network's latency.
    public init(initialRateBps: Double = defaultInitialRateBps, roundTripSeconds: Double? = nil) {
        self.initialRateBps = initialRateBps
        self.roundTripSeconds = roundTripSeconds
    }

    public func plan(_ request: DownloadRequest) -> DownloadPlan {
        let window = TransferWindow.slowStart(
            initialRateBps: initialRateBps, roundSeconds: request.roundTripSeconds,
            ceilingBps: max(request.peakBps, request.availableBps))
        return DownloadPlan(
            window: window, modelSeconds: window.secondsAlone(bits: request.bits, capacityBps: request.availableBps))
    }
}
