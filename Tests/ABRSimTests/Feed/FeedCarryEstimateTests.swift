import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `feed.carryEstimate`: one ABR policy instance and throughput history for the whole queue, as `AVQueuePlayer`'s
/// one player keeps one bandwidth estimate. Two 4-s items of 2-s segments at 300 / 800 / 1600 kbit/s on a constant
/// 3000 kbit/s link, `throughput` ABR, no preloading.
@Suite("a feed may carry its bandwidth estimate from item to item")
struct FeedCarryEstimateTests {
    static func scenario(carry: String?, secondLadder: String = "[300, 800, 1600]") throws -> Scenario {
        let json = """
            {"network": {"stretches": [{"constantKbps": 3000, "seconds": 1000}]},
             "feed": {"player": {"id": "viewer", "policy": "throughput", "automaticallyWaitsToMinimizeStalling": false},
                      "items": [{"id": "a", "content": {"ladderKbps": [300, 800, 1600], "segmentSeconds": 2,
                                                        "durationSeconds": 4}},
                                {"id": "b", "content": {"ladderKbps": \(secondLadder), "segmentSeconds": 2,
                                                        "durationSeconds": 4}}],
                      "recommendationWindow": 1, "swipe": {"model": "fixed", "watchSeconds": [4, 4]},
                      "preload": "none"\(carry.map { ", \"carryEstimate\": " + $0 } ?? "")}}
            """
        return try ScenarioLoader().load(
            json: Array(json.utf8), label: "feed.json", directory: ".", defaultName: "feed")
    }

    /// The variant of each item's first segment.
    static func firstVariants(_ scenario: Scenario) throws -> [Int] {
        try ScenarioRunner().run(scenario).players.map { try #require($0.segments.first).variant }
    }

    @Test("without it each item starts unestimated; with it the second starts at the rung the first one measured")
    func theSecondItemStartsFromTheFirstItemsEstimate() throws {
        // No samples: the estimator's default 1000 kbit/s, so 800 kbit/s (≤ 0.9 × 1000) for both items. Carried:
        // item a measured 3000 kbit/s, so item b starts at the highest rung ≤ 0.9 × 3000 = 2700 kbit/s, 1600.
        #expect(try Self.firstVariants(Self.scenario(carry: nil)) == [1, 1])
        #expect(try Self.firstVariants(Self.scenario(carry: "false")) == [1, 1])
        #expect(try Self.firstVariants(Self.scenario(carry: "true")) == [1, 2])
    }

    @Test("carrying an estimate across items of different ladders is refused at $.feed.carryEstimate")
    func differentLaddersAreRefused() throws {
        let error = try #require(throws: InputError.self) {
            _ = try Self.scenario(carry: "true", secondLadder: "[300, 800]")
        }
        #expect(error.place.position == .jsonPath("$.feed.carryEstimate"))
        #expect(
            error.problem
                == .missingPrerequisite(
                    "one estimate across items", needs: "one ladder, but item 1 (b) has another than item 0 (a)"))
        _ = try Self.scenario(carry: "false", secondLadder: "[300, 800]")
    }
}
