import CGSL

/// Summary statistics of one metric over a set of runs (e.g. QoE over traces), computed with GSL.
///
/// The 95 % confidence interval of the mean uses Student's t with n − 1 degrees of freedom
/// (`gsl_cdf_tdist_Pinv`); percentiles use GSL's linear interpolation between order statistics
/// (`gsl_stats_quantile_from_sorted_data`). Used by `abrsim compare` and, later, `stats.csv`.
public struct SampleStatistics: Sendable, Equatable {
    /// Number of values.
    public var count: Int
    /// Arithmetic mean.
    public var mean: Double
    /// Sample standard deviation (n − 1 in the denominator); 0 for one value.
    public var standardDeviation: Double
    /// Half-width of the 95 % confidence interval of the mean (0 for fewer than two values).
    public var confidenceHalfWidth95: Double
    /// Percentiles 5, 25, 50, 75, 95.
    public var p5: Double
    public var p25: Double
    public var p50: Double
    public var p75: Double
    public var p95: Double

    /// Statistics of `values` (at least one).
    public init(_ values: [Double]) {
        precondition(!values.isEmpty, "statistics of no values")
        abrsim_gsl_disable_abort()
        count = values.count
        var sorted = values.sorted()
        mean = sorted.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
        if count > 1 {
            let m = mean
            standardDeviation = sorted.withUnsafeBufferPointer { gsl_stats_sd_m($0.baseAddress, 1, $0.count, m) }
            let t = gsl_cdf_tdist_Pinv(0.975, Double(count - 1))
            confidenceHalfWidth95 = t * standardDeviation / Double(count).squareRoot()
        } else {
            standardDeviation = 0
            confidenceHalfWidth95 = 0
        }
        func quantile(_ q: Double) -> Double {
            sorted.withUnsafeMutableBufferPointer {
                gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, q)
            }
        }
        p5 = quantile(0.05)
        p25 = quantile(0.25)
        p50 = quantile(0.5)
        p75 = quantile(0.75)
        p95 = quantile(0.95)
    }
}
