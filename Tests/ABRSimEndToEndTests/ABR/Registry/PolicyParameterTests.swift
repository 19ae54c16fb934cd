import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Each policy parameter is declared once (issue 15, item 3): parsing, validation, grids and the `abrsim policies`
/// listing all follow the declarations, and every range boundary is enforced as bad input.
@Suite("policy parameters through the binary")
struct PolicyParameterTests {
    static let registry = PolicyRegistry.builtIn

    @Test("`abrsim policies` lists every declared parameter with its meaning, range, unit, default and source")
    func listingFollowsTheDeclarations() throws {
        let outcome = try runABRSim(["policies"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        for descriptor in Self.registry.descriptors {
            let heading = try #require(lines.firstIndex(of: "\(descriptor.name) — \(descriptor.summary)"))
            let width = descriptor.parameters.map(\.name.count).max() ?? 0
            for (offset, parameter) in descriptor.parameters.enumerated() {
                let padded = parameter.name + String(repeating: " ", count: width - parameter.name.count)
                #expect(lines[heading + 1 + offset] == "    \(padded)  \(parameter.listingText)")
                #expect(parameter.listingText.contains("(default \(parameter.defaultText); \(parameter.source))"))
                #expect(parameter.listingText.contains(parameter.acceptedText))
            }
        }
        #expect(
            lines.contains {
                $0.hasPrefix("    bandwidthFactor ") && $0.contains("> 0 (default 0.95; hls.js abrBandWidthFactor)")
            })
        #expect(
            lines.contains { $0.hasPrefix("    horizon ") && $0.contains("whole number 1…10 segments (default 5;") })
    }

    @Test("fixed(variant=7) on a 2-rung ladder exits 2 with one line naming the file, path, policy and parameter")
    func outOfLadderVariantIsBadInputThroughTheBinary() throws {
        let directory = TestPaths.scratch("fixed-variant-7")
        let path = writeFile(
            directory, "two-rungs.json",
            #"""
            {"name": "two-rungs", "network": {"preset": "lte"},
             "content": {"ladderKbps": [500, 1000], "segmentSeconds": 4, "segments": 3},
             "players": [{"id": "p", "policy": "fixed(variant=7)"}]}
            """#)
        let out = directory + "/results"
        let outcome = try runABRSim(["run", path, "--out", out, "--plots", directory + "/plots"])
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.isEmpty)
        let lines = outcome.standardError.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "\(outcome.standardError)")
        for fragment in [
            "two-rungs.json", "$.players[0].policy", "policy 'fixed(variant=7)'",
            "variant must be a variant index in 0…1",
            "got 7",
        ] {
            #expect(outcome.standardError.contains(fragment), "\(fragment): \(outcome.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: directory + "/plots"))
    }
}
