/// The player's physics for one player alone on a link, in closed form per segment: what the offline optimum
/// explores and what ``OfflineOptimum/evaluate(plan:curve:content:settings:scorer:)`` replays.
///
/// It is the model of ``Player`` (DESIGN §2.4) for a player that does not wait to minimise stalling
/// (`automaticallyWaitsToMinimizeStalling = false`): one request at a time; a request sent at r pays the RTT of
/// the piece in force at r, then its bits flow at the full capacity: done at
/// `curve.timeToDeliver(bits, after: r + RTT)`; playback starts when the first segment is in and resumes as soon
/// as a stalled player receives a segment; the buffer drains at the playback rate; the next request goes out
/// when the buffer is at or below the forward-buffer target (an OFF period otherwise).
///
/// A state between downloads is the time of the next request r and the deadline D, the wall-clock time at
/// which the buffer runs dry if nothing more arrives (buffer = (D − r)·rate ≤ target).
struct SoloPlayerPhysics {
    /// The link.
    let curve: CapacityCurve
    /// The content.
    let content: Content
    /// Playback rate (media seconds per second).
    let rate: Double
    /// Forward-buffer target, media seconds.
    let target: Double
    /// When the player starts and asks to play.
    let start: Double

    /// Physics for `settings` (start time, initial rate, forward-buffer target).
    init(curve: CapacityCurve, content: Content, settings: PlayerSettings) {
        self.curve = curve
        self.content = content
        rate = settings.initialRate
        target = settings.forwardBufferTarget
        start = settings.startSeconds
    }

    /// What happens when `segment` is requested at `variant` at time `request`, with the buffer running dry at
    /// `deadline` (`nil` before playback has started).
    struct Step {
        /// When the segment's last bit arrives (seconds).
        var finish: Double
        /// Stall seconds before it arrived (0 for the first segment, whose wait is startup).
        var stall: Double
        /// The new deadline: when the buffer runs dry after this segment.
        var deadline: Double
        /// When the next request goes out: at `finish`, or later if the buffer is above its target.
        var nextRequest: Double
    }

    /// One download; `nil` if the network never delivers it.
    @inline(__always) func step(segment: Int, variant: Int, request: Double, deadline: Double?) -> Step? {
        let bits = content.sizeBits(segment: segment, variant: variant)
        let rtt = curve.latency(at: request) ?? 0
        let finish = curve.timeToDeliver(bits, after: request + rtt)
        guard finish.isFinite else { return nil }
        let media = content.segmentDurations[segment] / rate
        let stall: Double
        let newDeadline: Double
        if let deadline {
            stall = max(0, finish - deadline)
            newDeadline = max(deadline, finish) + media
        } else {
            stall = 0
            newDeadline = finish + media
        }
        return Step(
            finish: finish, stall: stall, deadline: newDeadline, nextRequest: max(finish, newDeadline - target / rate))
    }

    /// A download before playback has started, with `heldSeconds` of media (over the rate) already in: when it
    /// lands and what the buffer then holds. The buffer does not drain, so the next request goes out on arrival
    /// while the buffer is at or below its target. `nil` if the network never delivers it.
    @inline(__always) func stepBeforeStart(
        segment: Int, variant: Int, request: Double, heldSeconds: Double
    ) -> (finish: Double, heldSeconds: Double)? {
        let bits = content.sizeBits(segment: segment, variant: variant)
        let rtt = curve.latency(at: request) ?? 0
        let finish = curve.timeToDeliver(bits, after: request + rtt)
        guard finish.isFinite else { return nil }
        return (finish, heldSeconds + content.segmentDurations[segment] / rate)
    }

    /// Playback starting at `finish` with `heldSeconds` buffered: the deadline and the next request.
    @inline(__always) func startNow(finish: Double, heldSeconds: Double) -> (deadline: Double, nextRequest: Double) {
        let deadline = finish + heldSeconds
        return (deadline, max(finish, deadline - target / rate))
    }
}
