import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The `requests` key of a player: bad values are input errors through the binary.
@Suite("bad requests settings through the binary")
struct RequestSettingsDecodingTests {
    @Test(
        "each bad requests value is an input error naming the scenario and its JSON path, writing nothing",
        arguments: [
            (#"{"timeoutSeconds": 0}"#, "$.players[0].requests.timeoutSeconds"),
            (#"{"maxRetries": 1.5}"#, "$.players[0].requests.maxRetries"),
            (#"{"maxRetries": -1}"#, "$.players[0].requests.maxRetries"),
            (#"{"backoffFactor": 0.5}"#, "$.players[0].requests.backoffFactor"),
            (#"{"retryDelaySeconds": 5, "maxRetryDelaySeconds": 2}"#, "$.players[0].requests.maxRetryDelaySeconds"),
            (#"{"timeout": 5}"#, "timeout"),
        ])
    func badSettingsAreInputErrorsNamingThePath(requests: String, mention: String) throws {
        let directory = TestPaths.scratch("requests-bad")
        writeFile(directory, "s.json", RequestSettingsFixture.scenario(requests: requests))
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("s.json"))
        #expect(outcome.standardError.contains(mention))
        #expect(outcome.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
    }
}
