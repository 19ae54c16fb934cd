/// A swipe model that also gives the chance of watching past each point of an item: what Dashlet-style and the
/// challenge's `fixed_preload` preload policies weigh upcoming items by. Called by ``FeedView``.
public protocol SwipeProbabilities: SwipeModel {
    /// P(the viewer of item `item`, lasting `durationSeconds`, watches more than `seconds` of it), in [0, 1].
    func probabilityWatching(past seconds: Double, item: Int, durationSeconds: Double) -> Double
}

extension FixedWatchTimes: SwipeProbabilities {
    public func probabilityWatching(past seconds: Double, item: Int, durationSeconds: Double) -> Double {
        watchSeconds(item: item, durationSeconds: durationSeconds) > seconds ? 1 : 0
    }
}

extension ExponentialSwipeModel: SwipeProbabilities {
    public func probabilityWatching(past seconds: Double, item: Int, durationSeconds: Double) -> Double {
        seconds >= durationSeconds ? 0 : 1 - swipeProbability(before: max(seconds, 0), durationSeconds: durationSeconds)
    }
}

extension RetentionCurveSwipeModel: SwipeProbabilities {
    /// The curve's fraction still watching at `seconds`, relative to its first line, linear within each second (the
    /// model leaves uniformly within a second).
    public func probabilityWatching(past seconds: Double, item: Int, durationSeconds: Double) -> Double {
        guard seconds < durationSeconds else { return 0 }
        let curve = curves[item % curves.count]
        let first = curve.fractions[0]
        guard first > 0 else { return 0 }
        guard seconds > curve.seconds[0] else { return 1 }
        for index in 1..<curve.seconds.count where seconds <= curve.seconds[index] {
            let start = curve.seconds[index - 1]
            let share = (seconds - start) / (curve.seconds[index] - start)
            let fraction = curve.fractions[index - 1] + share * (curve.fractions[index] - curve.fractions[index - 1])
            return fraction / first
        }
        return curve.fractions[curve.fractions.count - 1] / first
    }
}
