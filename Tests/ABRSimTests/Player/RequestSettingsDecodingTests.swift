import Foundation
import Testing

@testable import ABRSim

/// The `requests` key of a player: decoded values, defaults, and bad values as input errors through the binary.
struct RequestSettingsDecodingTests {
    static func scenario(requests: String) -> String {
        #"{"name": "r", "network": {"preset": "lte"}, "content": {"ladderKbps": [500], "segmentSeconds": 4, "#
            + #""segments": 2}, "players": [{"id": "a", "policy": "fixed", "requests": \#(requests)}]}"#
    }

    @Test func everyKeyIsRead() throws {
        let path = writeFile(
            TestPaths.scratch("requests"), "s.json",
            Self.scenario(
                requests: #"{"timeoutSeconds": 10, "maxRetries": 2, "retryDelaySeconds": 0.5, "#
                    + #""backoffFactor": 3, "maxRetryDelaySeconds": 4}"#))
        let settings = try ScenarioLoader().load(path).players[0].settings.requests
        #expect(settings.timeoutSeconds == 10)
        #expect(settings.maximumRetries == 2)
        #expect((1...4).map { settings.delay(beforeRetry: $0) } == [0.5, 1.5, 4, 4])
    }

    @Test func anEmptyObjectKeepsTheDefaults() throws {
        let path = writeFile(TestPaths.scratch("requests"), "s.json", Self.scenario(requests: "{}"))
        #expect(try ScenarioLoader().load(path).players[0].settings.requests == RequestRetrySettings())
    }

    @Test(arguments: [
        (#"{"timeoutSeconds": 0}"#, "$.players[0].requests.timeoutSeconds"),
        (#"{"maxRetries": 1.5}"#, "$.players[0].requests.maxRetries"),
        (#"{"maxRetries": -1}"#, "$.players[0].requests.maxRetries"),
        (#"{"backoffFactor": 0.5}"#, "$.players[0].requests.backoffFactor"),
        (#"{"retryDelaySeconds": 5, "maxRetryDelaySeconds": 2}"#, "$.players[0].requests.maxRetryDelaySeconds"),
        (#"{"timeout": 5}"#, "timeout"),
    ])
    func badSettingsAreInputErrorsNamingThePath(requests: String, mention: String) throws {
        let directory = TestPaths.scratch("requests-bad")
        writeFile(directory, "s.json", Self.scenario(requests: requests))
        let outcome = try runABRSim(["run", "s.json", "--out", "out"], in: directory)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("s.json"))
        #expect(outcome.standardError.contains(mention))
        #expect(outcome.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"))
    }
}
