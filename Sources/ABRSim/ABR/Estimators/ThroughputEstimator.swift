/// One completed download as the player saw it: how many bits arrived and when (simulation seconds).
///
/// Recorded by the player for every finished segment request and fed to the policy's ``ThroughputEstimator``.
public struct ThroughputSample: Sendable, Equatable {
    /// Payload bits received.
    public var bits: Double
    /// When the request was sent, in seconds.
    public var requestTime: Double
    /// When the first byte of the response arrived, in seconds.
    public var firstByteTime: Double
    /// When the last byte arrived, in seconds.
    public var doneTime: Double
    /// For a chunked-transfer (low-latency CMAF) request, when each of its chunks arrived, in order; empty for an
    /// ordinary request. The low-latency estimators (``DashLowLatencyEstimator``, ``HlsJsTTFBEstimator``) read it.
    public var chunks: [ChunkTiming]

    /// Creates a sample; times are in seconds and must not decrease from request to first byte to done.
    public init(
        bits: Double, requestTime: Double, firstByteTime: Double, doneTime: Double, chunks: [ChunkTiming] = []
    ) {
        self.bits = bits
        self.requestTime = requestTime
        self.firstByteTime = firstByteTime
        self.doneTime = doneTime
        self.chunks = chunks
    }

    /// Seconds from first byte to last byte (the transfer alone).
    public var downloadSeconds: Double { doneTime - firstByteTime }
    /// Seconds from request to last byte (latency included).
    public var totalSeconds: Double { doneTime - requestTime }
    /// Throughput over the transfer alone, bit/s — latency excluded, as dash.js does with `useDeadTimeLatency`.
    public var bitsPerSecond: Double { bits / downloadSeconds }

    /// The seconds this sample took under `timing`.
    public func seconds(_ timing: SampleTiming) -> Double {
        timing == .excludingLatency ? downloadSeconds : totalSeconds
    }

    /// Throughput in bit/s under `timing`.
    public func bitsPerSecond(_ timing: SampleTiming) -> Double { bits / seconds(timing) }
}

/// Which interval a sample's throughput is measured over; every estimator takes one, and MPC's `timing` parameter
/// names it (`download`, `total`).
public enum SampleTiming: String, ParameterChoice {
    /// First byte to last byte: request latency left out (dash.js, hls.js after its TTFB correction, ExoPlayer).
    case excludingLatency = "download"
    /// Request to last byte: latency included (Pensieve's and MPC's simulators divide by the whole delay).
    case includingLatency = "total"
}

/// Turns a player's completed downloads into an estimate of the throughput it will get next, in bit/s.
///
/// A policy owns one estimator; the player calls ``add(_:)`` after each download and the policy reads
/// ``estimate`` when choosing the next variant. Conformances reproduce the estimators of real players and of the
/// research literature, each with its published defaults.
public protocol ThroughputEstimator: Sendable {
    /// Records one completed download.
    mutating func add(_ sample: ThroughputSample)
    /// Whether enough has been seen for ``estimate`` to come from samples rather than ``defaultEstimate``.
    var hasEnoughData: Bool { get }
    /// The estimate answered before there is enough data, bit/s.
    var defaultEstimate: Double { get }
    /// The estimate in bit/s: from the samples once ``hasEnoughData``, otherwise ``defaultEstimate``.
    var estimate: Double { get }
    /// Forgets every sample (as after a network change), keeping the configuration.
    mutating func reset()
}
