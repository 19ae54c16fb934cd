/// One request of a throughput log: how many bytes came, when its first and last byte arrived, and the RTT.
///
/// Read from a player's own log (``ThroughputLogReader``) and turned back into capacity by
/// ``CapacityInference``. Times are seconds from the log's first request; `line` is where the request was read
/// (for error messages).
public struct RequestSample: Sendable, Equatable {
    /// Bytes of the request (> 0).
    public var bytes: Double
    /// Arrival of its first byte (seconds).
    public var startSeconds: Double
    /// Arrival of its last byte (seconds, > start).
    public var endSeconds: Double
    /// Round-trip time at the request (seconds; 0 when the log has none).
    public var rttSeconds: Double
    /// How many requests this sample stands for (an access-log event's mean request; 1 otherwise).
    public var count: Int
    /// The line of the log it came from (1-based).
    public var line: Int
    /// Whether `startSeconds` is when the request was sent (an access log's transfer duration counts from the
    /// request), so that its first byte came one RTT later.
    public var isTimedFromRequest = false

    /// A sample.
    public init(
        bytes: Double, startSeconds: Double, endSeconds: Double, rttSeconds: Double, count: Int = 1, line: Int,
        isTimedFromRequest: Bool = false
    ) {
        self.isTimedFromRequest = isTimedFromRequest
        self.bytes = bytes
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.rttSeconds = rttSeconds
        self.count = count
        self.line = line
    }

    /// The sample timed from its first byte, given the RTT.
    public func fromFirstByte(rttSeconds rtt: Double) -> RequestSample {
        guard isTimedFromRequest else { return self }
        var sample = self
        sample.startSeconds = min(startSeconds + rtt, (startSeconds + endSeconds) / 2)
        sample.isTimedFromRequest = false
        return sample
    }

    /// The throughput the player measured: bits over (end − start), bit/s.
    public var throughputBps: Double { bytes * 8 / (endSeconds - startSeconds) }
}

/// A throughput log's requests, checked as one connection's: in start order, each ending after it starts, none
/// starting before the previous one ended (a single HTTP/1.1 connection carries one response at a time).
public struct ThroughputLog: Sendable, Equatable {
    /// Where the requests were read from.
    public var file: String
    /// The requests, in start order.
    public var samples: [RequestSample]

    /// Rounding allowed where one request starts as the previous one ends (seconds).
    public static let overlapTolerance = 1e-6

    /// A log of `samples` from `file`, checked; the first problem is an ``InputError`` at its line.
    public init(file: String, samples: [RequestSample]) throws {
        guard !samples.isEmpty else { throw InputError(.file(file), .empty("log", no: "completed request")) }
        for (position, sample) in samples.enumerated() {
            guard sample.bytes > 0, sample.bytes.isFinite else {
                throw InputError(
                    .line(file, sample.line), .mustBe("a request's size", rule: "positive", found: "\(sample.bytes)"))
            }
            guard sample.startSeconds.isFinite, sample.endSeconds.isFinite, sample.endSeconds > sample.startSeconds
            else {
                throw InputError(
                    .line(file, sample.line),
                    .mustBe(
                        "a request's end", rule: "after its start, \(sample.startSeconds) s",
                        found: "\(sample.endSeconds)", unit: "s"))
            }
            guard sample.rttSeconds >= 0, sample.rttSeconds.isFinite else {
                throw InputError(
                    .line(file, sample.line), .mustBe("the RTT", rule: "≥ 0", found: "\(sample.rttSeconds)", unit: "s"))
            }
            if position > 0 {
                let previous = samples[position - 1]
                guard sample.startSeconds + Self.overlapTolerance >= previous.endSeconds else {
                    throw InputError(
                        .line(file, sample.line),
                        .mustBe(
                            "a request's start",
                            rule: "at or after the end of the one on line \(previous.line), \(previous.endSeconds) s"
                                + " (one connection carries one request at a time)",
                            found: "\(sample.startSeconds)", unit: "s"))
                }
            }
        }
        self.file = file
        self.samples = samples
    }
}
