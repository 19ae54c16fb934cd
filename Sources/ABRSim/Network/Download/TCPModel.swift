/// A TCP sender's congestion window as a download model: slow start from an initial window, a persistent
/// connection whose window survives back-to-back requests, and slow-start restart after idle.
///
/// - The window starts at ``initialWindowSegments`` segments of ``segmentBytes`` (10 × 1448 bytes: RFC 6928, Linux's
///   `TCP_INIT_CWND`) and doubles every RTT (slow start, RFC 5681 §3.1) until it can no longer hold the flow back
///   (the link's peak rate); the flow's cap in a round is window / RTT.
/// - With ``isPersistent`` the next request on the connection starts from the window the last one reached.
/// - With ``restartsAfterIdle`` (Linux's default `net.ipv4.tcp_slow_start_after_idle = 1`), a connection idle for
///   more than one retransmission timeout has its window halved once per RTO idle, down to the restart window
///   min(initial window, window) — RFC 5681 §4.1 with RFC 7661's decay as Linux's `tcp_cwnd_restart` does it.
///   The RTO is RTT + ``minimumRtoSeconds`` (Linux: srtt + max(4·rttvar, `TCP_RTO_MIN` = 200 ms) with a steady
///   RTT).
public struct TCPModel: DownloadModel {
    public var name: String { "tcp" }
    public var needsRoundTrip: Bool { true }
    public let roundTripSeconds: Double?
    /// The window of a new connection, in segments.
    public var initialWindowSegments = 10.0
    /// The segment size (MSS) in bytes.
    public var segmentBytes = 1448.0
    /// Whether an idle connection restarts slow start.
    public var restartsAfterIdle = true
    /// The floor of the retransmission timeout (seconds).
    public var minimumRtoSeconds = 0.2
    /// Whether requests reuse the connection (and its window).
    public var isPersistent = true

    /// The model with Linux's defaults; `roundTripSeconds` `nil` uses the network's latency.
    public init(roundTripSeconds: Double? = nil) {
        self.roundTripSeconds = roundTripSeconds
    }

    /// The window (segments) a request starts with after `idleSeconds` on a connection whose window was
    /// `window` (`nil`: a new connection), with RTT `rtt`.
    public func startingWindow(_ window: Double?, idleSeconds: Double, rtt: Double) -> Double {
        guard isPersistent, var cwnd = window else { return initialWindowSegments }
        guard restartsAfterIdle else { return cwnd }
        let rto = rtt + minimumRtoSeconds
        let restart = min(initialWindowSegments, cwnd)
        var idle = idleSeconds - rto
        while idle > 0 && cwnd > restart {
            cwnd = (cwnd / 2).rounded(.down)
            idle -= rto
        }
        return max(cwnd, restart)
    }

    public func plan(_ request: DownloadRequest) -> DownloadPlan {
        let rtt = request.roundTripSeconds
        let cwnd = startingWindow(
            request.connection.congestionWindowSegments, idleSeconds: request.idleSeconds, rtt: rtt)
        let window = TransferWindow.slowStart(
            initialRateBps: cwnd * segmentBytes * 8 / rtt, roundSeconds: rtt,
            ceilingBps: max(request.peakBps, request.availableBps))
        return DownloadPlan(
            window: window, modelSeconds: window.secondsAlone(bits: request.bits, capacityBps: request.availableBps))
    }

    public func connection(
        after plan: DownloadPlan, bits: Double, seconds: Double, from connection: ConnectionState
    ) -> ConnectionState {
        guard isPersistent, let window = plan.window, window.roundSeconds > 0 else { return connection }
        let rounds = min(Int((seconds / window.roundSeconds).rounded(.down)), window.doublingRounds)
        let rate = window.initialRateBps * Double(sign: .plus, exponent: rounds, significand: 1)
        return ConnectionState(congestionWindowSegments: rate * window.roundSeconds / (segmentBytes * 8))
    }
}
