import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

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
