/// dash.js's throughput measurement of one low-latency (Fetch API, chunked transfer) request: the download time it
/// attributes to the request and the throughput sample it stores, after dash.js v5.1.1 (`ccf3b95`)
/// `src/streaming/net/FetchLoader.js` (`_calculateThroughputByMoofMdatTimes`, `calculateDownloadedTime`) and
/// `src/streaming/models/ThroughputModel.js` (`_calculateThroughputValuesForFetch`).
///
/// - ``Mode/moof`` (`lowLatencyDownloadTimeCalculationModeMoofParsing`, dash.js's default): per chunk, its bytes over
///   the time from its `moof` (first byte) to its `mdat` end (last byte), in bit/ms. The segment's last chunk is
///   dropped; with one chunk or fewer left there is no estimate. A chunk of 1 ms or less is merged with the next
///   ones until the merged span exceeds 1 ms (its bytes counted from the chunk that closes the span, as dash.js
///   does). The throughput is the mean of the per-chunk values; the download time is total bits / that throughput.
/// - ``Mode/downloadedData`` (`lowLatencyDownloadTimeCalculationModeDownloadedData`): the response body's reads
///   (time, bytes). Reads of at most a quarter of the mean read size are dropped; the download time is the sum of
///   the gaps between consecutive reads that are shorter than the mean gap ((last − first) / number of reads), so
///   the idle waits between chunks are left out. ABRSim has no browser reads: each chunk's bytes are delivered as
///   reads of ``readBytes`` (a TLS record, 16 KiB, the most a browser can decrypt and hand over at once), timed by
///   linear interpolation between the chunk's first and last byte (exact when the capacity is constant within a
///   chunk). Each read's time is when its last byte arrived, so one read's transfer per chunk is lost to the gap
///   before it: with k reads per chunk the estimate is k/(k − 1) × the link rate on a constant link.
/// - Without an estimate (no chunks, too few, or a download time of 0, which dash.js tests for truth) the download
///   time is the whole request, from request to last byte (HTTPLoader's trace `d` without a `time`).
/// - The sample is `Math.round(8 × bytes / download ms)` kbit/s (``sampleKbps(_:)``).
///
/// Times are taken in milliseconds of simulation time (dash.js reads `performance.now()`). Pure; called by
/// ``DashLowLatencyEstimator``.
public struct DashLowLatencyThroughput: Sendable, Equatable {
    /// How the download time of a chunked request is worked out (`abr.throughput.lowLatencyDownloadTimeCalculationMode`).
    public enum Mode: String, ParameterChoice {
        /// `lowLatencyDownloadTimeCalculationModeMoofParsing`, the default.
        case moof
        /// `lowLatencyDownloadTimeCalculationModeDownloadedData`.
        case downloadedData = "downloaded"
    }

    /// A TLS record's largest payload, 2¹⁴ bytes: the read size assumed for ``Mode/downloadedData``.
    public static let tlsRecordBytes = 16_384.0

    /// The mode.
    public var mode: Mode
    /// Bytes per body read (``Mode/downloadedData`` only).
    public var readBytes: Double

    /// The calculation in `mode` (dash.js's default: moof parsing).
    public init(mode: Mode = .moof, readBytes: Double = Self.tlsRecordBytes) {
        precondition(readBytes > 0, "a read holds at least one byte")
        self.mode = mode
        self.readBytes = readBytes
    }

    /// One stored sample: its throughput in kbit/s (rounded as dash.js rounds it) and its download time in ms
    /// (the weight of dash.js's EWMA is 0.0015 per ms of it).
    public struct Sample: Sendable, Equatable {
        /// `Math.round(8 × bytes / downloadTimeMs)`, kbit/s.
        public var kbps: Double
        /// The download time dash.js attributes to the request, ms.
        public var downloadTimeMs: Double
    }

    /// The sample dash.js stores for `sample`: the chunk-based download time when the mode yields one, else the
    /// whole request. `nil` for a sample with no bits or no time.
    public func sampleKbps(_ sample: ThroughputSample) -> Sample? {
        let bytes = sample.bits / 8
        var time = chunkDownloadTimeMs(sample.chunks) ?? 0
        if time == 0 { time = (sample.doneTime - sample.requestTime) * 1000 }
        guard bytes > 0, time > 0 else { return nil }
        return Sample(kbps: (8 * bytes / time).rounded(.toNearestOrAwayFromZero), downloadTimeMs: time)
    }

    /// The download time (ms) the mode attributes to a chunked request, `nil` when it gives none.
    public func chunkDownloadTimeMs(_ chunks: [ChunkTiming]) -> Double? {
        guard !chunks.isEmpty else { return nil }
        let totalBits = chunks.reduce(0) { $0 + $1.bits }
        switch mode {
        case .moof:
            guard let bitsPerMs = Self.moofThroughputBitsPerMs(chunks), bitsPerMs != 0 else { return nil }
            return totalBits / bitsPerMs
        case .downloadedData:
            return Self.downloadedTimeMs(reads(chunks), totalBytes: totalBits / 8)
        }
    }

    /// `_calculateThroughputByMoofMdatTimes`: the mean per-chunk throughput in bit/ms (= kbit/s), the last chunk
    /// left out; `nil` with fewer than two chunks left or no chunk value.
    public static func moofThroughputBitsPerMs(_ chunks: [ChunkTiming]) -> Double? {
        let used = chunks.dropLast()
        guard used.count > 1 else { return nil }
        var values: [Double] = []
        var shortStart: Double?
        var shortBits = 0.0
        for chunk in used {
            let start = chunk.firstByteTime * 1000
            let end = chunk.lastByteTime * 1000
            if end - start > 1 {
                values.append(chunk.bits / (end - start))
                shortStart = nil
            } else {
                if shortStart == nil {
                    shortStart = start
                    shortBits = 0
                }
                let span = end - shortStart!
                shortBits += chunk.bits
                if span > 1 {
                    values.append(shortBits / span)
                    shortStart = nil
                }
            }
        }
        guard !values.isEmpty else { return nil }
        return values.reduce(0, +) / Double(values.count)
    }

    /// The body reads of a chunked response: (time in ms, bytes), each chunk cut into reads of ``readBytes``
    /// (the last one shorter), timed by linear interpolation between the chunk's first and last byte.
    public func reads(_ chunks: [ChunkTiming]) -> [(timeMs: Double, bytes: Double)] {
        var result: [(timeMs: Double, bytes: Double)] = []
        for chunk in chunks {
            let bytes = chunk.bits / 8
            var done = 0.0
            while done < bytes {
                let piece = min(readBytes, bytes - done)
                done += piece
                let time = chunk.firstByteTime + chunk.transferSeconds * (done / bytes)
                result.append((timeMs: time * 1000, bytes: piece))
            }
        }
        return result
    }

    /// `calculateDownloadedTime`: the download time in ms of `reads`, `nil` with fewer than two reads left after
    /// dropping those of at most a quarter of the mean read.
    public static func downloadedTimeMs(_ reads: [(timeMs: Double, bytes: Double)], totalBytes: Double) -> Double? {
        let threshold = (totalBytes / 4) / Double(reads.count)
        let kept = reads.filter { $0.bytes > threshold }
        guard kept.count > 1 else { return nil }
        let meanGap = (kept[kept.count - 1].timeMs - kept[0].timeMs) / Double(kept.count)
        var time = 0.0
        for index in 0..<(kept.count - 1) {
            let gap = kept[index + 1].timeMs - kept[index].timeMs
            time += gap < meanGap ? gap : 0
        }
        return time
    }
}
