import Foundation
import Testing

@testable import ABRSim

/// Each built-in preload policy's choice on hand-made feed views: 3 upcoming items of 10 s in 2 s segments.
@Suite("Preload policies choose the item, the variant or the sleep their rule gives")
struct PreloadPolicyTests {
    static let content = try! Content.constantBitrate(
        ladderKbps: [450, 1000, 2000, 3500], segmentSeconds: 2, durationSeconds: 10)

    static func item(_ position: Int, requested: Int = 0, buffer: Double = 0, bytes: Double = 0) -> FeedItemState {
        FeedItemState(
            position: position, id: "i\(position)", content: content, segmentsRequested: requested, isLoading: false,
            bufferSeconds: buffer, bytes: bytes)
    }

    static func view(current: FeedItemState, upcoming: [FeedItemState], swipe: any SwipeModel) -> FeedView {
        FeedView(time: 0, current: current, upcoming: upcoming, swipe: swipe)
    }

    static let loaded = item(0, requested: 5)
    static let watchAll = try! FixedWatchTimes(seconds: [])

    @Test("chunks preloads the nearest item short of its count and then stops")
    func chunks() {
        let policy = FixedChunkPreload(count: 2, items: 2)
        let upcoming = [Self.item(1, requested: 2), Self.item(2, requested: 1), Self.item(3)]
        #expect(
            policy.decide(Self.view(current: Self.item(0), upcoming: upcoming, swipe: Self.watchAll))
                == .preload(item: 2, variant: nil))
        let done = [Self.item(1, requested: 2), Self.item(2, requested: 2), Self.item(3)]
        #expect(policy.decide(Self.view(current: Self.item(0), upcoming: done, swipe: Self.watchAll)) == .idle)
    }

    @Test("no_save waits for the playing item, then fills the items in rounds of bytes, nearest first")
    func noSave() {
        let policy = ChallengeNoSavePreload(roundBytes: 800_000)
        let upcoming = [Self.item(1, requested: 2, bytes: 900_000), Self.item(2, requested: 1, bytes: 300_000)]
        #expect(policy.decide(Self.view(current: Self.item(0), upcoming: upcoming, swipe: Self.watchAll)) == .idle)
        #expect(
            policy.decide(Self.view(current: Self.loaded, upcoming: upcoming, swipe: Self.watchAll))
                == .preload(item: 2, variant: nil))
        let even = [Self.item(1, requested: 2, bytes: 900_000), Self.item(2, requested: 2, bytes: 850_000)]
        #expect(
            policy.decide(Self.view(current: Self.loaded, upcoming: even, swipe: Self.watchAll))
                == .preload(item: 1, variant: nil))
    }

    @Test("fixed_preload skips segments the viewer likely never reaches and picks the rung by the item's buffer")
    func fixedPreload() throws {
        let policy = ChallengeFixedPreload(chunks: 4, retention: 0.65, sleepSeconds: 0.5)
        // Item 1's viewer leaves at 3 s: its segment 2 (from 4 s) is never reached; item 2's watches all.
        let swipe = try FixedWatchTimes(seconds: [10, 3, 10, 10])
        let upcoming = [Self.item(1, requested: 2, buffer: 4), Self.item(2, requested: 1, buffer: 2), Self.item(3)]
        #expect(
            policy.decide(Self.view(current: Self.loaded, upcoming: upcoming, swipe: swipe))
                == .preload(item: 2, variant: 1))
        #expect(policy.decide(Self.view(current: Self.item(0), upcoming: upcoming, swipe: swipe)) == .idle)
        let full = [Self.item(1, requested: 4), Self.item(2, requested: 4), Self.item(3, requested: 4)]
        #expect(policy.decide(Self.view(current: Self.loaded, upcoming: full, swipe: swipe)) == .sleep(seconds: 0.5))
    }

    @Test("dashlet preloads the segment most likely to be watched, discounted per item, above its threshold")
    func dashlet() throws {
        // λ = 2 on 10 s: P(watch past t) = 1 − 0.9·(1 − e^(−t/5)); item 1's next segment starts at 4 s (0.504), item
        // 2's at 0 s (1 × 0.9 for one item further).
        let swipe = try ExponentialSwipeModel(lambda: 2, seed: 1)
        let policy = DashletPreload(threshold: 0.5, decay: 0.9, maxChunks: 5)
        let upcoming = [Self.item(1, requested: 2), Self.item(2)]
        #expect(
            policy.decide(Self.view(current: Self.item(0), upcoming: upcoming, swipe: swipe))
                == .preload(item: 2, variant: nil))
        let deeper = [Self.item(1, requested: 2), Self.item(2, requested: 3)]
        // Item 1: 0.504 ≥ 0.5; item 2 at 6 s: 0.9 × 0.371 = 0.334.
        #expect(
            policy.decide(Self.view(current: Self.item(0), upcoming: deeper, swipe: swipe))
                == .preload(item: 1, variant: nil))
        let high = DashletPreload(threshold: 0.6, decay: 0.9, maxChunks: 5)
        #expect(high.decide(Self.view(current: Self.item(0), upcoming: deeper, swipe: swipe)) == .idle)
    }

    @Test("the swipe models' chances of watching past a point match their definitions")
    func watchProbabilities() throws {
        let exponential = try ExponentialSwipeModel(lambda: 2, seed: 1)
        #expect(
            abs(exponential.probabilityWatching(past: 5, item: 0, durationSeconds: 10) - (1 - 0.9 * (1 - exp(-1.0))))
                < 1e-15)
        #expect(exponential.probabilityWatching(past: 10, item: 0, durationSeconds: 10) == 0)
        let curve = try RetentionCurve(seconds: [0, 1, 2], fractions: [1, 0.6, 0.5])
        let retention = try RetentionCurveSwipeModel(curves: [curve], seed: 1)
        #expect(abs(retention.probabilityWatching(past: 0.5, item: 3, durationSeconds: 10) - 0.8) < 1e-15)
        #expect(retention.probabilityWatching(past: 5, item: 3, durationSeconds: 10) == 0.5)
        let fixed = try FixedWatchTimes(seconds: [3])
        #expect(fixed.probabilityWatching(past: 2.9, item: 0, durationSeconds: 10) == 1)
        #expect(fixed.probabilityWatching(past: 3, item: 0, durationSeconds: 10) == 0)
    }

    @Test("every built-in preload policy is in the registry and refuses unknown parameters naming the place")
    func registry() throws {
        #expect(
            PreloadPolicies.all.map(\.name) == ["none", "chunks", "no_save", "fixed_preload", "dashlet", "external"])
        let spec = try PolicySpec.parse("chunks(cont=2)")
        let error = try #require(throws: InputError.self) {
            try PreloadPolicies.checked(spec, file: "f.json", location: "$.feed.preload")
        }
        #expect(error.place == .jsonPath("f.json", "$.feed.preload"))
        let chunks = try #require(PreloadPolicies.all.first { $0.name == "chunks" })
        #expect(
            error.problem
                == .within("policy '\(spec.label)'", .unknownParameter("cont", known: chunks.parameters.map(\.name))))
        let unknown = try #require(throws: InputError.self) {
            try PreloadPolicies.checked(try PolicySpec.parse("chunk"), file: "f.json", location: "$.feed.preload")
        }
        #expect(
            unknown.problem == .unknownName("chunk", kind: "preload policy", known: PreloadPolicies.all.map(\.name)))
    }
}
