/// When a viewer swipes away from each item of a short-video feed. Conforming models are seeded and
/// deterministic: the same model and arguments always give the same watch time, whatever was asked before, so a
/// feed's items can be drawn in any order or in parallel. Called by the feed's session when an item is queued.
public protocol SwipeModel: Sendable {
    /// The seconds of item `item` (its 0-based place in the feed) that the viewer watches before swiping,
    /// in 0 … `durationSeconds` (`durationSeconds` when the viewer watches to the end).
    func watchSeconds(item: Int, durationSeconds: Double) -> Double
}

/// A swipe model whose draws come from ``seed``, so one decoded model serves every run's seed (the feed decoder
/// sets the run's seed on a copy).
public protocol SeededSwipeModel: SwipeModel {
    /// The seed of the draws.
    var seed: UInt64 { get set }
}

/// A fixed list of watch times, s, one per item in feed order (items past the list are watched to the end);
/// for hand-computed tests.
public struct FixedWatchTimes: SwipeModel {
    /// The watch time of each item, s (each ≥ 0).
    public var seconds: [Double]

    /// A list of watch times; throws an ``InputError`` (naming `place`) for a negative or non-finite one.
    public init(seconds: [Double], place: String = "watch times") throws {
        for (index, value) in seconds.enumerated() where !(value.isFinite && value >= 0) {
            throw InputError(
                InputPlace(file: place, position: .named("item \(index)")),
                .mustBe("a watch time", rule: "a number of seconds ≥ 0", found: "\(value)"))
        }
        self.seconds = seconds
    }

    public func watchSeconds(item: Int, durationSeconds: Double) -> Double {
        seconds.indices.contains(item) ? min(seconds[item], durationSeconds) : durationSeconds
    }
}

extension RandomStream {
    /// The swipe draws of feed item `item` (one stream per item, so items draw independently).
    static func swipe(item: Int) -> RandomStream { RandomStream(tag: 0x5357, item) }
}
