/// How a player gives up on a segment request that receives nothing, and how it tries again: the request
/// timeout, the retry limit and the exponential back-off between attempts.
///
/// A request times out when it has received no byte for ``timeoutSeconds`` (an idle timeout, as Foundation's
/// `URLRequest.timeoutInterval` / `URLSessionConfiguration.timeoutIntervalForRequest`: the timer restarts
/// whenever data arrives). Its partial bytes are discarded; after a delay it is sent again (a new request,
/// paying the RTT again). After ``maximumRetries`` retries have also timed out, the player fails
/// (`PlaybackState.failed`), as `AVPlayerItem.status` becomes `.failed`. Apple publishes neither AVPlayer's
/// timeout nor its retry schedule, so the defaults are the documented ones of Foundation and hls.js (see
/// docs/scenario-format.md). Decoded from a player's `requests` key; read by ``Player``.
public struct RequestRetrySettings: Sendable, Equatable {
    /// Seconds without a byte before a request is abandoned. Default 60: the documented default of
    /// `URLRequest.timeoutInterval` and `URLSessionConfiguration.timeoutIntervalForRequest`.
    public var timeoutSeconds = 60.0
    /// Retries of one segment after its first attempt times out; the player fails when the last one times out.
    /// Default 4: hls.js `fragLoadPolicy.default.timeoutRetry.maxNumRetry` (v1.x `src/config.ts`).
    public var maximumRetries = 4
    /// Delay before the first retry, seconds. Default 1: hls.js `fragLoadPolicy.default.errorRetry.retryDelayMs`.
    public var retryDelaySeconds = 1.0
    /// Each further retry waits this many times longer. Default 2: hls.js's exponential back-off.
    public var backoffFactor = 2.0
    /// The longest delay between attempts, seconds. Default 8: hls.js `errorRetry.maxRetryDelayMs`.
    public var maximumRetryDelaySeconds = 8.0

    /// The defaults above.
    public init() {}

    /// The delay before retry number `retry` (1 for the first retry): initial × factor^(retry − 1), capped at
    /// the maximum.
    public func delay(beforeRetry retry: Int) -> Double {
        var delay = retryDelaySeconds
        for _ in 1..<max(retry, 1) {
            delay *= backoffFactor
            if delay >= maximumRetryDelaySeconds { break }
        }
        return min(delay, maximumRetryDelaySeconds)
    }
}
