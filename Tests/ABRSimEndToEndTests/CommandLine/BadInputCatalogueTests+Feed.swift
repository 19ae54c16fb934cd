import Foundation
import Testing

@testable import ABRSim

/// Bad feed inputs (issue 17): an empty queue, a recommendation window of 0, a retention curve that rises or whose
/// chances of leaving sum above 1, and an external preload policy naming an item outside the window (found while
/// running, reported at the `preload` key), in `run` and in `compare`; `compare` refuses the options of a scenario of
/// players, and `sweep` reports the run's error as `run` does. Each ends as every bad input does.
extension BadInputCatalogueTests {
    static let feedCases: [Case] = [
        run("feed-empty-queue.json", "$.feed.items", "a feed needs at least one item"),
        run("feed-window-zero.json", "$.feed.recommendationWindow", "a whole number 1…1000, got 0"),
        run(
            "feed-retention-rises.json", "$.feed.swipe.curves[0].fractions[2]",
            "a retention curve must never rise, got 0.9 after 0.8"),
        run(
            "feed-retention-sum-above-one.json", "$.feed.swipe.curves[0].leaveProbabilities",
            "the chances of leaving sum to 1.2, more than the limit of 1"),
        run(
            "feed-preload-outside-window.json", "$.feed.preload",
            "the item the preload policy named at 0 s must be in the recommendation window, items 1…1, got 2"),
        Case(
            fixture: "feed-preload-outside-window.json (sweep)",
            arguments: ["sweep", "feed-preload-outside-window.json", "--policies", "bba", "--out", out + "/sweep"],
            mentions: ["feed-preload-outside-window.json", "$.feed.preload", "must be in the recommendation window"]),
        Case(
            fixture: "feed-preload-outside-window.json (compare)",
            arguments: [
                "compare", "--scenario", "feed-preload-outside-window.json", "--policies", "bba", "--out",
                out + "/compare",
            ],
            mentions: ["feed-preload-outside-window.json", "$.feed.preload", "must be in the recommendation window"]),
        Case(
            fixture: "feed-window-zero.json (compare)",
            arguments: ["compare", "--scenario", "feed-window-zero.json", "--policies", "bba", "--out", out + "/c"],
            mentions: ["feed-window-zero.json", "$.feed.recommendationWindow", "a whole number 1…1000, got 0"]),
        Case(
            fixture: "compare-feed.json (compare --content)",
            arguments: [
                "compare", "--scenario", "../feed/compare-feed.json", "--content", "x", "--policies", "bba", "--out",
                out + "/c",
            ],
            mentions: ["compare-feed.json", "--content", "does not apply to a feed scenario"]),
    ]

    @Test(
        "each bad feed input exits 2 with one stderr line naming the file and the JSON path",
        arguments: feedCases)
    func badFeedInputExitsWithStatusTwoNamingThePlace(_ badCase: Case) throws {
        try badInputExitsWithStatusTwoAndOneLineNamingThePlace(badCase)
    }
}
