/// The live tags of an HLS media playlist (RFC 8216bis §4.4.3.7–4.4.5.3): what a live or LL-HLS playlist says about
/// its parts, hold-backs and reloads. Seconds. Filled by ``HLSMediaPlaylist`` line by line; turned into a
/// ``LiveStream`` by ``stream(targetDurationSeconds:)``.
public struct HLSLiveTags: Sendable, Equatable {
    /// `#EXT-X-PART-INF:PART-TARGET`.
    public var partTargetSeconds: Double?
    /// `#EXT-X-SERVER-CONTROL:HOLD-BACK`.
    public var holdBackSeconds: Double?
    /// `#EXT-X-SERVER-CONTROL:PART-HOLD-BACK`.
    public var partHoldBackSeconds: Double?
    /// `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES`.
    public var canBlockReload = false
    /// An `#EXT-X-PRELOAD-HINT` is present.
    public var hasPreloadHint = false
    /// `#EXT-X-PLAYLIST-TYPE:EVENT`.
    public var isEvent = false
    /// The line of `#EXT-X-SERVER-CONTROL`, for errors.
    var serverControlLine: Int?

    /// No tags.
    public init() {}

    /// Reads `text` (line `line` of `file`) if it is one of the live tags; returns whether it was.
    mutating func read(_ text: String, file: String, line: Int) throws -> Bool {
        if let value = HLSPlaylistLines.value(of: "#EXT-X-PART-INF", in: text) {
            let list = try HLSAttributeList(String(value), file: file, line: line)
            partTargetSeconds = try seconds(list, "PART-TARGET", file: file, line: line, required: true)
        } else if let value = HLSPlaylistLines.value(of: "#EXT-X-SERVER-CONTROL", in: text) {
            let list = try HLSAttributeList(String(value), file: file, line: line)
            holdBackSeconds = try seconds(list, "HOLD-BACK", file: file, line: line)
            partHoldBackSeconds = try seconds(list, "PART-HOLD-BACK", file: file, line: line)
            canBlockReload = list.values["CAN-BLOCK-RELOAD"] == "YES"
            serverControlLine = line
        } else if text.hasPrefix("#EXT-X-PRELOAD-HINT") {
            hasPreloadHint = true
        } else if let value = HLSPlaylistLines.value(of: "#EXT-X-PLAYLIST-TYPE", in: text) {
            isEvent = value.trimmingBlanks() == "EVENT"
        } else if text.hasPrefix("#EXT-X-PART:") {
            return true
        } else {
            return false
        }
        return true
    }

    private func seconds(_ list: HLSAttributeList, _ name: String, file: String, line: Int, required: Bool = false)
        throws -> Double?
    {
        guard let text = list.values[name] else {
            if required { throw InputError(.line(file, line), .required(name)) }
            return nil
        }
        guard let value = HLSPlaylistLines.number(Substring(text)), ScenarioBounds.bufferSeconds.contains(value),
            value > 0
        else {
            throw InputError(
                .line(file, line), .isNot("a positive number of seconds", subject: nil, found: "\(name)=\(text)"))
        }
        return value
    }

    /// Checks the hold-backs against the part target: neither may be shorter than one part.
    func validate(file: String) throws {
        guard let part = partTargetSeconds, let line = serverControlLine else { return }
        for (name, value) in [("HOLD-BACK", holdBackSeconds), ("PART-HOLD-BACK", partHoldBackSeconds)] {
            if let value, value < part - SimulationTime.tolerance {
                throw InputError(
                    .line(file, line),
                    .mustBe(
                        name, rule: "at least a part target (PART-TARGET=\(formatParameterNumber(part)))",
                        found: formatParameterNumber(value)))
            }
        }
    }

    /// The presentation these tags describe, available from simulated time 0: blocking reload (with preload hints
    /// when hinted) when the server can block, else a reload every part target (or target duration).
    public func stream(targetDurationSeconds: Double) -> LiveStream {
        let refresh: PlaylistRefresh? = canBlockReload ? (hasPreloadHint ? .preloadHint : .blockingReload) : nil
        return LiveStream(
            availabilityStartSeconds: 0, kind: isEvent ? .event : .live, targetDurationSeconds: targetDurationSeconds,
            partTargetSeconds: partTargetSeconds, holdBackSeconds: holdBackSeconds,
            partHoldBackSeconds: partHoldBackSeconds, refresh: refresh)
    }
}
