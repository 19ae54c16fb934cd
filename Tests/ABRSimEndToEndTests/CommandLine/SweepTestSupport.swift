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

/// Expects each of `files` (paths inside the folders) in `a` and `b` to be present and byte-identical.
func expectSameFiles(_ files: [String], _ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for name in files {
        let left = fileBytes(a + "/" + name)
        #expect(!left.isEmpty, "\(a)/\(name) is missing", sourceLocation: sourceLocation)
        #expect(left == fileBytes(b + "/" + name), "\(name) differs", sourceLocation: sourceLocation)
    }
}

/// Rewinds the complete sweep folder `folder` to its state after run 0's commit, as a kill after that commit
/// leaves it: `progress` says one run, and the later runs' bytes stay past the committed lengths. `tables` are the
/// files whose byte counts `runs.csv` holds, in its column order (`summary.csv`, `segments.csv`, …).
func rewindSweepToItsFirstRun(_ folder: String, tables: [String]) throws {
    let index = try CSVTable.parse(fileBytes(folder + "/.sweep/runs.csv"), file: "runs.csv")
    let later = index.rows.dropFirst()
    var progress = "done 1\n"
    for (position, table) in tables.enumerated() {
        let committed = fileBytes(folder + "/" + table).count - later.reduce(0) { $0 + Int($1[position + 1])! }
        progress += "\(table) \(committed)\n"
    }
    let indexLines = String(decoding: fileBytes(folder + "/.sweep/runs.csv"), as: UTF8.self).split(separator: "\n")
    progress += "runs.csv \(indexLines[0].utf8.count + indexLines[1].utf8.count + 2)\nfailed 0\n"
    try Data(progress.utf8).write(to: URL(fileURLWithPath: folder + "/.sweep/progress"))
}

/// Appends `text` to the file at `path` (a torn row, as a process killed mid-batch leaves one).
func appendTornRow(_ text: String, to path: String) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    handle.closeFile()
}

/// Runs `arguments` (a sweep) again into the rewound `folder` on two jobs and expects it to resume after 1 of `runs`
/// runs and end with the same `files` as the one-shot sweep `whole`.
func expectResumedSweep(
    _ arguments: [String], folder: String, runs: Int, equals whole: String, files: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let resumed = try runABRSim(arguments + ["--out", folder, "--jobs", "2"])
    #expect(resumed.status == 0, "\(resumed.standardError)", sourceLocation: sourceLocation)
    #expect(
        resumed.standardError.contains("resuming \(folder) after 1 of \(runs) runs"), "\(resumed.standardError)",
        sourceLocation: sourceLocation)
    expectSameFiles(files, whole, folder, sourceLocation: sourceLocation)
}
