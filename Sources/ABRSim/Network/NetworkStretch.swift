/// One stretch of a scenario's network: a preset, a constant link, a trace, or an outage, for a duration.
///
/// A list of stretches, played one after another, becomes a ``NetworkTimeline`` (the WiFi → LTE → 3G walk out
/// of the house, with outage gaps at the hand-overs). Durations are seconds, rates bit/s, RTTs seconds.
public enum NetworkStretch: Sendable {
    /// A preset's constant downlink, RTT and loss for `seconds`.
    case preset(NetworkPreset, seconds: Double)
    /// A constant rate for `seconds`, with an RTT (`nil`: the timeline's default) and no loss.
    case constant(bps: Double, seconds: Double, rttSeconds: Double?)
    /// A trace for `seconds` (`nil`: the trace's own duration). A trace shorter than the stretch loops inside it;
    /// a longer one is cut. The RTT is `rttSeconds`, else the trace's own per-piece latency, else the default.
    case trace(Trace, seconds: Double?, rttSeconds: Double?)
    /// Zero capacity for `seconds` (a hand-over gap), at the default RTT.
    case outage(seconds: Double)
}
