/// The constants of the ACM MM'22 Grand Challenge "Short Video Streaming" simulator
/// (`AItransCompetition/Short-Video-Streaming-Challenge`, `run.py` and `simulator/`), which the `mmgc22` profile
/// reproduces operation for operation (docs/mmgc22-profile.md).
public enum MMGC22Model {
    /// `VIDEO_BIT_RATE`, kbit/s, by level.
    public static let bitratesKbps = [750, 1200, 1850]
    /// `BITRATE_LEVELS`.
    public static let levelCount = 3
    /// `VIDEO_CHUNCK_LEN`: every chunk lasts 1000 ms.
    public static let chunkMilliseconds = 1000.0
    /// `PLAYER_NUM`: the playing clip and the next four are known to the policy.
    public static let windowSize = 5
    /// `PACKET_PAYLOAD_PORTION`.
    public static let payloadFraction = 0.95
    /// `LINK_RTT`, ms, added to every download.
    public static let rttMilliseconds = 80.0
    /// `beta`: QoE lost per second of rebuffering.
    public static let rebufferWeight = 1.85
    /// `theta`: score lost per Mbit downloaded.
    public static let bandwidthWeight = 0.5
    /// `MIN_QOE`: a run whose QoE falls below this ends with score −10⁹.
    public static let minimumQoE = -1e4
    /// The score of a run ended at ``minimumQoE``.
    public static let abortedScore = -1e9
}
