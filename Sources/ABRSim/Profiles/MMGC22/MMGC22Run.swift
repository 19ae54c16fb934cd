/// One `abrsim mmgc22` run: which data, policy, trace family and index, and user; ``run()`` reads the inputs
/// (errors name the file and line), plays the session fresh, and ``printed(_:)`` formats the challenge's five
/// figures as `name: value` lines with Python's `repr` of each double.
public struct MMGC22Run: Sendable {
    /// The trace families the challenge ships (`run.py --trace`).
    public static let families = ["high", "low", "medium", "mixed"]

    /// Who watches: `run.py`'s fixed user, sample J of `test_user_samples`, or seed pairs given directly.
    public enum User: Sendable, Equatable {
        case defaultUser
        case sample(Int)
        case seeds([MMGC22SeedPair])
    }

    public var dataFolder: String
    public var algorithm: MMGC22Algorithm
    public var family: String
    public var traceIndex: Int
    public var user: User
    /// `last_chunk_bitrate` before the run (nil: fresh, all −1).
    public var lastChunkLevels: [Int]?
    /// The feed's length when not the data's clips once each: that many clips cycling through them, with the
    /// challenge's users drawn for that many clips (`run.py` with `ALL_VIDEO_NUM = N`).
    public var clipCount: Int?

    public init(
        dataFolder: String, algorithm: MMGC22Algorithm, family: String, traceIndex: Int, user: User,
        lastChunkLevels: [Int]? = nil, clipCount: Int? = nil
    ) {
        self.dataFolder = dataFolder
        self.algorithm = algorithm
        self.family = family
        self.traceIndex = traceIndex
        self.user = user
        self.lastChunkLevels = lastChunkLevels
        self.clipCount = clipCount
    }

    /// The seed pairs of `user`.
    public static func seeds(of user: User) -> [MMGC22SeedPair] {
        switch user {
        case .defaultUser: MMGC22Users.defaultUser()
        case .sample(let index): MMGC22Users.sample(index)
        case .seeds(let pairs): pairs
        }
    }

    /// The feed's viewers for `user`: `run.py`'s seven seed pairs for the data's clips once each, or the challenge's
    /// users drawn for `clipCount` clips.
    public static func viewers(of user: User, clipCount: Int?) -> MMGC22Feed.Viewers {
        switch (user, clipCount) {
        case (.defaultUser, .some): .challengeDefault
        case (.sample(let index), .some): .challengeSample(index)
        default: .seeds(seeds(of: user))
        }
    }

    /// The feed this run plays: the data's clips (or ``clipCount`` of them, cycling) on trace ``traceIndex`` of
    /// ``family``, watched by ``user``. Reads the inputs; errors name the file and line.
    public func feed() throws -> MMGC22Feed {
        let data = try MMGC22Data(folder: dataFolder)
        let trace = try data.trace(family: family, index: traceIndex)
        let clips = clipCount.map({ MMGC22Feed.cycling(data.clips, count: $0) }) ?? data.clips
        if let last = lastChunkLevels, last.count != clips.count {
            throw InputError(
                .option("--last-chunk-levels"),
                .countMismatch(found: last.count, of: "levels", expected: clips.count, per: "clips"))
        }
        return MMGC22Feed(
            clips: clips, trace: trace, viewers: Self.viewers(of: user, clipCount: clipCount),
            lastChunkLevels: lastChunkLevels, place: dataFolder)
    }

    /// Reads the inputs and plays the session.
    public func run(recordSteps: Bool = false) throws -> MMGC22SessionResult {
        try feed().run(algorithm: algorithm, recordSteps: recordSteps)
    }

    /// The five `name: value` lines.
    public static func printed(_ result: MMGC22SessionResult) -> String {
        [
            ("score", result.score), ("bandwidth_usage_bytes", result.bandwidthUsageBytes), ("qoe", result.qoe),
            ("wasted_bytes", result.wastedBytes), ("download_watch_ratio", result.downloadWatchRatio),
        ].map({ "\($0.0): \(PythonFormat.repr($0.1))\n" }).joined()
    }

    /// Parses `--seeds 'a:b,c:d,…'`: numpy seed, Python seed per clip, each an integer in 0 … 2³²−1.
    public static func parseSeeds(_ text: String) throws -> [MMGC22SeedPair] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        return try items.enumerated().map { index, item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let numpy = Int64(parts[0]), let python = Int64(parts[1]),
                (0...4_294_967_295).contains(numpy), (0...4_294_967_295).contains(python)
            else {
                throw InputError(
                    .option("--seeds"),
                    .isNot(
                        "`numpy_seed:python_seed` (integers 0…4294967295)", subject: "pair \(index + 1)",
                        found: "'\(item)'"))
            }
            return MMGC22SeedPair(numpySeed: numpy, pythonSeed: python)
        }
    }

    /// Parses `--last-chunk-levels 'l0|l1|…'`: one level (−1 … 2) per clip.
    public static func parseLevels(_ text: String) throws -> [Int] {
        try text.split(separator: "|", omittingEmptySubsequences: false).enumerated().map { index, item in
            guard let level = Int(item), (-1...2).contains(level) else {
                throw InputError(
                    .option("--last-chunk-levels"),
                    .isNot("a level −1…2", subject: "entry \(index + 1)", found: "'\(item)'"))
            }
            return level
        }
    }
}
