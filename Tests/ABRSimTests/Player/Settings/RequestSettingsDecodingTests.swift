import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The `requests` key of a player: decoded values and defaults.
@Suite("a player's requests settings")
struct RequestSettingsDecodingTests {
    @Test("every key of a player's requests object is read into its settings")
    func everyKeyIsRead() throws {
        let path = writeFile(
            TestPaths.scratch("requests"), "s.json",
            RequestSettingsFixture.scenario(
                requests: #"{"timeoutSeconds": 10, "maxRetries": 2, "retryDelaySeconds": 0.5, "#
                    + #""backoffFactor": 3, "maxRetryDelaySeconds": 4}"#))
        let settings = try ScenarioLoader().load(path).players[0].settings.requests
        #expect(settings.timeoutSeconds == 10)
        #expect(settings.maximumRetries == 2)
        #expect((1...4).map { settings.delay(beforeRetry: $0) } == [0.5, 1.5, 4, 4])
    }

    @Test("an empty requests object keeps the default request settings")
    func anEmptyObjectKeepsTheDefaults() throws {
        let path = writeFile(TestPaths.scratch("requests"), "s.json", RequestSettingsFixture.scenario(requests: "{}"))
        #expect(try ScenarioLoader().load(path).players[0].settings.requests == RequestRetrySettings())
    }
}
