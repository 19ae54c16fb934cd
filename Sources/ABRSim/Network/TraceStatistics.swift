import CGSL

/// Summary statistics of one period of a trace, as `abrsim trace info` prints them and as the data README and
/// reference-literature.md §4.1 tabulate the shipped traces.
///
/// The mean is exact (total bits / duration). The spread figures are over **1-second bins** of the capacity:
/// bin k holds the average rate over [k, k+1) s (the last bin is the remainder of the period, shorter when the
/// duration is not whole), and each bin weighs by its length. The standard deviation is GSL's weighted standard
/// deviation (`gsl_stats_wsd_m`, which for equal bins is the sample standard deviation, n − 1); percentiles use
/// GSL's linear interpolation between order statistics (`gsl_stats_quantile_from_sorted_data`) over the whole
/// bins, plus the last bin when it is at least half a second; `zeroSeconds` counts the seconds of bins with no
/// capacity at all. Rates are bit/s, times seconds.
public struct TraceStatistics: Sendable, Equatable {
    /// Length of one period, seconds.
    public var durationSeconds: Double
    /// Pieces in the trace.
    public var pieceCount: Int
    /// Bits in one period.
    public var totalBits: Double
    /// Mean rate over the period, bit/s.
    public var meanBps: Double
    /// Standard deviation of the 1-s bin rates, bit/s.
    public var standardDeviationBps: Double
    /// 5th, 50th and 95th percentiles of the 1-s bin rates, bit/s.
    public var p5Bps: Double
    public var p50Bps: Double
    public var p95Bps: Double
    /// Lowest and highest 1-s bin rate, bit/s.
    public var minimumBps: Double
    public var maximumBps: Double
    /// Seconds of 1-s bins with zero capacity.
    public var zeroSeconds: Double

    /// The most bins the statistics hold: 11.6 days of 1-s bins (16 MB, about a second of work); the longest
    /// shipped trace lasts 18 minutes.
    public static let maximumBins = 1_000_000

    /// The statistics of `trace`, with bins of `binSeconds` (1 s unless told otherwise); a trace longer than
    /// ``maximumBins`` bins is an ``InputError``.
    public init(_ trace: Trace, binSeconds: Double = 1) throws {
        let curve = try trace.curve(atEnd: .loop)
        guard trace.duration / binSeconds <= Double(Self.maximumBins) else {
            throw InputError(
                .file(trace.name),
                .overLimit(
                    "\(trace.duration) s in bins of \(binSeconds) s",
                    limit: "\(Self.maximumBins) bins (slice the trace first)"))
        }
        abrsim_gsl_disable_abort()
        durationSeconds = trace.duration
        pieceCount = trace.pieceCount
        totalBits = curve.totalBitsPerPeriod
        meanBps = totalBits / trace.duration
        let bins = Self.bins(curve, binSeconds: binSeconds)
        zeroSeconds = zip(bins.rates, bins.lengths).reduce(0) { $0 + ($1.0 == 0 ? $1.1 : 0) }
        var weights = bins.lengths
        var rates = bins.rates
        let mean = meanBps
        standardDeviationBps =
            rates.count < 2
            ? 0
            : weights.withUnsafeBufferPointer { w in
                rates.withUnsafeBufferPointer { x in
                    gsl_stats_wsd_m(w.baseAddress, 1, x.baseAddress, 1, x.count, mean)
                }
            }
        // Percentiles over bins of (nearly) full length: a sliver of a last bin would weigh like a whole second.
        if rates.count > 1, let last = weights.last, last < binSeconds / 2 {
            rates.removeLast()
            weights.removeLast()
        }
        rates.sort()
        func quantile(_ q: Double) -> Double {
            rates.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, q) }
        }
        p5Bps = quantile(0.05)
        p50Bps = quantile(0.5)
        p95Bps = quantile(0.95)
        minimumBps = rates.first ?? 0
        maximumBps = rates.last ?? 0
    }

    /// The average rate (bit/s) and length (s) of each bin [k·w, (k+1)·w) of one period.
    static func bins(_ curve: CapacityCurve, binSeconds w: Double) -> (rates: [Double], lengths: [Double]) {
        let count = Int((curve.duration / w).rounded(.up))
        var rates: [Double] = []
        var lengths: [Double] = []
        rates.reserveCapacity(count)
        lengths.reserveCapacity(count)
        for k in 0..<count {
            let start = Double(k) * w
            let end = min(Double(k + 1) * w, curve.duration)
            guard end > start else { break }
            rates.append(curve.bits(from: start, to: end) / (end - start))
            lengths.append(end - start)
        }
        return (rates, lengths)
    }

    /// `name: value` lines, rates in kbit/s: `duration_s`, `pieces`, `total_bits`, `mean_kbps`, `sd_kbps`,
    /// `p5_kbps`, `p50_kbps`, `p95_kbps`, `min_kbps`, `max_kbps`, `zero_s`.
    public var lines: [(name: String, value: String)] {
        func kbps(_ bps: Double) -> String { Self.format(bps / 1000) }
        return [
            ("duration_s", Self.format(durationSeconds)), ("pieces", String(pieceCount)),
            ("total_bits", Self.format(totalBits)), ("mean_kbps", kbps(meanBps)),
            ("sd_kbps", kbps(standardDeviationBps)), ("p5_kbps", kbps(p5Bps)), ("p50_kbps", kbps(p50Bps)),
            ("p95_kbps", kbps(p95Bps)), ("min_kbps", kbps(minimumBps)), ("max_kbps", kbps(maximumBps)),
            ("zero_s", Self.format(zeroSeconds)),
        ]
    }

    /// A number with at most three decimals, trailing zeros removed.
    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return TraceText.format(rounded == 0 ? 0 : rounded)
    }
}
