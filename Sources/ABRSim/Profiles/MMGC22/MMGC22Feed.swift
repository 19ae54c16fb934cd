/// A session of the MM'22 challenge's model built from Swift values: the entry point for callers that do not
/// read the challenge's data folder (the feed mode, batches, benchmarks). Any number of clips in play order (each
/// with chunk sizes per level and a retention curve, ``MMGC22Clip/init(name:chunkBytes:retention:place:)``), one
/// trace, and who watches: the challenge's users drawn for that many clips, seed pairs, or watch times given
/// directly. ``run(algorithm:recordSteps:)`` validates everything (an ``InputError`` naming ``place``), plays
/// the session fresh and returns its figures, as `run.py`'s `test()` would with `ALL_VIDEO_NUM` set to the
/// number of clips. With the challenge's seven clips and its users, it is exactly `abrsim mmgc22`.
public struct MMGC22Feed: Sendable {
    /// Who watches the feed.
    public enum Viewers: Sendable, Equatable {
        /// `run.py`'s fixed user for this many clips (`np.random.seed(42)`, `randint(100, size=(N, 2))`).
        case challengeDefault
        /// The J-th user (0…1000) `test_user_samples` makes in a fresh process, for this many clips.
        case challengeSample(Int)
        /// One seed pair per clip (at least as many as clips), drawn as `user_module.Retention` draws.
        case seeds([MMGC22SeedPair])
        /// One watch time per clip, ms (0 … the clip's duration).
        case watchMilliseconds([Double])
    }

    /// The clips in play order (each played once; a clip may appear many times).
    public var clips: [MMGC22Clip]
    /// The network trace, in `network_module`'s cooked format.
    public var trace: PensieveCookedTrace
    /// Who watches.
    public var viewers: Viewers
    /// `last_chunk_bitrate` before the run, one level (−1 … 2) per clip; `nil` is a fresh process (all −1).
    public var lastChunkLevels: [Int]?
    /// What errors name: the caller's name for this feed (a file, an option, a place in a scenario).
    public var place: String

    public init(
        clips: [MMGC22Clip], trace: PensieveCookedTrace, viewers: Viewers, lastChunkLevels: [Int]? = nil,
        place: String = "feed"
    ) {
        self.clips = clips
        self.trace = trace
        self.viewers = viewers
        self.lastChunkLevels = lastChunkLevels
        self.place = place
    }

    /// `count` clips cycling through `library` (`Player(video_num)` loads clip `video_num % 7` of the challenge's
    /// seven); empty when `library` is.
    public static func cycling(_ library: [MMGC22Clip], count: Int) -> [MMGC22Clip] {
        library.isEmpty ? [] : (0..<max(0, count)).map({ library[$0 % library.count] })
    }

    /// The seed pairs of the viewers, one per clip at least; `nil` for watch times given directly.
    public func seedPairs() -> [MMGC22SeedPair]? {
        switch viewers {
        case .challengeDefault: MMGC22Users.defaultUser(clipCount: clips.count)
        case .challengeSample(let index): MMGC22Users.sample(index, clipCount: clips.count)
        case .seeds(let pairs): pairs
        case .watchMilliseconds: nil
        }
    }

    /// The validated session: throws an ``InputError`` naming ``place`` for an empty clip list, too few seed
    /// pairs or watch times, a watch time outside its clip or none above 0, a sample out of range, or bad last levels.
    public func session() throws -> MMGC22Session {
        guard !clips.isEmpty else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)), .noneGiven("clip", in: "the feed"))
        }
        if case .challengeSample(let index) = viewers, !(0..<MMGC22Users.sampleSeedCount).contains(index) {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .outOfRange(what: "a user sample", bound: "in 0…\(MMGC22Users.sampleSeedCount - 1)", found: "\(index)"))
        }
        if let levels = lastChunkLevels {
            guard levels.count == clips.count else {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .countMismatch(found: levels.count, of: "last chunk levels", expected: clips.count, per: "clips"))
            }
            if let level = levels.first(where: { !(-1...2).contains($0) }) {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .outOfRange(what: "a last chunk level", bound: "in −1…2", found: "\(level)"))
            }
        }
        if let seeds = seedPairs() {
            guard seeds.count >= clips.count else {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .countMismatch(found: seeds.count, of: "seed pairs", expected: clips.count, per: "clips"))
            }
            return MMGC22Session(clips: clips, seeds: seeds, trace: trace)
        }
        guard case .watchMilliseconds(let times) = viewers else { preconditionFailure("seeds handled above") }
        guard times.count >= clips.count else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .countMismatch(found: times.count, of: "watch times", expected: clips.count, per: "clips"))
        }
        for (index, clip) in clips.enumerated() {
            let duration = Double(clip.chunkCount) * MMGC22Model.chunkMilliseconds
            guard times[index].isFinite, (0...duration).contains(times[index]) else {
                throw InputError(
                    InputPlace(file: nil, position: InputPlace.Position(text: place)),
                    .within(
                        "clip \(index) (\(clip.name))",
                        .outOfRange(
                            what: "a watch time", bound: "in 0…\(duration)", found: "\(times[index])", unit: "ms")))
            }
        }
        guard times.prefix(clips.count).reduce(0, +) > 0 else {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .mustBe(
                    "the sum of the watch times", rule: "> 0 (the download/watch ratio divides by it)", found: "0",
                    unit: "ms"))
        }
        return MMGC22Session(
            clips: clips, watchTimes: times.prefix(clips.count).map({ MMGC22Retention(watchMilliseconds: $0) }),
            trace: trace)
    }

    /// Plays `algorithm` on the feed, fresh. A decision the challenge would refuse is an ``InputError`` naming
    /// ``place``.
    public func run(algorithm: MMGC22Algorithm, recordSteps: Bool = false) throws -> MMGC22SessionResult {
        var policy = algorithm.makePolicy()
        return try run(policy: &policy, recordSteps: recordSteps)
    }

    /// Plays `policy` (a fresh value) on the feed.
    public func run(policy: inout some MMGC22PreloadPolicy, recordSteps: Bool = false) throws -> MMGC22SessionResult {
        let session = try session()
        let last = lastChunkLevels ?? MMGC22Session.freshLastChunkLevels(clipCount: clips.count)
        do {
            return try session.run(policy: &policy, lastChunkLevels: last, recordSteps: recordSteps)
        } catch let error as MMGC22PolicyError {
            throw InputError(
                InputPlace(file: nil, position: InputPlace.Position(text: place)),
                .within("preload policy", error.problem))
        }
    }
}
