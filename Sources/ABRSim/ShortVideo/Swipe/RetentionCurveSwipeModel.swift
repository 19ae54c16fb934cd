#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swipes drawn from per-item retention curves: item i uses `curves[i % curves.count]`; the viewer leaves during
/// second k with chance `fractions[k] − fractions[k+1]` (uniformly within that second) and otherwise watches to the
/// end. Draws come from the run's seed on one ``RandomStream`` per item. (The MM'22 challenge draws from the same
/// curves with numpy and Python generators seeded per clip: ``MMGC22SwipeModel``.)
public struct RetentionCurveSwipeModel: SeededSwipeModel {
    /// The curves, reused cyclically over the feed.
    public var curves: [RetentionCurve]
    /// The seed of the draws.
    public var seed: UInt64

    /// A model over `curves` (at least one) drawing from `seed`.
    public init(curves: [RetentionCurve], seed: UInt64) throws {
        guard !curves.isEmpty else {
            throw InputError(.none, .noneGiven("curve", in: "a retention-curve swipe model"))
        }
        self.curves = curves
        self.seed = seed
    }

    public func watchSeconds(item: Int, durationSeconds: Double) -> Double {
        let curve = curves[item % curves.count]
        let random = RandomSource(seed: seed, stream: .swipe(item: item))
        let u = random.uniform()
        var cumulative = 0.0
        for (second, chance) in curve.leaveProbabilities.enumerated() {
            cumulative += chance
            if u < cumulative {
                let start = curve.seconds[second]
                let width = curve.seconds[second + 1] - start
                return min(start + width * random.uniform(), durationSeconds)
            }
        }
        return durationSeconds
    }
}

/// Dashlet's swipe model (Li et al., NSDI 2023): a viewer of an item lasting T seconds swipes before time t with
/// probability 0.9 · (1 − e^(−λt/T)); the remaining mass, 1 − 0.9 · (1 − e^(−λ)), watches to the end. Drawn by
/// inverting that CDF from one uniform per item (the run's seed, one ``RandomStream`` per item).
public struct ExponentialSwipeModel: SeededSwipeModel {
    /// The share of viewers who may swipe at all (0.9 in Dashlet).
    public static let swipeShare = 0.9
    /// λ, the rate per item duration (> 0).
    public var lambda: Double
    /// The seed of the draws.
    public var seed: UInt64

    /// A model with rate `lambda` per item duration; throws for λ ≤ 0 or not finite.
    public init(lambda: Double, seed: UInt64) throws {
        guard lambda.isFinite, lambda > 0 else {
            throw InputError(.none, .mustBe("the exponential swipe model's rate λ", rule: "> 0", found: "\(lambda)"))
        }
        self.lambda = lambda
        self.seed = seed
    }

    /// P(swipe before `seconds`) on an item lasting `durationSeconds`.
    public func swipeProbability(before seconds: Double, durationSeconds: Double) -> Double {
        Self.swipeShare * (1 - exp(-lambda * seconds / durationSeconds))
    }

    public func watchSeconds(item: Int, durationSeconds: Double) -> Double {
        let u = RandomSource(seed: seed, stream: .swipe(item: item)).uniform()
        guard u < swipeProbability(before: durationSeconds, durationSeconds: durationSeconds) else {
            return durationSeconds
        }
        return min(-(durationSeconds / lambda) * log(1 - u / Self.swipeShare), durationSeconds)
    }
}
