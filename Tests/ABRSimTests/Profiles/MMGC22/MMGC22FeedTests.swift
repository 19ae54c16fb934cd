import ABRSimTestSupport
import Testing

@testable import ABRSim

/// ``MMGC22Feed``, the entry point that builds a session of the challenge's model from Swift values: the same
/// numbers as the session it wraps, any number of clips, the challenge's users drawn for that many clips, and
/// every value the challenge could not play refused with the place named.
@Suite("a mmgc22 session built from Swift values")
struct MMGC22FeedTests {
    static let constantLink = try! PensieveCookedTrace(
        name: "constant", times: (0...100).map(Double.init), bandwidthsMbps: Array(repeating: 8, count: 101))

    /// The fixture's curve: half the viewers leave in second 0, the rest at the end (second 2).
    static let curve = try! RetentionCurve(seconds: [0, 1, 2, 3], fractions: [1, 0.5, 0.5, 0])

    static func clip(_ name: String, chunks: Int = 3, curve: RetentionCurve = curve) throws -> MMGC22Clip {
        try MMGC22Clip(
            name: name,
            chunkBytes: [95_000, 150_000, 230_000].map({ Array(repeating: $0, count: chunks) }),
            retention: curve, place: "clip \(name)")
    }

    /// The hand-computed one-clip case of ``MMGC22HandComputedTests`` through the entry point: 1500 ms watched of a
    /// 3-chunk clip at 8 Mbit/s, fixed_preload downloads 95 000, 95 000, 150 000 bytes and wastes the third.
    @Test("a one-clip feed watched 1.5 s at 8 Mbit/s uses 340 000 bytes, wastes 150 000 and stalls 180 ms")
    func aOneClipFeedGivesTheHandComputedFigures() throws {
        let feed = MMGC22Feed(
            clips: [try Self.clip("a")], trace: Self.constantLink, viewers: .watchMilliseconds([1500]))
        let result = try feed.run(algorithm: .fixedPreload)
        #expect(result.bandwidthUsageBytes == 340_000)
        #expect(result.wastedBytes == 150_000)
        #expect(result.rebufferMilliseconds == 180)
        #expect(result.downloadWatchRatio == 2)
    }

    /// Watch times drawn by the feed from seed pairs equal the session's own draw (the path `abrsim mmgc22`
    /// takes), and seven cycled clips under `challengeDefault` draw `run.py`'s seven default pairs.
    @Test("seven cycled clips with the challenge's default user give the same figures as run.py's seven seed pairs")
    func theChallengeDefaultUserForSevenClipsIsRunPysSeedMatrix() throws {
        let library = [
            try Self.clip("a"),
            try Self.clip(
                "b", chunks: 2,
                curve: try RetentionCurve(
                    seconds: [0, 1, 2], fractions: [1, 0.25, 0])),
        ]
        let clips = MMGC22Feed.cycling(library, count: 7)
        #expect(clips.map(\.name) == ["a", "b", "a", "b", "a", "b", "a"])
        let drawn = MMGC22Feed(clips: clips, trace: Self.constantLink, viewers: .challengeDefault)
        let given = MMGC22Feed(clips: clips, trace: Self.constantLink, viewers: .seeds(MMGC22Users.defaultUser()))
        #expect(drawn.seedPairs() == MMGC22Users.defaultUser())
        for algorithm in [MMGC22Algorithm.noSave, .fixedPreload] {
            #expect(try drawn.run(algorithm: algorithm) == given.run(algorithm: algorithm))
        }
    }

    /// `randint(100, size=(N, 2))` draws its values in order, so a longer feed's first seven pairs are the
    /// seven-clip user's; sample J's seed moves because the module's own draw before it is longer.
    @Test("the default user for 20 clips starts with the 7-clip user's pairs; sample seeds follow the longer draw")
    func usersForLongerFeedsExtendTheChallengesDraws() {
        let twenty = MMGC22Users.defaultUser(clipCount: 20)
        #expect(twenty.count == 20)
        #expect(Array(twenty.prefix(7)) == MMGC22Users.defaultUser())
        #expect(MMGC22Users.sampleSeed(0, clipCount: 7) == MMGC22Users.sampleSeed(0))
        var state = NumpyLegacyRandomState(seed: 42)
        _ = state.randint(100, count: 40)
        let expected = state.randint(10000, count: 4)[3]
        #expect(MMGC22Users.sampleSeed(3, clipCount: 20) == expected)
        #expect(MMGC22Users.sample(3, clipCount: 20).count == 20)
    }

