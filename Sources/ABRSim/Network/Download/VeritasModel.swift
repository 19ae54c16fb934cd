/// Veritas' capacity-to-throughput emission models (Zhang et al., SIGCOMM'23, `capacity_to_throughput_v3_` and
/// `capacity_to_throughput_v7_` in `fit.py`): the throughput a request of size S sees on capacity C with
/// round-trip time RTT.
///
/// Sizes are counted in segments of ``maximumSegmentBytes`` (1448 bytes), rounded half to even, as Veritas does;
/// so is the bandwidth-delay product C·RTT.
/// - v7: S/(S/C + RTT) when the request is more segments than the bandwidth-delay product (branch 1), else
///   S/RTT (branch 2).
/// - v3: the same while the congestion window is larger than the bandwidth-delay product; otherwise (branch 3)
///   the request takes whole rounds of one RTT, round r sending min(cwnd + r, BDP) segments: S/(rounds·RTT).
///
/// In a simulation the flow is capped at that throughput for its whole transfer (the capacity and the share seen
/// at the first byte decide it), so a flow the model slows gives the rest of its share to the others.
public struct VeritasModel: DownloadModel {
    /// Which of Veritas' functions.
    public enum Version: String, Sendable, CaseIterable {
        case v3, v7
    }

    /// Veritas' segment size: 1448 bytes (an Ethernet MSS with TCP timestamps).
    public static let maximumSegmentBytes = 1448.0
    /// Linux's initial congestion window, 10 segments (RFC 6928), v3's default.
    public static let defaultInitialWindowSegments = 10.0

    public let version: Version
    public var name: String { "veritas-" + version.rawValue }
    public var needsRoundTrip: Bool { true }
    public let roundTripSeconds: Double?
    /// v3's congestion window at a request's start, in segments (≥ 1).
    public let initialWindowSegments: Double

    /// The model; `roundTripSeconds` `nil` uses the network's latency.
    public init(
        _ version: Version, initialWindowSegments: Double = defaultInitialWindowSegments,
        roundTripSeconds: Double? = nil
    ) {
        self.version = version
        self.initialWindowSegments = initialWindowSegments
        self.roundTripSeconds = roundTripSeconds
    }

    /// Veritas' function in its own units: size in kilobytes (1000 bytes), capacity in Mbit/s, RTT in
    /// milliseconds, window in segments. Returns the throughput in Mbit/s and the branch (0: no capacity).
    public func throughput(sizeKB: Double, capacityMbps: Double, rttMs: Double, windowSegments: Double) -> (
        mbps: Double, branch: Int
    ) {
        let bdp = capacityMbps * rttMs / 8.0
        let bdpSegments = (bdp * 1000.0 / Self.maximumSegmentBytes).rounded(.toNearestOrEven)
        let dataSegments = (sizeKB * 1000.0 / Self.maximumSegmentBytes).rounded(.toNearestOrEven)
        let sizeBits = sizeKB * 8.0
        if version == .v7 || windowSegments > bdpSegments {
            if dataSegments > bdpSegments {
                guard capacityMbps != 0 else { return (0, 0) }
                return (sizeBits / (sizeBits / capacityMbps + rttMs), 1)
            }
            return (sizeBits / rttMs, 2)
        }
        let rounds = Self.rounds(
            dataSegments: dataSegments, window: windowSegments.rounded(.towardZero), bdpSegments: bdpSegments)
        return (sizeBits / (rounds * rttMs), 3)
    }

    /// v3's window-limited rounds: the least R with Σ_{r<R} min(window + r, bdp) ≥ data (0 for no data).
    static func rounds(dataSegments: Double, window: Double, bdpSegments: Double) -> Double {
        guard bdpSegments > 0 else { return .infinity }  // only with a window below one segment
        var sent = 0.0
        var rounds = 0.0
        var cwnd = window
        while sent < dataSegments {
            if cwnd >= bdpSegments {
                // From here every round sends the whole bandwidth-delay product.
                return rounds + ((dataSegments - sent) / bdpSegments).rounded(.up)
            }
            sent += min(cwnd, bdpSegments)
            cwnd += 1
            rounds += 1
        }
        return rounds
    }

    public func plan(_ request: DownloadRequest) -> DownloadPlan {
        let sizeKB = request.bits / 8 / 1000
        let window = request.connection.congestionWindowSegments ?? initialWindowSegments
        let (mbps, branch) = throughput(
            sizeKB: sizeKB, capacityMbps: request.availableBps / 1e6, rttMs: request.roundTripSeconds * 1000,
            windowSegments: window)
        guard mbps > 0 else { return DownloadPlan(window: nil, branch: branch, modelSeconds: .infinity) }
        let seconds = sizeKB * 8 / mbps / 1000
        // A request of less than half a segment takes no rounds: the model gives it no time, the link its share.
        guard mbps.isFinite else { return DownloadPlan(window: nil, branch: branch, modelSeconds: seconds) }
        return DownloadPlan(window: .constant(mbps * 1e6), branch: branch, modelSeconds: seconds)
    }
}
