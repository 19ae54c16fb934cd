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
/// may go in parallel.
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
    var output: String = ""

    // MARK: Buffer (`buffer_contents`, `buffer_fcc`)
    /// Qualities of the buffered segments, the playing one first.
    var bufferContents: [Int] = []
    /// The played part of the head segment, ms.
    var bufferFcc = 0.0

    // MARK: Metrics
    var rebufferEventCount = 0
    var rebufferTime = 0.0
    var playedUtility = 0.0
    var playedBitrate = 0.0
    var totalPlayTime = 0.0
    var totalBitrateChange = 0.0
    var totalLogBitrateChange = 0.0
    var totalReactionTime = 0.0
    var lastPlayed: Int? = nil
    var overestimateCount = 0
    var overestimateAverage = 0.0
    var goodestimateCount = 0
    var goodestimateAverage = 0.0
    var estimateAverage = 0.0
    var rampupOrigin = 0.0
    var rampupTime: Double? = nil
    let rampupThreshold: Int?
    /// `pending_quality_up`: rises of the sustainable quality whose reaction time is still being measured.
    var pendingQualityUp: [SabrePendingQualityUp] = []

    // MARK: Network (`NetworkModel` and its globals)
    var sustainableQuality: Int? = nil
    var networkTotalTime = 0.0
    var networkIndex = -1
    var timeToNext = 0.0

    // MARK: Estimates (`throughput`, `latency`)
    var throughput: Double? = nil
    var latency: Double? = nil

    // MARK: Components
    var abr: (any SabreABRRule)! = nil
    var replacer: SabreReplace? = nil
    var history: (any SabreThroughputHistory)! = nil

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
    /// within a segment time at `tput`.
    func qualityFromThroughput(_ tput: Double) -> Int {
        let p = segmentTime
        let latency = self.latency!
        var quality = 0
        while quality + 1 < bitrates.count && latency + p * bitrates[quality + 1] / tput <= p {
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
