/// How a live player learns that a segment (or part) exists: the playlist or manifest refresh.
///
/// Read by the player to find when it may request each unit; times are simulated seconds.
public enum PlaylistRefresh: Sendable, Equatable {
    /// DASH `SegmentTemplate`: availability is computed from the manifest, so a unit is known the instant it is
    /// available (no refresh).
    case template
    /// HLS: the player reloads the playlist every `intervalSeconds` (the target duration by default, the part target
    /// for LL-HLS), from its start time; a unit is known at the first reload at or after its availability.
    case reload(intervalSeconds: Double)
    /// LL-HLS blocking reload (`_HLS_msn`/`_HLS_part`, `CAN-BLOCK-RELOAD=YES`): the server answers the reload the
    /// moment the next unit is available, so it is known at its availability.
    case blockingReload
    /// LL-HLS blocking reload with preload hints (`EXT-X-PRELOAD-HINT`): the request for the next unit is sent one
    /// round trip before its availability and the server answers it as soon as it exists, so its first byte can
    /// arrive at its availability.
    case preloadHint

    /// The scenario name of the mode.
    public var name: String {
        switch self {
        case .template: "template"
        case .reload: "reload"
        case .blockingReload: "blockingReload"
        case .preloadHint: "preloadHint"
        }
    }
}

/// A live presentation: when each unit of its content becomes available, what the player may seek in, and how far
/// behind the live edge a player should stay.
///
/// Media time m is encoded at simulated time `availabilityStartSeconds + m`, so whole segment i (or, for LL-HLS and
/// CMAF chunks, part i of a content split into parts) is available at availability start + the end of its media
/// interval: availability start + (i + 1) × duration for equal units. The live edge at `t` is `t − availability
/// start` (capped at the content's end): latency is the live edge minus the playhead's media time. A `live`
/// presentation keeps a DVR window of `dvrWindowSeconds` behind the edge (`timeShiftBufferDepth`); an `event`
/// grows and never removes. Made by the scenario's `content.live` key or a live HLS playlist; attached to
/// ``Content/live``; read by the player.
public struct LiveStream: Sendable, Equatable {
    /// Whether media is ever removed from the start.
    public enum Kind: String, Sendable {
        /// Sliding window: media older than the DVR window is removed.
        case live
        /// An event playlist (`EXT-X-PLAYLIST-TYPE:EVENT`): grows and never removes.
        case event
    }

    /// Simulated time at which media time 0 began to be encoded (negative: the stream began before the run).
    public var availabilityStartSeconds: Double
    /// Live (sliding window) or event.
    public var kind: Kind
    /// The DVR window behind the live edge for `live` (`nil`: the whole stream, as an event).
    public var dvrWindowSeconds: Double?
    /// `EXT-X-TARGETDURATION`: the longest segment, seconds.
    public var targetDurationSeconds: Double
    /// `EXT-X-PART-INF:PART-TARGET` (LL-HLS) or the CMAF chunk duration, seconds; `nil` without parts.
    public var partTargetSeconds: Double?
    /// `EXT-X-SERVER-CONTROL:HOLD-BACK`: the offset from the live edge a player starts at without parts (default 3
    /// target durations).
    public var holdBackSeconds: Double
    /// `EXT-X-SERVER-CONTROL:PART-HOLD-BACK`: the offset with parts (default 3 part targets).
    public var partHoldBackSeconds: Double?
    /// How players learn of new units.
    public var refresh: PlaylistRefresh
    /// LL-DASH chunked transfer: the CMAF chunk duration of each whole segment, seconds (`nil`: none). A request for
    /// a segment may go once its first chunk is encoded (dash.js's `availabilityTimeOffset`), and its bytes arrive
    /// as each chunk is encoded and the link delivers it (``ChunkedTransfer``). Exclusive with parts.
    public var chunkDurationSeconds: Double?
    /// The size of a playlist reload's response, bytes (`nil`: a reload takes no time). With it a `reload` sent at r
    /// is known once its bytes have crossed the link after one round trip, and a `blockingReload` answered at a unit's
    /// availability once they have crossed it after half a round trip (the player's `playlistArrival`).
    public var playlistBytes: Double?

