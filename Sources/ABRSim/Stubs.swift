// TEMPORARY stand-ins for types being written on other branches; deleted at merge.
public enum TraceEndBehavior: String, Sendable, CaseIterable { case loop, hold, end }
public struct CapacityCurve: Sendable {
    var starts: [Double]; var rates: [Double]; var prefix: [Double]
    public var duration: Double; public var atEnd: TraceEndBehavior
    var lat: [Double]?
    public init(starts: [Double], ratesBps: [Double], duration: Double, latencySeconds: [Double]? = nil, lossRates: [Double]? = nil, atEnd: TraceEndBehavior = .loop) throws {
        self.starts = starts; rates = ratesBps; self.duration = duration; self.atEnd = atEnd; lat = latencySeconds
        prefix = [0]
        for i in 0..<starts.count { let e = i + 1 < starts.count ? starts[i+1] : duration; prefix.append(prefix[i] + (e - starts[i]) * rates[i]) }
    }
    public var totalBitsPerPeriod: Double { prefix.last! }
    public func latency(at t: Double) -> Double? { lat?[0] }
    public func rate(at t: Double) -> Double { rates[0] }
    public func cumulativeBits(at t: Double) -> Double { t * rates[0] }
    public func time(atCumulativeBits s: Double) -> Double { rates[0] > 0 ? s / rates[0] : .infinity }
    public func bits(from t0: Double, to t1: Double) -> Double { cumulativeBits(at: t1) - cumulativeBits(at: t0) }
    public func timeToDeliver(_ bits: Double, after t0: Double) -> Double { bits <= 0 ? t0 : time(atCumulativeBits: cumulativeBits(at: t0) + bits) }
}
public struct NetworkTimeline: Sendable { public let curve: CapacityCurve; public let labels: [String] }
public struct ThroughputSample: Sendable, Equatable { public var bits: Double; public var requestTime: Double; public var firstByteTime: Double; public var doneTime: Double
    public var downloadSeconds: Double { doneTime - firstByteTime }; public var totalSeconds: Double { doneTime - requestTime }
    public var bitsPerSecond: Double { bits / downloadSeconds } }
public protocol ThroughputEstimator: Sendable {
    mutating func add(_ sample: ThroughputSample); var hasEnoughData: Bool { get }; var defaultEstimate: Double { get }; var estimate: Double { get }; mutating func reset() }
public struct LastSampleEstimator: ThroughputEstimator {
    var last: Double?; public var defaultEstimate: Double = 1e6
    public init() {}
    public mutating func add(_ s: ThroughputSample) { last = s.bitsPerSecond }
    public var hasEnoughData: Bool { last != nil }
    public var estimate: Double { last ?? defaultEstimate }
    public mutating func reset() { last = nil }
}
public struct HarmonicMeanEstimator: ThroughputEstimator { var inner = LastSampleEstimator(); public init(window: Int) {}
    public mutating func add(_ s: ThroughputSample) { inner.add(s) }; public var hasEnoughData: Bool { inner.hasEnoughData }
    public var defaultEstimate: Double { 1e6 }; public var estimate: Double { inner.estimate }; public mutating func reset() {} }
public struct DualEWMAEstimator: ThroughputEstimator { var inner = LastSampleEstimator()
    public static let hlsjs = DualEWMAEstimator(); public static let dashjs = DualEWMAEstimator(); public static let shaka = DualEWMAEstimator()
    public mutating func add(_ s: ThroughputSample) { inner.add(s) }; public var hasEnoughData: Bool { inner.hasEnoughData }
    public var defaultEstimate: Double { 1e6 }; public var estimate: Double { inner.estimate }; public mutating func reset() {} }
public struct SlidingPercentileEstimator: ThroughputEstimator { var inner = LastSampleEstimator(); public init() {}
    public mutating func add(_ s: ThroughputSample) { inner.add(s) }; public var hasEnoughData: Bool { inner.hasEnoughData }
    public var defaultEstimate: Double { 1e6 }; public var estimate: Double { inner.estimate }; public mutating func reset() {} }
