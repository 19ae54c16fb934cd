/// One segment request as it happened: a row of `segments.csv`.
///
/// Written by the player when a download completes, is abandoned, times out or is cancelled by a seek; read by
/// the summaries and the CSV writer. Times are simulated seconds, sizes whole bytes, rates bit/s. A player's
/// `bytes` total is the sum of its rows' `bytes` over the rows not served from the cache.
public struct SegmentRecord: Sendable, Equatable {
    /// Index of the player in the scenario.
    public var player: Int
    /// Segment index (0-based).
    public var segment: Int
    /// Variant index (0-based, lowest first).
    public var variant: Int
    /// The variant's declared bitrate.
    public var bitrateBps: Double
    /// Media seconds the segment holds.
    public var durationSeconds: Double
    /// Bytes transferred for this request (whole bytes: see ``wholeBytes(bits:)``).
    public var bytes: Double
    /// When the request was sent.
    public var requestTime: Double
    /// When its first byte arrived (after one RTT).
    public var firstByteTime: Double
    /// When the last byte arrived.
    public var doneTime: Double
    /// Bits over (done − first byte): the throughput sample the player took.
    public var throughputBps: Double
    /// Buffer ahead of the playhead when the request was sent.
    public var bufferBeforeSeconds: Double
    /// Buffer ahead of the playhead when the segment was added.
    public var bufferAfterSeconds: Double
    /// Time stalled since the previous segment arrived (startup excluded).
    public var stallSeconds: Double
    /// Whether the request was abandoned before it finished (then `bytes` is what arrived, `doneTime` when it
    /// was stopped, and the segment is requested again).
    public var abandoned = false
    /// Whether the segment came from the player's disk cache (not the network; not a throughput sample).
    public var cacheHit = false
    /// Whether the request was abandoned because it received no data for the request timeout (then `abandoned`
    /// is true too, and `bytes` is the partial data discarded).
    public var timedOut = false
    /// 1 for the segment's first request, n + 1 for its n-th retry after a timeout.
    public var attempt = 1
    /// Whether the request was cancelled by a seek (then `abandoned` is true too, `bytes` is what arrived before
    /// the seek, and the segment is not requested again unless playback comes back to it).
    public var cancelled = false

    /// The whole bytes in `bits`: a partial transfer counts only the bytes that arrived in full (a byte short by
    /// less than a millionth of a bit, from rounding, counts).
    public static func wholeBytes(bits: Double) -> Double {
        (bits / 8 + 1e-6).rounded(.down)
    }
    /// The capacity available to the download: its share at the first byte times the mean of c(t) over it (bit/s;
    /// `nil` from the cache).
    public var availableBps: Double?
    /// The throughput the download model gives alone at `availableBps` (bit/s; `nil` where there is none).
    public var modelThroughputBps: Double?
}

/// One row of `timeline.csv`: the player's observable state after an event that changed any of it.
public struct TimelineRecord: Sendable, Equatable {
    /// Simulated time.
    public var time: Double
    /// Index of the player in the scenario.
    public var player: Int
    /// The playback state.
    public var state: PlaybackState
    /// `timeControlStatus`.
    public var timeControlStatus: TimeControlStatus
    /// `reasonForWaitingToPlay`, only while waiting.
    public var waitingReason: WaitingReason?
    /// Media seconds buffered ahead of the playhead.
    public var bufferSeconds: Double
    /// Media time of the playhead.
    public var playheadSeconds: Double
    /// Bitrate of the variant most recently requested (0 before the first request).
    public var bitrateBps: Double
    /// The player's share of the link (0 when it is not downloading).
    public var linkShare: Double
    /// `isPlaybackLikelyToKeepUp`.
    public var isPlaybackLikelyToKeepUp: Bool
    /// `isPlaybackBufferEmpty`.
    public var isPlaybackBufferEmpty: Bool
    /// `isPlaybackBufferFull`.
    public var isPlaybackBufferFull: Bool
    /// A live player's latency, seconds (`nil` for video on demand and before the first frame).
    public var latencySeconds: Double? = nil
    /// A live player's playback rate in effect (0 while the playhead does not move; `nil` for video on demand).
    public var rate: Double? = nil
}

/// Totals a player accumulates over a run, for `summary.csv`.
public struct PlayerTotals: Sendable, Equatable {
    /// Seconds from the first play request to the first frame (`nil` if playback never started).
    public var startupSeconds: Double?
    /// Stalls after startup (buffer ran dry while playing before the end).
    public var stallCount = 0
    /// Seconds spent stalled (startup and seek refills excluded).
    public var stallSeconds = 0.0
    /// The longest single stall (seconds; 0 without stalls).
    public var longestStallSeconds = 0.0
    /// Every stall counted in ``stallCount``, in order (a stall still going when the run stopped ends then).
    public var stalls: [StallPeriod] = []
    /// The timings of the CMAF chunks that arrived, request by request (LL-DASH chunked transfer; else empty).
    public var chunks: [ChunkTiming] = []
    /// Seconds spent refilling after seeks.
    public var seekWaitSeconds = 0.0
    /// Seconds spent waiting for another member of the coordination group.
    public var coordinatedWaitSeconds = 0.0
    /// Media seconds played: the media time the playhead moved over while playing (see ``skippedSeconds``).
    public var playedSeconds = 0.0
    /// Net media seconds the playhead jumped over by seeks and skips (a seek back counts negative), so that a
    /// player that ends after starting at 0 played the content's duration minus this.
    public var skippedSeconds = 0.0
    /// Requests abandoned because they received no data for the request timeout.
    public var timedOutRequests = 0
    /// Requests sent again after a timeout.
    public var retries = 0
    /// Bytes transferred over the network, abandoned requests included.
    public var bytes = 0.0
    /// Segments served from the disk cache.
    public var cacheHits = 0
    /// A live player's latency figures (`nil` for video on demand).
    public var live: LiveSummary?
    /// Final state.
    public var finalState: PlaybackState = .idle
    /// Simulated time at which the player ended or failed (`nil` if it was still going when the run stopped).
    public var endTime: Double?
}

/// One stall of a player: from the moment its buffer ran dry while playing to the moment playback resumed
/// (simulated seconds). Recorded in ``PlayerTotals/stalls``; read by windowed expectations.
public struct StallPeriod: Sendable, Equatable {
    /// When the stall began.
    public var start: Double
    /// When playback resumed (or the run stopped).
    public var end: Double

    /// Creates a stall period from `start` to `end` seconds.
    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Seconds of the stall inside `[from, to)`.
    public func seconds(from: Double, to: Double) -> Double {
        max(0, min(end, to) - max(start, from))
    }
}
