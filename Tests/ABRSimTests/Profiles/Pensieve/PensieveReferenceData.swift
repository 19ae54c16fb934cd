import ABRSimTestSupport
import Foundation

@testable import ABRSim

/// The Pensieve data (`scenarios/data`) and reference outputs (`Tests/Fixtures/reference/pensieve/`), read for
/// the profile tests.
enum PensieveReferenceData {
    static let traceFolder = TestPaths.data + "/traces/pensieve/test"
    static let contentFolder = TestPaths.data + "/content/pensieve-envivio"
    static let referenceFolder = TestPaths.reference + "/pensieve"

    /// One row of `bb_test.csv` / `robustmpc_test.csv`.
    struct Total {
        var trace: String
        var chunkCount: Int
        var totalReward: Double
        var meanBitrateKbps: Double
        var totalRebufferSeconds: Double
        var sumBitrateChangesKbps: Double
        var switchCount: Int
        var variants: [Int]
    }

    /// One row of `*_chunks.csv`.
    struct Chunk {
        var trace: String
        var chunk: Int
        var bitrateKbps: Double
        var bufferSecondsAfter: Double
        var rebufferSeconds: Double
        var chunkSizeBytes: Double
        var delayMs: Double
        var reward: Double
    }

    static func rows(_ file: String) throws -> [[String]] {
        let text = try String(contentsOfFile: referenceFolder + "/" + file, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
    }

    static func totals(_ file: String) throws -> [Total] {
        try rows(file).map { f in
            Total(
                trace: f[0], chunkCount: Int(f[1])!, totalReward: Double(f[2])!, meanBitrateKbps: Double(f[3])!,
                totalRebufferSeconds: Double(f[4])!, sumBitrateChangesKbps: Double(f[5])!, switchCount: Int(f[6])!,
                variants: f[7].split(separator: "-").map { Int($0)! })
        }
    }

    static func chunks(_ file: String) throws -> [String: [Chunk]] {
        var byTrace: [String: [Chunk]] = [:]
        for f in try rows(file) {
            byTrace[f[0], default: []].append(
                Chunk(
                    trace: f[0], chunk: Int(f[1])!, bitrateKbps: Double(f[2])!, bufferSecondsAfter: Double(f[3])!,
                    rebufferSeconds: Double(f[4])!, chunkSizeBytes: Double(f[5])!, delayMs: Double(f[6])!,
                    reward: Double(f[7])!))
        }
        return byTrace
    }

    static let content: Content = try! PensieveProfile.loadContent(folder: contentFolder)

    static func trace(_ name: String) throws -> PensieveCookedTrace {
        try PensieveProfile.loadTrace(path: traceFolder + "/" + name)
    }

    /// A fresh instance of `policy` (a spec such as `bba`) with the profile's defaults.
    static func policy(_ text: String) throws -> any ABRPolicy {
        let spec = PensieveProfile.policySpecDefaults(try PolicySpec.parse(text))
        return try PolicyRegistry.builtIn.makePolicy(spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
    }

    static func run(_ policyText: String, trace name: String) throws -> PensieveRun {
        PensieveProfile.simulate(trace: try trace(name), content: content, policy: try policy(policyText))
    }
}
