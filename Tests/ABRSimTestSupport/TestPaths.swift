import Foundation

/// Paths tests need: the package root, the data and reference outputs shipped in it, the built `abrsim`, scratch
/// folders. Nothing here reaches outside the package: the tests pass on a fresh clone alone.
package enum TestPaths {
    /// The package root (two levels above this file's folder: Tests/ABRSimTestSupport).
    package static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The real traces and content shipped in the package (`scenarios/data`, with their attribution).
    package static var data: String { packageRoot + "/scenarios/data" }

    /// Peers' reference outputs the tests check against (`Tests/Fixtures/reference/<peer>`).
    package static var reference: String { packageRoot + "/Tests/Fixtures/reference" }

    /// The shipped scenarios folder.
    package static var scenarios: String { packageRoot + "/scenarios" }

    /// The `abrsim` executable built next to the test bundle.
    package static let abrsim: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // Swift Testing on Linux runs inside `<build>/debug/ABRSimPackageTests.xctest`.
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("abrsim").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return packageRoot + "/.build/debug/abrsim"
    }()

    /// The factor on the tests' wall-time bounds: 1, or `ABRSIM_TEST_TIME_SCALE` when set (the sanitizer runs
    /// of `scripts/sanitize` set 10, since sanitized code runs 5–20× slower).
    package static let timeScale: Double = {
        guard let text = ProcessInfo.processInfo.environment["ABRSIM_TEST_TIME_SCALE"], let value = Double(text),
            value >= 1
        else { return 1 }
        return value
    }()

    /// A fresh empty scratch folder.
    package static func scratch(_ name: String = "t") -> String {
        let path = NSTemporaryDirectory() + "abrsim-\(name)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// The outcome of running `abrsim` as a user would.
package struct CommandOutcome {
    package var status: Int32
    package var standardOutput: String
    package var standardError: String
}

/// Runs the built `abrsim` with `arguments` in `directory`, through `launcher` (a program and its arguments, such
/// as `setpriv` dropping privileges) when one is given.
package func runABRSim(_ arguments: [String], in directory: String? = nil, launcher: [String] = []) throws
    -> CommandOutcome
{
    let command = launcher + [TestPaths.abrsim] + arguments
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandOutcome(
        status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
        standardError: String(decoding: errData, as: UTF8.self))
}

/// Writes `text` to `directory/name` and returns the path.
@discardableResult package func writeFile(_ directory: String, _ name: String, _ text: String) -> String {
    let path = directory + "/" + name
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The bytes of `path` (empty when it cannot be read).
package func fileBytes(_ path: String) -> [UInt8] {
    (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
}
