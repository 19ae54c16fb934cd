#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The challenge's `user_module.Retention`: how long the user watches one clip, drawn from its retention curve
/// with the clip's seed pair. `np.random.seed(np_seed)` then `np.random.choice(user_time[:-1], p=diff(1 − ret))`
/// picks a whole second; if it is the last one the user watches exactly that long, else `random.seed(py_seed)`
/// and `int(random.uniform(t, t + 1000))` picks the millisecond.
public struct MMGC22Retention: Sendable, Equatable {
    /// The sampled watch time, ms (`get_ret_duration`).
    public var watchMilliseconds: Double

    /// The draw for `clip` under `seeds` (`np_seed`, `py_seed`).
    public init(clip: MMGC22Clip, seeds: MMGC22SeedPair) {
        var numpy = NumpyLegacyRandomState(seed: UInt32(truncatingIfNeeded: seeds.numpySeed))
        let times = clip.retentionTimesMs
        let index = numpy.choiceIndex(probabilities: Self.leaveProbabilities(clip))
        let interval = times[index]
        if interval == times[times.count - 2] {
            watchMilliseconds = interval
        } else {
            var python = PythonRandom(seed: seeds.pythonSeed)
            watchMilliseconds = python.uniform(interval, interval + 1000).rounded(.towardZero)
        }
    }

    /// A watch time given directly (tests).
    public init(watchMilliseconds: Double) { self.watchMilliseconds = watchMilliseconds }

    /// `get_watch_chunk_cnt`: ⌊watch / 1000⌋, the last chunk index whose quality counts.
    public var watchChunkCount: Int { Int((watchMilliseconds / MMGC22Model.chunkMilliseconds).rounded(.down)) }

    /// `np.diff(1.0 − ret)`: the chance of leaving in each second, as numpy computes it.
    public static func leaveProbabilities(_ clip: MMGC22Clip) -> [Double] {
        let churn = clip.retention.map({ 1.0 - $0 })
        return (0..<(churn.count - 1)).map({ churn[$0 + 1] - churn[$0] })
    }
}

/// One clip's seed pair: `np_seed` for numpy's draw of the second, `py_seed` for Python's of the millisecond.
public struct MMGC22SeedPair: Sendable, Equatable {
    /// Seeds `np.random.seed` (0 … 2³²−1).
    public var numpySeed: Int64
    /// Seeds `random.seed`.
    public var pythonSeed: Int64

    public init(numpySeed: Int64, pythonSeed: Int64) {
        self.numpySeed = numpySeed
        self.pythonSeed = pythonSeed
    }
}

/// The challenge's users: the seed pairs of `run.py`, for a feed of `clipCount` clips (`ALL_VIDEO_NUM`, 7 in the
/// challenge; `run.py` sizes its seed matrices by it). `default` is its fixed user (`np.random.seed(42)`,
/// `randint(100, size=(N, 2))`); sample J is the J-th user `test_user_samples` makes in a fresh process (after the
/// module's own draw, `randint(10000, size=(1001, 1))` from the global state, then `np.random.seed(seed_J)` and
/// `randint(10000, size=(N, 2))`).
public enum MMGC22Users {
    /// `run.py`'s `RANDOM_SEED`.
    public static let moduleSeed: UInt32 = 42
    /// How many sample seeds `test_user_samples` draws (`size=(1001, 1)`).
    public static let sampleSeedCount = 1001
    /// The clips per user in `run.py` (`ALL_VIDEO_NUM`, `size=(7, 2)`).
    public static let clipsPerUser = 7

    /// The default user's pairs, one per clip.
    public static func defaultUser(clipCount: Int = clipsPerUser) -> [MMGC22SeedPair] {
        var state = NumpyLegacyRandomState(seed: moduleSeed)
        return pairs(state.randint(100, count: 2 * clipCount))
    }

    /// The seed `np.random.seed` gets for sample `index` (0 …1000) in a process whose users have `clipCount` clips.
    public static func sampleSeed(_ index: Int, clipCount: Int = clipsPerUser) -> Int {
        precondition((0..<sampleSeedCount).contains(index))
        var state = NumpyLegacyRandomState(seed: moduleSeed)
        _ = state.randint(100, count: 2 * clipCount)
        return state.randint(10000, count: index + 1)[index]
    }

    /// Sample `index`'s pairs, one per clip.
    public static func sample(_ index: Int, clipCount: Int = clipsPerUser) -> [MMGC22SeedPair] {
        var state = NumpyLegacyRandomState(seed: UInt32(sampleSeed(index, clipCount: clipCount)))
        return pairs(state.randint(10000, count: 2 * clipCount))
    }

    private static func pairs(_ values: [Int]) -> [MMGC22SeedPair] {
        stride(from: 0, to: values.count, by: 2).map({
            MMGC22SeedPair(numpySeed: Int64(values[$0]), pythonSeed: Int64(values[$0 + 1]))
        })
    }
}

/// The challenge's user model as a ``SwipeModel``: clip i of the feed (cyclically over the library) watched for
/// the ``MMGC22Retention`` draw of seed pair i.
public struct MMGC22SwipeModel: SwipeModel {
    /// The clips in feed order.
    public var clips: [MMGC22Clip]
    /// One seed pair per feed item.
    public var seeds: [MMGC22SeedPair]

    public init(clips: [MMGC22Clip], seeds: [MMGC22SeedPair]) {
        self.clips = clips
        self.seeds = seeds
    }

    public func watchSeconds(item: Int, durationSeconds: Double) -> Double {
        let draw = MMGC22Retention(clip: clips[item % clips.count], seeds: seeds[item % seeds.count])
        return min(draw.watchMilliseconds / 1000, durationSeconds)
    }
}