    /// A long feed keeps the session's books: every watch time counted once, the ratio 1000 ms per download over
    /// them, and no more waste than bytes downloaded.
    @Test("a 200-clip feed counts each clip's watch time once and its ratio is 1000 ms per download over them")
    func aLongFeedKeepsItsBooks() throws {
        let five = try RetentionCurve(seconds: [0, 1, 2, 3, 4, 5], fractions: [1, 0.625, 0.375, 0.375, 0.25, 0])
        let library = [try Self.clip("a"), try Self.clip("b", chunks: 5, curve: five)]
        let clips = MMGC22Feed.cycling(library, count: 200)
        for algorithm in [MMGC22Algorithm.noSave, .fixedPreload] {
            let feed = MMGC22Feed(clips: clips, trace: Self.constantLink, viewers: .challengeSample(4))
            let session = try feed.session()
            let result = try feed.run(algorithm: algorithm)
            #expect(result.watchMilliseconds == session.watchTimes.map(\.watchMilliseconds).reduce(0, +))
            #expect(result.downloadWatchRatio == Double(result.downloads) * 1000 / result.watchMilliseconds)
            #expect(result.wastedBytes <= result.bandwidthUsageBytes)
            #expect(!result.abortedAtMinimumQoE && result.score.isFinite)
        }
    }

    /// Values the challenge could not play are refused with the caller's place named.
    @Test(
        "an empty feed, a rising or over-full curve, a bad watch time or too few seeds is an input error naming the place"
    )
    func unplayableValuesAreRefusedWithThePlaceNamed() throws {
        func error(_ body: () throws -> Void) -> InputError? {
            do {
                try body()
                return nil
            } catch { return error as? InputError }
        }
        func at(_ place: String, _ problem: InputProblem) -> InputError {
            InputError(InputPlace(file: nil, position: InputPlace.Position(text: place)), problem)
        }
        let clip = try Self.clip("a")
        #expect(
            error { _ = try MMGC22Feed(clips: [], trace: Self.constantLink, viewers: .challengeDefault).session() }
                == at("feed", .noneGiven("clip", in: "the feed")))
        #expect(
            error { _ = try RetentionCurve(seconds: [0, 1, 2], fractions: [1, 0.2, 0.4]) }?.problem
                == .outOfOrder("a retention curve", order: "never rise", found: "0.4", after: "0.2"))
        #expect(
            error {
                _ = try Self.clip("x", curve: try RetentionCurve(seconds: [0, 1, 2, 3], fractions: [1, 1, 1, 1]))
            }
                == at(
                    "clip x",
                    .within(
                        "the curve cannot be sampled as the challenge samples it",
                        .mustBe("the sum of the probabilities", rule: "1", found: "0.0"))))
        #expect(
            error { _ = try MMGC22Clip(name: "y", chunkBytes: [[1], [2]], retention: Self.curve, place: "clip y") }
                == at("clip y", .expected("3 levels, as the challenge's clips have", found: "2")))
        #expect(
            error {
                _ = try MMGC22Feed(
                    clips: [clip], trace: Self.constantLink, viewers: .watchMilliseconds([3500]), place: "items"
                ).session()
            }
                == at(
                    "items",
                    .within(
                        "clip 0 (a)",
                        .outOfRange(what: "a watch time", bound: "in 0…3000.0", found: "3500.0", unit: "ms"))))
        #expect(
            error {
                _ = try MMGC22Feed(
                    clips: [clip, clip], trace: Self.constantLink, viewers: .seeds([.init(numpySeed: 1, pythonSeed: 1)])
                )
                .session()
            } == at("feed", .countMismatch(found: 1, of: "seed pairs", expected: 2, per: "clips")))
        #expect(
            error {
                _ = try MMGC22Feed(clips: [clip], trace: Self.constantLink, viewers: .challengeSample(1001)).session()
            } == at("feed", .outOfRange(what: "a user sample", bound: "in 0…1000", found: "1001")))
    }
}
