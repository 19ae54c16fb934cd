/// What a capacity curve does after its last piece ends, at time `duration`.
///
/// Set per scenario and passed to ``CapacityCurve`` and
/// ``NetworkTimeline/build(_:defaultRttSeconds:atEnd:)``.
public enum TraceEndBehavior: String, Sendable, CaseIterable {
    /// Repeat the curve from time 0, as mahimahi and Pensieve do (the default).
    case loop
    /// Keep the last rate (and latency and loss) forever.
    case hold
    /// Zero capacity from `duration` on: a download still running then never completes.
    case end
}
