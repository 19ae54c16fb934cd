/// dash.js constants shared by the dash.js-derived policies (`bola-e`, `dynamic`); reference-players.md §1.1.
public enum DashDefaults {
    /// `streaming.buffer.bufferTimeDefault`, seconds.
    public static let bufferTimeDefault = 18.0
    /// `abr.throughput.bandwidthSafetyFactor`.
    public static let bandwidthSafetyFactor = 0.9
    /// `AbrController.DEFAULT_VIDEO_BITRATE` (1000 kbit/s): the initial bitrate before any throughput sample.
    public static let initialBitrateBps = 1_000_000.0
    /// `streaming.buffer.stallThreshold`, seconds: below it the buffer state is BUFFER_EMPTY.
    public static let stallThreshold = 0.3

    /// dash.js's BUFFER_EMPTY state: buffer below the stall threshold, or the player stalled.
    public static func isBufferEmpty(_ context: ABRContext) -> Bool {
        context.bufferSeconds < stallThreshold || context.playbackState == .buffering
    }

    /// The variant dash.js starts with before it has a throughput sample: the highest ≤ 1000 kbit/s
    /// (`getOptimalRepresentationForBitrate(DEFAULT_VIDEO_BITRATE)`, no safety factor), else the lowest.
    public static func initialVariant(_ context: ABRContext) -> Int {
        highestVariant(atMost: initialBitrateBps, in: context.content, upTo: context.maxVariant)
    }
}

/// dash.js's AbandonRequestsRule (`src/streaming/rules/abr/AbandonRequestsRule.js`, reference-players.md §1.5):
/// abandons a segment download that is going too slowly and re-requests it at a variant the measured throughput
/// can carry. A value owned by a policy (`bola-e`, `dynamic`), fed every progress report.
///
/// Per report, while the buffer is at most `bufferTimeDefault` (18 s): record the throughput so far,
/// received bits / seconds since the first byte. Once there are ≥ `minimumSamples` (6) records, more than
/// `graceSeconds` (0.5 s) have passed since the first byte and the download is unfinished: measured = the mean of
/// the records; if total bits / measured ≥ `multiplier` (1.8) × segment duration and the variant is not the
/// lowest, target = the highest variant ≤ safety (0.9) × measured (capped by `maxVariant`); abandon when the bits
/// still to come exceed total × b_target / b_current, i.e. when re-fetching at the target costs less than
/// finishing. At most once per segment (dash.js's `abandonDict`). dash.js counts browser progress events; ABRSim
/// counts the player's progress checks, every ``checkInterval`` seconds (0.05 s, the XMLHttpRequest progress-event
/// period). Not modelled: dash.js's 10 s ABANDON_LOAD hold-off after an abandonment (other rules may still
/// switch up during it there).
public struct DashAbandonRule: Sendable {
    /// Buffer level (seconds) above which the rule is idle (`bufferTimeDefault`).
    public var bufferTimeDefault: Double
    /// Safety factor on the measured throughput when choosing the target (`bandwidthSafetyFactor`).
    public var safety: Double
    /// Abandon only if the download would take at least this many segment durations (`abandonDurationMultiplier`).
    public var multiplier = 1.8
    /// Seconds after the first byte before the rule may act (`minSegmentDownloadTimeThresholdInMs` / 1000).
    public var graceSeconds = 0.5
    /// Throughput records needed before the rule may act (`minThroughputSamplesThreshold`).
    public var minimumSamples = 6
    /// Seconds between progress reports the owning policy asks the player for.
    public var checkInterval = 0.05
    private var tracked: (segment: Int, requestTime: Double)?
    private var sampleSum = 0.0
    private var sampleCount = 0
    private var abandonedSegments = SegmentFlags()

    /// The rule with dash.js's defaults unless given.
    public init(
        bufferTimeDefault: Double = DashDefaults.bufferTimeDefault, safety: Double = DashDefaults.bandwidthSafetyFactor
    ) {
        self.bufferTimeDefault = bufferTimeDefault
        self.safety = safety
    }

