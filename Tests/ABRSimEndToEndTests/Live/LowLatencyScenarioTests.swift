import ABRSimTestSupport
import Foundation
import Testing

/// The five Twitch low-latency scenarios (`scenarios/live/twitch-*.json`) compare dash.js's `dynamic`, `l2a-ll` and
/// `lolp`. Their `expect` bounds come from the LoL+ catch-up and the ladder, not from the policy (a policy can only
/// add latency, by stalling), so they hold with each of the three in the player.
@Suite("the Twitch low-latency scenarios with each dash.js rule")
struct LowLatencyScenarioTests {
    static let scenarios = [
        "twitch-cascade", "twitch-intra-cascade", "twitch-spike", "twitch-slow-jitters", "twitch-fast-jitters",
    ].map { TestPaths.packageRoot + "/scenarios/live/" + $0 + ".json" }

    @Test(
        "the five Twitch scenarios keep mean latency ≥ 1.45 s and ≤ 1000 kbit/s with dynamic, l2a-ll and lolp")
    func theScenariosBoundsHoldWithEachRule() throws {
        var reports: [String: String] = [:]
        for policy in ["dynamic", "l2a-ll", "lolp"] {
            let outcome = try runABRSim(["check"] + Self.scenarios + ["--set", "players[*].policy=\(policy)"])
            #expect(outcome.status == 0, "\(policy): \(outcome.standardOutput)\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("10 passed, 0 failed"), "\(policy): \(outcome.standardOutput)")
            reports[policy] = outcome.standardOutput
        }
        // The rule reached the player: the three play spike differently, so their measured values differ.
        #expect(Set(reports.values).count == 3)
    }
}
