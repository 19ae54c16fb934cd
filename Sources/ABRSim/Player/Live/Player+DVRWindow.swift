/// The live player's DVR window (`seekableTimeRanges` of a sliding-window stream with `dvrWindowSeconds`), after
/// dash.js v5.1.1 (`ccf3b95`) `PlaybackController.js`: segments that have left the window are no longer listed, so
/// none is requested; a playhead more than 0.25 s before the window's start (`_getAdjustedPresentationTime`, lines
/// 560–587) is moved to the start when the player has no media to play there (`updateCurrentTime`, lines 533–552:
/// on `play` and while stalled, never while paused). A paused player keeps its place; once it plays, it plays what
/// it had buffered, then jumps to the window's start. dash.js's low-latency mode, which jumps to the edge − the live
/// delay instead, is not modelled. Events keep everything and video on demand has no window: nothing here applies.
extension Player {
    /// How far before the window's start dash.js lets the playhead be (`currentTime + 0.250 < DVRWindow.start`).
    static let dvrWindowSlackSeconds = 0.25

    /// The start of the DVR window at `now` (`nil` without one).
    func dvrWindowStart(at now: Double) -> Double? {
        guard isLive, let stream = live?.stream, stream.kind == .live, stream.dvrWindowSeconds != nil else {
            return nil
        }
        return stream.seekableRange(at: now, in: content).lowerBound
    }

    /// Whether `segment` has left the DVR window at `now` (its media ends at or before the window's start).
    func hasLeftDVRWindow(_ segment: Int, at now: Double) -> Bool {
        guard let start = dvrWindowStart(at: now) else { return false }
        return content.segmentStarts[segment] + content.segmentDurations[segment] <= start + SimulationTime.tolerance
    }

    /// A player with no media at its playhead at `now` whose playhead has left the DVR window seeks to the window's
    /// start. Returns whether it did.
    func leaveRemovedMedia(at now: Double) -> Bool {
        guard let start = dvrWindowStart(at: now), !playhead.hasMedia(at: now),
            playhead.position(at: now) + Self.dvrWindowSlackSeconds < start
        else { return false }
        seek(to: start, at: now)
        return true
    }
}