    /// A presentation; hold-backs default to 3 target durations and 3 part targets, the refresh to an HLS reload
    /// every target duration (part target with parts).
    public init(
        availabilityStartSeconds: Double, kind: Kind = .live, dvrWindowSeconds: Double? = nil,
        targetDurationSeconds: Double, partTargetSeconds: Double? = nil, holdBackSeconds: Double? = nil,
        partHoldBackSeconds: Double? = nil, refresh: PlaylistRefresh? = nil, chunkDurationSeconds: Double? = nil,
        playlistBytes: Double? = nil
    ) {
        self.chunkDurationSeconds = chunkDurationSeconds
        self.playlistBytes = playlistBytes
        self.availabilityStartSeconds = availabilityStartSeconds
        self.kind = kind
        self.dvrWindowSeconds = dvrWindowSeconds
        self.targetDurationSeconds = targetDurationSeconds
        self.partTargetSeconds = partTargetSeconds
        self.holdBackSeconds = holdBackSeconds ?? 3 * targetDurationSeconds
        self.partHoldBackSeconds = partHoldBackSeconds ?? partTargetSeconds.map { 3 * $0 }
        self.refresh = refresh ?? .reload(intervalSeconds: partTargetSeconds ?? targetDurationSeconds)
    }

    /// The hold-back a player uses: `PART-HOLD-BACK` with parts, else `HOLD-BACK`.
    public var effectiveHoldBackSeconds: Double { partHoldBackSeconds ?? holdBackSeconds }

    /// The shortest unit the player receives: the part target with parts, the chunk duration with chunked transfer,
    /// else the target duration.
    public var unitSeconds: Double { partTargetSeconds ?? chunkDurationSeconds ?? targetDurationSeconds }

    /// The live edge at simulated time `now`: the media time being encoded, capped at `duration` (the content's).
    public func liveEdge(at now: Double, duration: Double) -> Double {
        min(now - availabilityStartSeconds, duration)
    }

    /// When unit `index` of `content` is available (its whole media interval has been encoded).
    public func availability(of index: Int, in content: Content) -> Double {
        availabilityStartSeconds + content.segmentStarts[index + 1]
    }

    /// The number of CMAF chunks of segment `index` of `content` (1 without chunked transfer).
    public func chunkCount(of index: Int, in content: Content) -> Int {
        guard let chunk = chunkDurationSeconds else { return 1 }
        return max(1, Int((content.segmentDurations[index] / chunk).rounded()))
    }

    /// When a request for unit `index` may first be answered: its first chunk's encode time with chunked transfer
    /// (dash.js's `availabilityTimeOffset` = segment duration − chunk duration), else its availability.
    public func firstAvailability(of index: Int, in content: Content) -> Double {
        guard chunkDurationSeconds != nil else { return availability(of: index, in: content) }
        let start = content.segmentStarts[index]
        let count = chunkCount(of: index, in: content)
        return availabilityStartSeconds + start + content.segmentDurations[index] / Double(count)
    }

    /// The CMAF chunks of segment `index` of `content` at `bits`: equal chunks, each available once its media is
    /// encoded (``CMAFChunk/evenlySplit(segmentBits:segmentStart:segmentDuration:count:)``).
    public func chunks(of index: Int, in content: Content, bits: Double) -> [CMAFChunk] {
        CMAFChunk.evenlySplit(
            segmentBits: bits, segmentStart: availabilityStartSeconds + content.segmentStarts[index],
            segmentDuration: content.segmentDurations[index], count: chunkCount(of: index, in: content))
    }

    /// The end of the media available at `now`: the end of the last available unit (0 before the first).
    public func availableEnd(at now: Double, in content: Content) -> Double {
        let encoded = now - availabilityStartSeconds
        if encoded >= content.duration - SimulationTime.tolerance { return content.duration }
        return content.segmentStarts[content.segmentIndex(containing: encoded + SimulationTime.tolerance)]
    }

    /// `seekableTimeRanges` at `now`: from the DVR window's start (0 for an event) to the available end.
    public func seekableRange(at now: Double, in content: Content) -> ClosedRange<Double> {
        let end = availableEnd(at: now, in: content)
        guard kind == .live, let window = dvrWindowSeconds else { return 0...end }
        return max(0, end - window)...end
    }

    /// When a player that first loaded the playlist at `origin` and learns of units by `refresh` can send the
    /// request for unit `index`, given its round trip `rttSeconds` (see ``PlaylistRefresh``).
    public func requestTime(
        of index: Int, in content: Content, refresh: PlaylistRefresh, origin: Double, rttSeconds: Double
    ) -> Double {
        let available = firstAvailability(of: index, in: content)
        switch refresh {
        case .template, .blockingReload:
            return available
        case .preloadHint:
            return available - rttSeconds
        case .reload(let interval):
            guard available > origin else { return origin }
            let reloads = ((available - origin) / interval - 1e-9).rounded(.up)
            return origin + reloads * interval
        }
    }
}
