/// One run of sabre (Spiteri, Sitaraman, Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the
/// DASH Reference Player", MMSys 2018; UMass-LIDS/sabre `src/sabre.py`), reproduced operation for operation so
/// that every number sabre prints comes out the same: the state sabre keeps in module globals lives here, the
/// network model, buffer, main loop and metrics are extensions in the files beside this one, and the ABR rules
/// and estimators are ``SabreABRRule`` and ``SabreThroughputHistory`` implementations.
///
/// Units are sabre's: sizes in bits, times in ms, bandwidths in kbit/s (bits/ms). All arithmetic is on `Double`
/// in sabre's order of operations; sabre's Python integers (sizes, bitrates, durations) are exact in a `Double`,
/// and `log`/`pow` are the C library's, as Python's `math` module calls them.
///
/// Built and run by ``run(options:network:manifest:)``; a fresh instance per run, so runs are independent and
/// may go in parallel. Its state, and that of its rules and estimators, is read and written at every download
/// step, so the run-time exclusivity check is dropped (`@exclusivity(unchecked)`): an instance runs on one thread
/// and no access to a property spans a call that reaches the same property.
public final class SabreSimulation {
    // MARK: Inputs
    let manifest: SabreManifest
    let bitrates: [Double]
    let segmentTime: Double
    let periods: [SabreNetworkPeriod]
    let options: SabreOptions
    let verbose: Bool
    /// `buffer_size` and `max_buffer_size`: `-b` × 1000, ms.
    let maxBufferSize: Double

    /// Everything sabre prints before its metric lines, in order (`-v` log, BOLA-E's buffer line).
    @exclusivity(unchecked) var output: String = ""

    // MARK: Buffer (`buffer_contents`, `buffer_fcc`)
    /// Qualities of the buffered segments, the playing one first.
    @exclusivity(unchecked) var bufferContents: [Int] = []
    /// The played part of the head segment, ms.
    @exclusivity(unchecked) var bufferFcc = 0.0

    // MARK: Metrics
    @exclusivity(unchecked) var rebufferEventCount = 0
    @exclusivity(unchecked) var rebufferTime = 0.0
    @exclusivity(unchecked) var playedUtility = 0.0
    @exclusivity(unchecked) var playedBitrate = 0.0
    @exclusivity(unchecked) var totalPlayTime = 0.0
    @exclusivity(unchecked) var totalBitrateChange = 0.0
    @exclusivity(unchecked) var totalLogBitrateChange = 0.0
    @exclusivity(unchecked) var totalReactionTime = 0.0
    @exclusivity(unchecked) var lastPlayed: Int? = nil
    @exclusivity(unchecked) var overestimateCount = 0
    @exclusivity(unchecked) var overestimateAverage = 0.0
    @exclusivity(unchecked) var goodestimateCount = 0
    @exclusivity(unchecked) var goodestimateAverage = 0.0
    @exclusivity(unchecked) var estimateAverage = 0.0
    @exclusivity(unchecked) var rampupOrigin = 0.0
    @exclusivity(unchecked) var rampupTime: Double? = nil
    let rampupThreshold: Int?
    /// `pending_quality_up`: rises of the sustainable quality whose reaction time is still being measured.
    @exclusivity(unchecked) var pendingQualityUp: [SabrePendingQualityUp] = []

    // MARK: Network (`NetworkModel` and its globals)
    @exclusivity(unchecked) var sustainableQuality: Int? = nil
    @exclusivity(unchecked) var networkTotalTime = 0.0
    @exclusivity(unchecked) var networkIndex = -1
    @exclusivity(unchecked) var timeToNext = 0.0

    // MARK: Estimates (`throughput`, `latency`)
    @exclusivity(unchecked) var throughput: Double? = nil
    @exclusivity(unchecked) var latency: Double? = nil

    // MARK: Components
    @exclusivity(unchecked) var abr: (any SabreABRRule)! = nil
    @exclusivity(unchecked) var replacer: SabreReplace? = nil
    @exclusivity(unchecked) var history: (any SabreThroughputHistory)! = nil

    init(options: SabreOptions, network: [SabreNetworkPeriod], manifest: SabreManifest) {
        self.options = options
        self.manifest = manifest
        bitrates = manifest.bitratesKbps
        segmentTime = manifest.segmentTimeMs
        periods = network
        verbose = options.verbose
        maxBufferSize = options.maxBufferSeconds * 1000
        rampupThreshold = options.rampupThreshold
    }

    /// `get_buffer_level()`: buffered ms, the head segment's played part excluded.
    @inline(__always) var bufferLevel: Double { segmentTime * Double(bufferContents.count) - bufferFcc }

    /// Appends `text` and a newline to the printed log.
    @inline(__always) func say(_ text: String) {
        output += text
        output += "\n"
    }

    /// `Abr.quality_from_throughput`: the highest quality whose segment, after the latency estimate, downloads
    /// within a segment time at `tput`; with `limit`, that quality or `limit`, whichever is lower.
    func qualityFromThroughput(_ tput: Double, atMost limit: Int = .max) -> Int {
        let p = segmentTime
        let latency = self.latency!
        var quality = 0
        while quality < limit && quality + 1 < bitrates.count && latency + p * bitrates[quality + 1] / tput <= p {
            quality += 1
        }
        return quality
    }
}

/// A rise of the sustainable quality (`pending_quality_up` entry `[time, quality]`, with the time the
/// rise was answered or withdrawn appended once known).
struct SabrePendingQualityUp {
    /// Network time of the rise, ms.
    var start: Double
    /// The new sustainable quality.
    var quality: Int
    /// Play time when a segment at that quality started, or network time when the network fell back; ms.
    var end: Double?
}

/// One download as sabre's `DownloadProgress` reports it (to the ABR's abandonment check while it runs, and when
/// it ends). Sizes in bits, times in ms.
public struct SabreDownloadProgress: Sendable, Equatable {
    /// Segment index.
    public var index: Int
    /// Quality downloaded.
    public var quality: Int
    /// The segment's size, bits.
    public var size: Double
    /// Bits received so far.
    public var downloaded: Double
    /// Time since the request, ms (latency included).
    public var time: Double
    /// Latency before the first bit, ms.
    public var timeToFirstBit: Double
    /// The quality the ABR asked to abandon to, or `nil`.
    public var abandonToQuality: Int?
}
