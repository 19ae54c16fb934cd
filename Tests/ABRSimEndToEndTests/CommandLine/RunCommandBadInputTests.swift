import ABRSimTestSupport
import Foundation
import Testing

/// `abrsim run` on bad input, driven through the built binary as a user would: exit status 2, one clear message
/// naming the file and the place, no stack trace, and no output written. Bad files (empty, wrong types, unknown
/// keys, missing or malformed traces) are in the catalogue, ``BadInputCatalogueTests``; these are the rest.
@Suite("abrsim run on bad input")
struct RunCommandBadInputTests {
    /// A valid scenario around `network`, `content`, `players` JSON fragments.
    static func scenario(
        network: String = #"{"preset": "lte"}"#,
        content: String = #"{"ladderKbps": [500, 2000], "segmentSeconds": 4, "segments": 3}"#,
        players: String = #"[{"id": "main", "policy": "throughput"}]"#, extra: String = ""
    ) -> String {
        #"{"name": "bad", "network": \#(network), "content": \#(content), "players": \#(players)\#(extra)}"#
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var files: [String: String]
        var arguments: [String]
        /// Every string the message must contain.
        var mentions: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "JSON syntax error", files: ["s.json": "{\n  \"name\": \"x\",\n  oops\n}"], arguments: ["s.json"],
            mentions: ["s.json", "line 3"]),
        Case(
            label: "unknown preset", files: ["s.json": scenario(network: #"{"preset": "5g-ultra"}"#)],
            arguments: ["s.json"], mentions: ["s.json", "$.network.preset", "5g-ultra"]),
        Case(
            label: "unknown policy", files: ["s.json": scenario(players: #"[{"id": "a", "policy": "magic"}]"#)],
            arguments: ["s.json"], mentions: ["s.json", "$.players[0].policy", "magic"]),
        Case(
            label: "unknown policy parameter",
            files: ["s.json": scenario(players: #"[{"id": "a", "policy": "throughput(speed=3)"}]"#)],
            arguments: ["s.json"], mentions: ["s.json", "$.players[0].policy", "speed"]),
        Case(
            label: "two players with one id",
            files: [
                "s.json": scenario(
                    players: #"[{"id": "a", "policy": "throughput"}, {"id": "a", "policy": "throughput"}]"#)
            ],
            arguments: ["s.json"], mentions: ["s.json", "$.players[1]", "'a'"]),
        Case(
            label: "negative forward buffer",
            files: [
                "s.json": scenario(
                    players: #"[{"id": "a", "policy": "throughput", "preferredForwardBufferDuration": -1}]"#)
            ],
            arguments: ["s.json"], mentions: ["s.json", "$.players[0].preferredForwardBufferDuration"]),
        Case(
            label: "action with two verbs",
            files: [
                "s.json": scenario(
                    players:
                        #"[{"id": "a", "policy": "throughput", "actions": [{"atSeconds": 1, "pause": true, "seek": 3}]}]"#
                )
            ],
            arguments: ["s.json"], mentions: ["s.json", "$.players[0].actions[0]"]),
        Case(
            label: "empty trace file",
            files: ["s.json": scenario(network: #"{"trace": "t.csv", "format": "csv"}"#), "t.csv": ""],
            arguments: ["s.json"], mentions: ["t.csv"]),
        Case(
            label: "non-numeric rate in a cooked trace",
            files: [
                "s.json": scenario(network: #"{"trace": "t.log", "format": "pensieve"}"#),
                "t.log": "0 1.5\n1 fast\n2 1.0\n",
            ],
            arguments: ["s.json"], mentions: ["t.log", "line 2"]),
        Case(
            label: "unknown trace format",
            files: ["s.json": scenario(network: #"{"trace": "t.down", "format": "pcap"}"#), "t.down": "1\n"],
            arguments: ["s.json"], mentions: ["s.json", "$.network.format", "pcap"]),
        Case(
            label: "bad seed", files: ["s.json": scenario()], arguments: ["s.json", "--seed", "x"], mentions: ["--seed"]
        ),
        Case(
            label: "unknown option", files: ["s.json": scenario()], arguments: ["s.json", "--fast"],
            mentions: ["--fast"]),
        Case(label: "no scenario", files: [:], arguments: [], mentions: ["SCENARIO"]),
    ]

    @Test(
        "each bad scenario, trace or option makes run exit 2 with one line naming the place and write nothing",
        arguments: cases)
    func badInputExitsWithStatusTwoAndNamesThePlace(_ badCase: Case) throws {
        let directory = TestPaths.scratch("bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text) in badCase.files { writeFile(directory, name, text) }
        let outcome = try runABRSim(["run"] + badCase.arguments + ["--out", "out"], in: directory)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        for mention in badCase.mentions {
            #expect(outcome.standardError.contains(mention), "message lacks '\(mention)': \(outcome.standardError)")
        }
        #expect(outcome.standardError.split(separator: "\n").count == 1, "one line: \(outcome.standardError)")
        #expect(!outcome.standardError.contains("Fatal error"))
        #expect(outcome.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out"), "no output for bad input")
    }

    @Test("an unknown command exits 2, naming it")
    func unknownCommandExitsWithStatusTwo() throws {
        let outcome = try runABRSim(["frobnicate"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("frobnicate"))
    }

    @Test("--help exits 0, listing the commands, and run's help lists its options")
    func helpExitsZeroAndListsTheOptions() throws {
        let top = try runABRSim(["--help"])
        #expect(top.status == 0)
        #expect(top.standardOutput.contains("run"))
        let run = try runABRSim(["run", "--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("--out"))
        #expect(run.standardOutput.contains("--seed"))
    }
}
