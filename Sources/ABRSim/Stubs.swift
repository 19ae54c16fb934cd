// TEMPORARY stand-ins for types being written on other branches; deleted at merge.
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