    /// Judges one progress report of the download in flight.
    public mutating func evaluate(_ progress: DownloadProgress, context: ABRContext) -> ProgressDecision {
        guard !abandonedSegments.contains(progress.segment), context.bufferSeconds <= bufferTimeDefault else {
            return .keepGoing
        }
        if tracked?.segment != progress.segment || tracked?.requestTime != progress.requestTime {
            tracked = (progress.segment, progress.requestTime)
            sampleSum = 0
            sampleCount = 0
        }
        let elapsed = progress.time - progress.firstByteTime
        if progress.receivedBits > 0, elapsed > 0 {
            sampleSum += progress.receivedBits / elapsed
            sampleCount += 1
        }
        guard sampleCount >= minimumSamples, elapsed > graceSeconds, progress.receivedBits < progress.totalBits,
            progress.variant > 0
        else { return .keepGoing }
        let measured = sampleSum / Double(sampleCount)
        let duration = context.content.segmentDurations[progress.segment]
        guard progress.totalBits / measured >= multiplier * duration else { return .keepGoing }
        let target = highestVariant(atMost: safety * measured, in: context.content, upTo: context.maxVariant)
        let variants = context.content.variants
        let targetBits = progress.totalBits * variants[target].bitrateBps / variants[progress.variant].bitrateBps
        guard progress.totalBits - progress.receivedBits > targetBits else { return .keepGoing }
        abandonedSegments.insert(progress.segment)
        return .abandon(switchTo: target)
    }

    /// What ``evaluate(_:context:)`` may do at the checks of `window`: records only matter to a later check of the
    /// same request (a new request starts new records). A check can abandon only if the mean of the records is at most total bits /
    /// (1.8 × duration), so when every record (those taken, and each check's received / elapsed, bounded below by
    /// `averageRateFloor`) stays above it, none can; nor can one before the grace time or the sixth record, for the
    /// lowest variant, or once fewer bits remain than a re-fetch at the lowest variant would cost.
    public func outlook(in window: ProgressWindow) -> ProgressOutlook {
        let context = window.context
        // No record is taken, or none can ever lead this request to an abandonment (received bits only grow).
        guard !abandonedSegments.contains(window.segment), window.bufferLow <= bufferTimeDefault, window.variant > 0,
            window.receivedAtLeast < window.totalBits
        else { return .idle }
        let margin = 1e-9
        let variants = context.content.variants
        let lowest = variants.reduce(Double.infinity) { min($0, $1.bitrateBps) }
        let leastTargetBits = window.totalBits * lowest / variants[window.variant].bitrateBps
        guard window.totalBits - window.receivedAtLeast > leastTargetBits * (1 - margin) else { return .idle }
        guard window.lastTime - window.firstByteTime > graceSeconds else { return .recordsOnly }
        let isTracked = tracked?.segment == window.segment && tracked?.requestTime == window.requestTime
        let taken = isTracked ? sampleCount : 0
        guard taken + window.uncountedChecks >= minimumSamples else { return .recordsOnly }
        let takenMean = isTracked && sampleCount > 0 ? sampleSum / Double(sampleCount) : Double.infinity
        var measuredFloor = min(takenMean, window.averageRateFloor)
        // When every skipped check takes a record, the mean at a check of the window is at least the lesser of the
        // mean before the window and the window's own floor.
        if window.everyCheckReceives, max(window.earlierBufferHigh, window.bufferHigh) <= bufferTimeDefault {
            let count = Double(taken + window.earlierChecks)
            let before =
                count > 0 ? ((isTracked ? sampleSum : 0) + window.earlierRateFloorSum) / count : Double.infinity
            measuredFloor = max(measuredFloor, min(before, window.windowRateFloor))
        }
        let duration = context.content.segmentDurations[window.segment]
        if measuredFloor > 0, window.totalBits / measuredFloor < multiplier * duration * (1 - margin) {
            return .recordsOnly
        }
        return .mayAct
    }
}

/// A set of segment indices (≥ 0) as one bit each: what ``DashAbandonRule`` asks at every progress check (every
/// 50 ms of every download), without the hashing of a `Set<Int>`.
struct SegmentFlags: Sendable, Equatable {
    private var words: [UInt64] = []

    /// Whether `segment` is in the set.
    func contains(_ segment: Int) -> Bool {
        let word = segment >> 6
        return word < words.count && words[word] & (1 << UInt64(segment & 63)) != 0
    }

    /// Adds `segment`.
    mutating func insert(_ segment: Int) {
        let word = segment >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] |= 1 << UInt64(segment & 63)
    }
}
