import Foundation
import Testing

@testable import ABRSim

/// A small sweep set-up in a scratch folder: a one-player scenario (10 segments of 2 s on a four-rung ladder,
/// 50 ms RTT) and four hand-written Pensieve traces (constant 0.5, 1, 2 and 4 Mbit/s for 30 s).
struct SweepFixture {
    let directory: String
    var scenario: String { directory + "/scenario.json" }
    var traces: String { directory + "/traces" }

    init(_ name: String) {
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
    func sweep(_ extra: [String]) throws -> CommandOutcome {
        try runABRSim(["sweep", scenario, "--traces", traces] + extra)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// The bytes of `path` (empty when it cannot be read).
func fileBytes(_ path: String) -> [UInt8] {
    (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}

/// The files a sweep folder holds, compared byte for byte.
let sweepFolderFiles = ["summary.csv", "segments.csv", ".sweep/manifest", ".sweep/runs.csv", ".sweep/progress"]

/// Expects every sweep file of `a` and `b` to be present and byte-identical.
func expectSameSweepFolders(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for name in sweepFolderFiles {
        let left = fileBytes(a + "/" + name)
        #expect(!left.isEmpty, "\(a)/\(name) is missing", sourceLocation: sourceLocation)
        #expect(left == fileBytes(b + "/" + name), "\(name) differs", sourceLocation: sourceLocation)
    }
}

/// The parsed `summary.csv` of a sweep folder.
func sweepSummary(_ directory: String) throws -> CSVTable {
    try CSVTable.parse(fileBytes(directory + "/summary.csv"), file: "summary.csv")
}
