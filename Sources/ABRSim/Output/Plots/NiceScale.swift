#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An axis range with round tick marks, by Heckbert's "nice numbers" (Graphics Gems, 1990): the tick step is
/// 1, 2 or 5 × 10ᵏ, chosen so that about `maximumTicks` ticks cover the data, and the range is widened to whole
/// steps.
///
/// Made by the plot types for every axis; the labels carry just as many decimals as the step needs.
public struct NiceScale: Sendable, Equatable {
    /// Lowest value on the axis (the first tick).
    public let lower: Double
    /// Highest value on the axis (the last tick).
    public let upper: Double
    /// Distance between ticks.
    public let step: Double

    /// A scale covering `minimum`…`maximum` with about `maximumTicks` ticks (at least 2). An empty or
    /// degenerate range becomes 0…1 around the value (or value ± 1 when it is not 0).
    public init(minimum: Double, maximum: Double, maximumTicks: Int = 6) {
        var low = minimum.isFinite ? minimum : 0
        var high = maximum.isFinite ? maximum : 1
        if high < low { swap(&low, &high) }
        if high - low < 1e-12 * max(1, low.magnitude) {
            if low == 0 {
                high = 1
            } else {
                low -= low.magnitude * 0.5
                high += high.magnitude * 0.5
            }
        }
        let range = Self.niceNumber(high - low, rounding: false)
        step = Self.niceNumber(range / Double(max(maximumTicks, 2) - 1), rounding: true)
        lower = (low / step).rounded(.down) * step
        upper = (high / step - 1e-9).rounded(.up) * step
    }

    /// The tick values from ``lower`` to ``upper``.
    public var ticks: [Double] {
        let count = Int(((upper - lower) / step).rounded()) + 1
        return (0..<count).map { lower + Double($0) * step }
    }

    /// Decimals a tick label needs: 0 for steps of 1 and more, 1 for 0.5 or 0.1, 2 for 0.05, …
    public var decimals: Int { max(0, -Int(log10(step).rounded(.down))) }

    /// The label of tick `value`.
    public func label(_ value: Double) -> String { fixedDecimals(value, decimals) }

    /// Heckbert's nice number near `x` (> 0): 1, 2, 5 or 10 × 10ᵏ, rounded to the nearest when `rounding`,
    /// else the smallest one ≥ `x`.
    public static func niceNumber(_ x: Double, rounding: Bool) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        let exponent = log10(x).rounded(.down)
        let power = pow(10, exponent)
        let fraction = x / power
        let nice: Double
        if rounding {
            nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        return nice * power
    }
}

/// A linear map from data values to pixels along one axis.
public struct LinearMap: Sendable {
    /// Data value at the start of the axis.
    public var domainLower: Double
    /// Data value at the end of the axis.
    public var domainUpper: Double
    /// Pixel of `domainLower`.
    public var pixelStart: Double
    /// Pixel of `domainUpper` (smaller than `pixelStart` for a y axis).
    public var pixelEnd: Double

    /// A map of `domainLower…domainUpper` onto `pixelStart…pixelEnd`.
    public init(domainLower: Double, domainUpper: Double, pixelStart: Double, pixelEnd: Double) {
        self.domainLower = domainLower
        self.domainUpper = domainUpper == domainLower ? domainLower + 1 : domainUpper
        self.pixelStart = pixelStart
        self.pixelEnd = pixelEnd
    }

    /// The pixel of `value`, clamped to the axis.
    public func callAsFunction(_ value: Double) -> Double {
        let fraction = (value - domainLower) / (domainUpper - domainLower)
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return pixelStart + (pixelEnd - pixelStart) * clamped
    }
}
