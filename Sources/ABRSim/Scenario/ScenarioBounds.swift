/// The documented lower and upper bound of every scenario key that is a time, a rate, a size or a count.
///
/// A value outside is bad input (exit 2 at its JSON path), so that no run meets a degenerate but valid number (a
/// segment of 1e-12 s, a rate of 5e-324, a buffer of 1e300) whose arithmetic would give `Inf`, `NaN` or a player
/// that never leaves `loading`. The bounds are far beyond any real stream; docs/reliability/bad-inputs.md lists
/// them by key. Used by the scenario, content and network decoders.
public enum ScenarioBounds {
    /// Run and content durations, start times, action times and seek targets: up to 10⁷ s (about 116 days).
    public static let timeSeconds = 0.0...1e7
    /// A run's or a content's duration: 1 ms to 10⁷ s.
    public static let durationSeconds = 0.001...1e7
    /// A segment's duration (`segmentSeconds`, `#EXTINF`, `segment_duration_ms` / 1000): 1 ms to an hour.
    public static let segmentSeconds = 0.001...3600.0
    /// A bitrate or bandwidth in kbit/s (ladders, `constantKbps`, rate limits, synthetic means): up to 10⁸ kbit/s
    /// (100 Gbit/s); a bitrate of the ladder is at least 1 bit/s.
    public static let rateKbps = 0.0...1e8
    /// The smallest bitrate a ladder or rate limit may have, kbit/s (1 bit/s).
    public static let minimumBitrateKbps = 0.001
    /// Buffer targets and durations (forward buffer, keep-up thresholds, retry delays, timeouts): up to a day.
    public static let bufferSeconds = 0.0...86_400.0
    /// Round-trip times, milliseconds: up to 10 minutes.
    public static let rttMs = 0.0...600_000.0
    /// Playback rates (`rate`, a `rate` action): 0 (paused, actions only) or 0.01 to 100.
    public static let playbackRate = 0.01...100.0
    /// A network stretch's or outage's length: 1 µs to 10⁷ s.
    public static let stretchSeconds = 1e-6...1e7

    /// Most players in one scenario.
    public static let maximumPlayers = 1024
    /// What one segment of one player holds until the outputs are written: its record, its timeline rows and
    /// their CSV rows (measured: 1.6 KB per segment for one `bba` player over 10⁵ segments; rounded up).
    public static let estimatedBytesPerSegment = 2048
    /// Most record memory a run may hold: 4 GiB, i.e. ``maximumSegmentsHeld`` segments summed over the players.
    public static let maximumRecordBytes = 4 << 30
    /// ``maximumRecordBytes`` in segments summed over the players (2 097 152, e.g. 10⁶ segments for 2 players).
    public static let maximumSegmentsHeld = maximumRecordBytes / estimatedBytesPerSegment
}
