import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The swipe models: fixed lists, retention curves, Dashlet's exponential model and the challenge's own draw
/// behind ``SwipeModel``; each seeded and deterministic.
@Suite("the swipe models: fixed lists, retention curves, Dashlet's and the challenge's draw")
struct SwipeModelTests {
    @Test("fixed watch times are given back, capped at the duration, to the end past the list; negative times refused")
    func fixedWatchTimesAreGivenBackAndCappedByTheDuration() throws {
        let model = try FixedWatchTimes(seconds: [2.5, 30, 0])
        #expect(model.watchSeconds(item: 0, durationSeconds: 10) == 2.5)
        #expect(model.watchSeconds(item: 1, durationSeconds: 10) == 10)
        #expect(model.watchSeconds(item: 2, durationSeconds: 10) == 0)
        #expect(model.watchSeconds(item: 3, durationSeconds: 7) == 7, "past the list: watched to the end")
        #expect(throws: InputError.self) { try FixedWatchTimes(seconds: [1, -1]) }
    }

    /// A curve that loses everyone in second 2 sends every viewer away within [2, 3) s; one that keeps half
    /// until the end sends about half to the end.
    @Test("a curve losing everyone in second 2 sends viewers away in [2, 3) s; one keeping half sends half to the end")
    func retentionCurvesGiveTheirLeavingSeconds() throws {
        let cliff = try RetentionCurve(seconds: [0, 1, 2, 3, 4], fractions: [1, 1, 1, 0, 0])
        let model = try RetentionCurveSwipeModel(curves: [cliff], seed: 7)
        for item in 0..<200 {
            let watch = model.watchSeconds(item: item, durationSeconds: 4)
            #expect(watch >= 2 && watch < 3)
            #expect(watch == model.watchSeconds(item: item, durationSeconds: 4), "deterministic")
        }
        let half = try RetentionCurve(seconds: [0, 1, 2], fractions: [1, 0.5, 0.5])
        let halves = try RetentionCurveSwipeModel(curves: [half], seed: 3)
        let toTheEnd = (0..<2000).filter({ halves.watchSeconds(item: $0, durationSeconds: 2) == 2 }).count
        #expect(abs(Double(toTheEnd) / 2000 - 0.5) < 0.05)
        let other = try RetentionCurveSwipeModel(curves: [half], seed: 4)
        #expect(
            (0..<50).contains(where: {
                halves.watchSeconds(item: $0, durationSeconds: 2) != other.watchSeconds(item: $0, durationSeconds: 2)
            }))
    }

    @Test(
        "a rising retention curve, leaving chances summing to 1.5 or a negative fraction are refused naming the place")
    func badRetentionCurvesAreRefusedWithThePlaceNamed() throws {
        #expect(
            throws: InputError(
                .line("curve", 3), .outOfOrder("a retention curve", order: "never rise", found: "0.75", after: "0.5"))
        ) {
            try RetentionCurve(seconds: [0, 1, 2], fractions: [1, 0.5, 0.75], file: "curve")
        }
        #expect(throws: InputError(.file("curve"), .overLimit("the chances of leaving sum to 1.5", limit: "1"))) {
            try RetentionCurve(seconds: [0, 1], fractions: [1.5, 0], file: "curve")
        }
        #expect(
            throws: InputError(
                .line("curve", 2), .mustBe("the fraction still watching", rule: "a number ≥ 0", found: "-0.1"))
        ) {
            try RetentionCurve(seconds: [0, 1], fractions: [1, -0.1], file: "curve")
        }
        #expect(
            throws: InputError(
                .line("curve", 3), .outOfOrder("the times", order: "increase", found: "1.0", after: "1.0"))
        ) {
            try RetentionCurve(seconds: [0, 1, 1], fractions: [1, 0.5, 0.25], file: "curve")
        }
        #expect(
            throws: InputError(
                .file("curve"), .tooFew("lines `second fraction`", atLeast: 2, found: 1, in: "a retention curve"))
        ) {
            try RetentionCurve(seconds: [0], fractions: [1], file: "curve")
        }
    }

    /// Dashlet's model: P(swipe before t) = 0.9 (1 − e^(−λt/T)); the rest (1 − 0.9 (1 − e^(−λ))) watch to the end.
    @Test(
        "Dashlet's λ = 2 model sends 1 − 0.9 (1 − e⁻²) of 20 000 viewers to the end and swipes as 0.9 (1 − e^(−λt/T))")
    func dashletsExponentialModelFollowsItsDistribution() throws {
        let model = try ExponentialSwipeModel(lambda: 2, seed: 11)
        let count = 20_000
        let watches = (0..<count).map({ model.watchSeconds(item: $0, durationSeconds: 10) })
        let toTheEnd = Double(watches.filter({ $0 == 10 }).count) / Double(count)
        #expect(abs(toTheEnd - (1 - 0.9 * (1 - exp(-2.0)))) < 0.015)
        let early = Double(watches.filter({ $0 < 2.5 }).count) / Double(count)
        #expect(abs(early - model.swipeProbability(before: 2.5, durationSeconds: 10)) < 0.015)
        #expect(watches.allSatisfy({ $0 >= 0 && $0 <= 10 }))
        #expect(model.watchSeconds(item: 5, durationSeconds: 10) == watches[5])
        #expect(throws: InputError.self) { try ExponentialSwipeModel(lambda: 0, seed: 1) }
    }

    /// The challenge's draw as a swipe model: a curve whose only leaving chance is in the last second gives
    /// exactly that second (no Python draw); one that loses everyone in second 0 gives Python's
    /// int(uniform(0, 1000)) for the clip's seed.
    @Test(
        "the challenge's draw gives 2 s when only the last second loses viewers, 0.639 s for seed 42 when second 0 does"
    )
    func theChallengesDrawIsASwipeModel() throws {
        func clip(_ fractions: [Double]) -> MMGC22Clip {
            MMGC22Clip(
                name: "c", chunkBytes: [[1, 1, 1], [1, 1, 1], [1, 1, 1]],
                retentionTimesMs: fractions.indices.map({ Double($0) * 1000 }),
                retentionText: fractions.map({ "\($0)" }), retention: fractions)
        }
        let toTheEnd = MMGC22SwipeModel(
            clips: [clip([1, 1, 1, 0])], seeds: [MMGC22SeedPair(numpySeed: 5, pythonSeed: 6)])
        #expect(toTheEnd.watchSeconds(item: 0, durationSeconds: 3) == 2)
        let first = MMGC22SwipeModel(
            clips: [clip([1, 0, 0, 0])], seeds: [MMGC22SeedPair(numpySeed: 5, pythonSeed: 42)])
        // random.seed(42); random.random() = 0.6394267984578837 → int(639.42…) = 639 ms.
        #expect(first.watchSeconds(item: 0, durationSeconds: 3) == 0.639)
    }
}
