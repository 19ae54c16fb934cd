/// One request of a player: a segment at a variant, from its sending to its end (finished, abandoned, timed out
/// or cancelled). Times in simulated seconds, sizes in bits.
///
/// A small value of plain fields, copied freely on the hot path; what only the download model or a chunked
/// transfer needs, and whether it is chunked, is the downloader's ``Downloader/transfer``.
struct InFlightRequest {
    var segment: Int
    var variant: Int
    var bits: Double
    var requestTime: Double
    var firstByteTime: Double?
    var bufferBefore: Double
    var fromCache = false
    /// 1 for the first request of the segment, 2 for its first retry after a timeout, …
    var attempt = 1
    /// The flow's share of the capacity at its first byte without a window (`nil` before it, or from the cache).
    var fairShare: Double?
    /// The link's S(t) at the first byte and the link it was read on, for the mean capacity over the download.
    var bitsAtFirstByte = 0.0
    var firstByteLink = 0
}

/// What the download model and a chunked transfer keep for the request in flight (``Downloader/request``), beside
/// it so that the request stays a small value. Set when the request is sent and read until the next one is: the
/// record of an ended request (its model view, its chunk timings) is made before its segment is requested again.
/// Times in simulated seconds, sizes in bits.
struct RequestTransfer {
    /// What the download model was asked, and its plan (`nil` for the fluid model).
    var modelRequest: DownloadRequest?
    var plan: DownloadPlan?
    /// LL-DASH chunked transfer: the segment's CMAF chunks (empty for an ordinary request), how many have arrived,
    /// their timings, and when the chunk in flight started flowing.
    var chunks: [CMAFChunk] = []
    var chunkTimings: [ChunkTiming] = []
    var chunkFirstByte = 0.0
    /// The download model's plan for the chunk in flight (`nil` for the fluid model).
    var chunkPlan: DownloadPlan?
    /// Whether a chunk is flowing on the link now (not waiting for its encode time, nor before the first byte).
    var isChunkFlowing = false
    /// Bits of the chunks that have arrived in full.
    var arrivedChunkBits: Double { chunkTimings.reduce(0) { $0 + $1.bits } }
}

/// The downloader of one player: the request in flight and its timers (first byte, cache read, progress report,
/// timeout, retry), the request-timeout bookkeeping, and what the connection carries from one request to the next.
///
/// Times in simulated seconds, sizes in bits. Owned by ``Player``; its behaviour is in the files beside this one
/// (Player+Request.swift: send, first byte, progress and abandon, arrival; Player+RequestTimeout.swift: timeout
/// and retry; Player+Download.swift: the download model).
struct Downloader {
    /// The request in flight.
    var request: InFlightRequest?
    /// The bits of the request in flight if its timeout is reviewed (past its first byte, not from the cache), else
    /// `nil`: what the timeout review of every flow on a link reads.
    var timeoutReviewBits: Double? {
        guard request?.fromCache == false, request?.firstByteTime != nil else { return nil }
        return request?.bits
    }
    /// The download model's and a chunked transfer's state of the request in flight (or of the last one, until the
    /// next is sent).
    var transfer = RequestTransfer()
    /// Whether the request in flight (or the last one, until the next is sent) is an LL-DASH chunked transfer.
    var isChunked: Bool { !transfer.chunks.isEmpty }
    /// The timed-out request waiting for its back-off delay before it is sent again.
    var pendingRetry: InFlightRequest?
    /// Pending events of the request in flight, and of the retry.
    var firstByteTimer: TimerHandle?
    var cacheReadTimer: TimerHandle?
    var progressTimer: TimerHandle?
    var timeoutTimer: TimerHandle?
    var retryTimer: TimerHandle?
    /// The chunked request's wait for its next chunk's encode time.
    var chunkTimer: TimerHandle?
    /// While progress checks are skipped (Player+ProgressSkipping.swift): the next check of the polling chain not
    /// yet run (`nil`: none skipped; ``progressTimer`` is then the next check itself), and the chain's step.
    var nextCheck: Double?
    var checkInterval = 0.0
    /// The link's ``SharedLink/flowChangeCount`` when the checks were last planned.
    var plannedAtFlowChange = -1

    // Request timeout (Player+RequestTimeout.swift).
    /// Start of the request in flight's current stretch without data, as known at ``timeoutReviewedAt``.
    var idleSince = 0.0
    /// Bits the request in flight had received at the last review.
    var receivedAtReview = 0.0
    var timeoutReviewedAt = 0.0
    /// The link's next completion at the last review: no timeout event is needed beyond it.
    var timeoutHorizon = Double.infinity
    /// When the armed timeout event fires (`nil`: none armed).
    var armedTimeout: Double?
    /// The long zero-capacity stretches this player's timeout last used, with its link.
    var zeroCapacityIndex: (link: Int, index: ZeroCapacityIndex)?

    /// How the bytes of its requests arrive (Player+Download.swift).
    let model: any DownloadModel
    /// Whether that is the fluid model (found once: a dynamic cast per request costs on the hot path).
    let isFluid: Bool
    /// What the player's connection carries from one request to the next.
    var connection = ConnectionState()
    /// When the connection last carried data (seconds; `-.infinity`: never).
    var connectionBusyUntil = -Double.infinity

    /// A downloader with no request, whose bytes arrive as `model` says.
    init(model: any DownloadModel) {
        self.model = model
        isFluid = model is FluidModel
    }

    /// Cancels the timers of the request in flight (first byte, cache read, progress report) and of a pending
    /// retry.
    mutating func cancelRequestTimers(on kernel: Kernel<SimulationEvent>) {
        kernel.cancel(&firstByteTimer)
        kernel.cancel(&cacheReadTimer)
        kernel.cancel(&progressTimer)
        kernel.cancel(&retryTimer)
        kernel.cancel(&chunkTimer)
        nextCheck = nil
    }
}
