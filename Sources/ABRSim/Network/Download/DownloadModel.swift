/// How the bytes of one request arrive once its first byte has come: the download-model seam (issue 19).
///
/// The shared link hands each flow its share of the capacity c(t) (``SharedLink``). A download model says what
/// else holds the flow back: TCP's congestion window, a ramp after idle, a fixed emission rate. It answers with a
/// ``DownloadPlan`` whose ``TransferWindow`` caps the flow's rate over time since its first byte; the link
/// water-fills the capacity under those caps, so a flow held below its share gives the rest to the others. A
/// model is pure: given the same ``DownloadRequest`` it plans the same. The player asks its model once per
/// request, at the first byte; `abrsim model download` asks it row by row, through the same ``plan(_:)``.
public protocol DownloadModel: Sendable {
    /// The name a scenario selects the model by (`fluid`, `slow-start`, `veritas-v3`, `veritas-v7`, `tcp`).
    var name: String { get }
    /// The RTT the model uses (seconds); `nil`: the network's latency at the request.
    var roundTripSeconds: Double? { get }
    /// Whether the model needs a positive RTT (a window counted in round trips); such a model is refused on a
    /// network without latency unless it is given its own `rttMs`.
    var needsRoundTrip: Bool { get }
    /// The plan for one request.
    func plan(_ request: DownloadRequest) -> DownloadPlan
    /// The connection after a transfer planned by `plan` ended (a persistent connection keeps its window);
    /// models without connection state return `connection` unchanged.
    func connection(after plan: DownloadPlan, bits: Double, seconds: Double, from connection: ConnectionState)
        -> ConnectionState
}

extension DownloadModel {
    public func connection(
        after plan: DownloadPlan, bits: Double, seconds: Double, from connection: ConnectionState
    ) -> ConnectionState { connection }
}

/// What a download model is told about one request at its first byte.
public struct DownloadRequest: Sendable, Equatable {
    /// The request's size in bits.
    public var bits: Double
    /// The capacity the flow would get at its first byte without a window: c(t) times its share (bit/s).
    public var availableBps: Double
    /// The highest rate the link ever offers (bit/s): a window at or above it can no longer hold a flow back.
    public var peakBps: Double
    /// The round-trip time (seconds, > 0 for window models).
    public var roundTripSeconds: Double
    /// Seconds since the connection last carried data (`.infinity` for a new connection).
    public var idleSeconds: Double
    /// The connection's state before this request.
    public var connection: ConnectionState

    /// A request.
    public init(
        bits: Double, availableBps: Double, peakBps: Double, roundTripSeconds: Double,
        idleSeconds: Double = .infinity, connection: ConnectionState = ConnectionState()
    ) {
        self.bits = bits
        self.availableBps = availableBps
        self.peakBps = peakBps
        self.roundTripSeconds = roundTripSeconds
        self.idleSeconds = idleSeconds
        self.connection = connection
    }
}

/// What a persistent connection carries from one request to the next.
public struct ConnectionState: Sendable, Equatable {
    /// The congestion window in segments at the end of the last transfer (`nil`: a new connection).
    public var congestionWindowSegments: Double?

    /// A state; the default is a new connection.
    public init(congestionWindowSegments: Double? = nil) {
        self.congestionWindowSegments = congestionWindowSegments
    }
}

/// A model's answer for one request: the cap on the flow's rate, the model's case, and the time the model itself
/// gives for the transfer alone at ``DownloadRequest/availableBps``.
public struct DownloadPlan: Sendable, Equatable {
    /// The cap on the flow's rate over time since its first byte (`nil`: no cap, the fluid model).
    public var window: TransferWindow?
    /// Which case of the model applied (Veritas: 1, 2 or 3); `nil` for models without cases.
    public var branch: Int?
    /// The transfer time the model gives alone at the available capacity, in seconds from the first byte (what
    /// the published function returns; the link never delivers above c(t), so where a model's rate exceeds the
    /// capacity the simulated transfer takes longer).
    public var modelSeconds: Double

    /// A plan.
    public init(window: TransferWindow?, branch: Int? = nil, modelSeconds: Double) {
        self.window = window
        self.branch = branch
        self.modelSeconds = modelSeconds
    }
}

