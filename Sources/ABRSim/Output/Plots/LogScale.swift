#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A logarithmic axis range from one power of ten to another, with ticks at the decades (and at 2 and 5 × each
/// decade when the range spans at most two decades), for values that span more than ten times (link capacity
/// going from WiFi to 3G).
///
/// Made by ``CapacityAxis`` for the timeline's capacity panel; values below ``lower`` (outages included) are drawn
/// at the bottom of the axis.
public struct LogScale: Sendable, Equatable {
    /// Lowest value on the axis, a power of ten.
    public let lower: Double
    /// Highest value on the axis, a power of ten above ``lower``.
    public let upper: Double

    /// Most decades an axis spans; a smaller `minimum` is clipped to `upper` ÷ 10⁴.
    public static let maximumDecades = 4

    /// The decades covering `minimum`…`maximum` (both > 0; otherwise 0.1…1 around the positive one).
    public init(minimum: Double, maximum: Double) {
        let high = maximum.isFinite && maximum > 0 ? maximum : 1
        let low = minimum.isFinite && minimum > 0 ? min(minimum, high) : high / 10
        var top = (log10(high) - 1e-9).rounded(.up)
        var bottom = (log10(low) + 1e-9).rounded(.down)
        if top <= bottom { top = bottom + 1 }
        bottom = max(bottom, top - Double(Self.maximumDecades))
        lower = pow(10, bottom)
        upper = pow(10, top)
    }

    /// Decades between ``lower`` and ``upper``.
    public var decades: Int { Int((log10(upper) - log10(lower)).rounded()) }

    /// The tick values from ``lower`` to ``upper``: each decade, with 2× and 5× in between when there are at most
    /// two decades.
    public var ticks: [Double] {
        let first = Int(log10(lower).rounded())
        var ticks: [Double] = []
        for exponent in first..<(first + decades) {
            let power = pow(10, Double(exponent))
            ticks.append(power)
            if decades <= 2 {
                ticks.append(2 * power)
                ticks.append(5 * power)
            }
        }
        ticks.append(upper)
        return ticks
    }

    /// The label of tick `value`: as many decimals as its decade needs (`0.01`, `0.5`, `20`).
    public func label(_ value: Double) -> String {
        let decimals = max(0, -Int((log10(value) + 1e-9).rounded(.down)))
        return fixedDecimals(value, decimals, trimZeros: true)
    }
}

/// A map from data values to pixels along a value axis, linear or logarithmic (base 10), clamped to the axis.
///
/// ``PlotPanel/y`` gives one; a value ≤ 0 on a logarithmic axis maps to its lower end.
public struct AxisMap: Sendable {
    /// Data value at the start of the axis.
    public var domainLower: Double
    /// Data value at the end of the axis.
    public var domainUpper: Double
    /// Pixel of `domainLower`.
    public var pixelStart: Double
    /// Pixel of `domainUpper`.
    public var pixelEnd: Double
    /// Whether values are placed by their logarithm (then both domain ends are > 0).
    public var logarithmic: Bool

    /// The pixel of `value`, clamped to the axis.
    public func callAsFunction(_ value: Double) -> Double {
        let fraction: Double
        if logarithmic {
            fraction =
                value > 0 ? (log10(value) - log10(domainLower)) / (log10(domainUpper) - log10(domainLower)) : 0
        } else {
            let span = domainUpper == domainLower ? 1 : domainUpper - domainLower
            fraction = (value - domainLower) / span
        }
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return pixelStart + (pixelEnd - pixelStart) * clamped
    }
}

/// The rule for the scale of the timeline's capacity axis: logarithmic when the plotted capacity spans more than
/// ten times, so that a slow stretch (3G after WiFi) is not flattened against zero.
///
/// The span is the largest capacity bin over the 1st percentile of the bins above zero (so that a few bins cut
/// by an outage's edge do not decide it); zero bins are outages, marked on the timeline instead. With a span of
/// at most ``maximumLinearSpan`` the axis is linear from 0.
public enum CapacityAxis {
    /// Largest span (max ÷ low percentile) still drawn on a linear axis.
    public static let maximumLinearSpan = 10.0
    /// The percentile of the nonzero bins taken as the low end.
    public static let lowPercentile = 0.01

    /// The low end and the high end of `values` (Mbit/s) by the rule above: the low end is the
    /// ``lowPercentile`` order statistic of the values > 0 (`nil` when none is).
    public static func range(_ values: [Double]) -> (low: Double, high: Double)? {
        let positive = values.filter { $0 > 0 && $0.isFinite }.sorted()
        guard let high = positive.last else { return nil }
        let index = Int((Double(positive.count - 1) * lowPercentile).rounded(.down))
        return (positive[index], high)
    }

    /// The logarithmic scale for `values` (Mbit/s) when they span more than ``maximumLinearSpan`` times, else
    /// `nil` (a linear axis).
    public static func logScale(_ values: [Double]) -> LogScale? {
        guard let range = range(values), range.high > maximumLinearSpan * range.low else { return nil }
        return LogScale(minimum: range.low, maximum: range.high)
    }
}
