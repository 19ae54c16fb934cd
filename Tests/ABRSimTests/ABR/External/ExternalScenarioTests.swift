import Testing

@testable import ABRSim

/// An external policy named in a scenario file: its command array must hold strings.
@Suite("an external policy named in a scenario")
struct ExternalScenarioTests {
    @Test("an external policy whose command array holds a number is refused as not holding strings")
    func aPolicyArrayMustHoldStrings() throws {
        let json = "{\"name\": \"external\", \"command\": [\"python3\", 3]}"
        let reader = JSONReader(try JSONParser.parse(Array(json.utf8), file: "s.json"), file: "s.json")
        let decoder = PlayerDecoder(
            content: try Content.constantBitrate(ladderKbps: [500], segmentSeconds: 4, segmentCount: 1),
            directory: ".", registry: .builtIn)
        let error = try #require(throws: InputError.self) { try decoder.decodePolicy(reader) }
        #expect(error.place == .jsonPath("s.json", "$.command"))
        #expect(error.problem == .expected("a string in a policy parameter list", found: "a number"))
    }
}
