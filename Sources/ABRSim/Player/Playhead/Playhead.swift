/// One player's playhead and forward buffer: the media time shown, how fast it moves, and how far media is
/// loaded ahead of it.
///
/// Media times in seconds of content; ``since`` in simulated seconds. While ``isAdvancing`` the playhead moves at
/// ``rate`` from where it stood at ``since`` until it reaches ``bufferedEnd``; frozen, it stays. Played time is
/// `playedBeforeJump + mediaTime − runOrigin`, computed from positions rather than summed step by step, so it does
/// not drift over a long session. Owned by ``Player``, which moves it at play, pause, seek and stalls and extends
/// the buffer at each arrival.
struct Playhead {
    /// Where the playhead stood at ``since``.
    var mediaTime = 0.0
    /// When the playhead was last frozen or started (simulated seconds).
    var since = 0.0
    /// The playback rate (1 = real time).
    var rate: Double
    /// Whether the playhead moves.
    var isAdvancing = false
    /// The end of the media loaded ahead of the playhead.
    var bufferedEnd = 0.0
    /// `AVPlayerItem.forwardPlaybackEndTime`: playback ends when the playhead reaches it (`.infinity`: at the end
    /// of the content). A feed's swipe sets it; the downloader does not look at it, as an app does not know when its
    /// user will swipe.
    var forwardPlaybackEndTime = Double.infinity
    /// Media seconds played before the last seek, and where the playhead landed then.
    var playedBeforeJump = 0.0
    var runOrigin = 0.0

    /// A frozen playhead at 0 with nothing buffered, to play at `rate`.
    init(rate: Double) { self.rate = rate }

    /// The playhead's media time at `time`.
    @inline(__always)
    func position(at time: Double) -> Double {
        isAdvancing ? min(mediaTime + rate * (time - since), bufferedEnd) : mediaTime
    }

    /// Media seconds buffered ahead of the playhead at `time`.
    @inline(__always)
    func bufferLevel(at time: Double) -> Double { max(bufferedEnd - position(at: time), 0) }

    /// Whether any media is buffered at `time`.
    func hasMedia(at time: Double) -> Bool { bufferLevel(at: time) > SimulationTime.tolerance }

    /// Media seconds buffered ahead of the frozen playhead.
    var bufferAhead: Double { bufferedEnd - mediaTime }

    /// Media seconds played so far, up to ``mediaTime``.
    var playedSeconds: Double { playedBeforeJump + (mediaTime - runOrigin) }

    /// Brings the playhead to `now` and holds it there until it moves again; returns whether it had been moving.
    @discardableResult
    mutating func freeze(at now: Double) -> Bool {
        let moved = isAdvancing
        if moved { mediaTime = position(at: now) }
        since = now
        return moved
    }

    /// Moves the frozen playhead to `target` by a seek; returns the media seconds jumped over (negative back).
    mutating func jump(to target: Double) -> Double {
        playedBeforeJump += mediaTime - runOrigin
        let skipped = target - mediaTime
        mediaTime = target
        runOrigin = target
        return skipped
    }

    /// The simulated time at which the buffer runs dry, from `now` with the playhead frozen there.
    func runOutTime(from now: Double) -> Double { now + (min(bufferedEnd, forwardPlaybackEndTime) - mediaTime) / rate }

    /// Whether the frozen playhead stands at ``forwardPlaybackEndTime`` before the end of media lasting `duration`.
    func isAtForwardPlaybackEnd(duration: Double) -> Bool {
        forwardPlaybackEndTime < duration - SimulationTime.tolerance
            && mediaTime >= forwardPlaybackEndTime - SimulationTime.tolerance
    }
}
