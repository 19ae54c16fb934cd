import Foundation

/// A small sweep set-up in a scratch folder: a one-player scenario (10 segments of 2 s on a four-rung ladder,
/// 50 ms RTT) and four hand-written Pensieve traces (constant 0.5, 1, 2 and 4 Mbit/s for 30 s).
package struct SweepFixture {
    package let directory: String
    package var scenario: String { directory + "/scenario.json" }
    package var traces: String { directory + "/traces" }

    package init(_ name: String) {
        directory = TestPaths.scratch(name)
        try! FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        writeFile(
            directory, "scenario.json",
            """
            { "name": "tiny", "seed": 3, "network": {"preset": "lte", "rttMs": 50},
              "content": {"ladderKbps": [300, 750, 1200, 1850], "segmentSeconds": 2, "segments": 10},
              "players": [{"id": "solo", "policy": "fixed(variant=1)"}] }
            """)
        for (index, mbps) in [0.5, 1, 2, 4].enumerated() {
            writeFile(traces, "t\(index)", (0...30).map { "\($0)\t\(mbps)" }.joined(separator: "\n") + "\n")
        }
    }

    /// `abrsim sweep` on this fixture with `extra` arguments.
    package func sweep(_ extra: [String]) throws -> CommandOutcome {
        try runABRSim(["sweep", scenario, "--traces", traces] + extra)
    }

    package func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