/// A cap on one flow's rate as a function of the time τ since its first byte: rounds of one RTT, the cap
/// doubling each round for ``doublingRounds`` rounds (slow start), then ``finalRateBps`` from then on.
///
/// Round k < n caps at `initialRateBps`·2ᵏ; from τ = n·`roundSeconds` on the cap is `finalRateBps`
/// (`.infinity`: the window no longer limits). The shared link reads it piece by piece (``cap(round:)``), so a
/// ramp costs no events, only a few more steps in the link's closed-form walk.
public struct TransferWindow: Sendable, Equatable {
    /// The cap in round 0 (bit/s, > 0).
    public var initialRateBps: Double
    /// The length of a round (seconds, > 0 when `doublingRounds` > 0).
    public var roundSeconds: Double
    /// The rounds in which the cap doubles.
    public var doublingRounds: Int
    /// The cap after the doubling rounds (bit/s; `.infinity`: none).
    public var finalRateBps: Double

    /// A window.
    public init(initialRateBps: Double, roundSeconds: Double, doublingRounds: Int, finalRateBps: Double) {
        self.initialRateBps = initialRateBps
        self.roundSeconds = roundSeconds
        self.doublingRounds = doublingRounds
        self.finalRateBps = finalRateBps
    }

    /// A cap of `rateBps` for the whole transfer.
    public static func constant(_ rateBps: Double) -> TransferWindow {
        TransferWindow(initialRateBps: rateBps, roundSeconds: 0, doublingRounds: 0, finalRateBps: rateBps)
    }

    /// A slow-start ramp from `initialRateBps`, doubling every `roundSeconds` while the cap stays below
    /// `ceilingBps`, then no cap.
    public static func slowStart(initialRateBps: Double, roundSeconds: Double, ceilingBps: Double) -> TransferWindow {
        var rounds = 0
        var rate = initialRateBps
        while rate < ceilingBps && rounds < 1100 {
            rate *= 2
            rounds += 1
        }
        return TransferWindow(
            initialRateBps: initialRateBps, roundSeconds: roundSeconds, doublingRounds: rounds, finalRateBps: .infinity)
    }

    /// The cap in round `round` (bit/s); rounds at or after ``doublingRounds`` give ``finalRateBps``.
    @inline(__always)
    public func cap(round: Int) -> Double {
        round < doublingRounds
            ? initialRateBps * Double(sign: .plus, exponent: round, significand: 1) : finalRateBps
    }

    /// Where the doubling rounds end (seconds after the first byte).
    public var rampSeconds: Double { Double(doublingRounds) * roundSeconds }

    /// The round containing offset `τ` (seconds after the first byte), counted so that round k covers
    /// [k·`roundSeconds`, (k + 1)·`roundSeconds`) exactly as ``roundStart(_:)`` computes its ends; at most
    /// ``doublingRounds``.
    public func round(at offset: Double) -> Int {
        guard doublingRounds > 0, offset > 0 else { return 0 }
        var k = min(Int((offset / roundSeconds).rounded(.down)), doublingRounds)
        while k < doublingRounds && roundStart(k + 1) <= offset { k += 1 }
        while k > 0 && roundStart(k) > offset { k -= 1 }
        return k
    }

    /// The start of round `k` (seconds after the first byte).
    @inline(__always)
    public func roundStart(_ k: Int) -> Double { Double(k) * roundSeconds }

    /// The time to carry `bits` alone on a link of constant `capacityBps`, from the first byte (seconds; the
    /// rate in each round is the smaller of the cap and the capacity). `.infinity` for no capacity.
    public func secondsAlone(bits: Double, capacityBps: Double) -> Double {
        var left = bits
        var elapsed = 0.0
        for k in 0..<doublingRounds {
            let rate = min(cap(round: k), capacityBps)
            let inRound = rate * roundSeconds
            if inRound >= left { return elapsed + left / rate }
            left -= inRound
            elapsed = roundStart(k + 1)
        }
        let rate = min(finalRateBps, capacityBps)
        return rate > 0 ? elapsed + left / rate : .infinity
    }
}

/// Today's model and the default: every byte gets its share of c(t) from the first byte, whatever the size.
public struct FluidModel: DownloadModel {
    public var name: String { "fluid" }
    public var roundTripSeconds: Double? { nil }
    public var needsRoundTrip: Bool { false }

    /// The model.
    public init() {}

    public func plan(_ request: DownloadRequest) -> DownloadPlan {
        DownloadPlan(
            window: nil, modelSeconds: request.availableBps > 0 ? request.bits / request.availableBps : .infinity)
    }
}
