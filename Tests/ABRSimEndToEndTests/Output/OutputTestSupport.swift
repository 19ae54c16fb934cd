import ABRSimTestSupport
import Foundation

@testable import ABRSim

/// Scenarios and folder helpers for the output-safety tests.
enum OutputFixture {
    /// A scenario on a varying network with `players` players (ids `p1`…) of `segments` 1 s segments.
    static func scenario(name: String, players: Int = 1, segments: Int = 30) -> String {
        let ids = (1...players).map { "{\"id\": \"p\($0)\", \"policy\": \"bba\"}" }.joined(separator: ", ")
        return """
            { "name": "\(name)", "seed": 2,
              "network": {"rttMs": 40, "stretches": [{"constantKbps": 3000, "seconds": 20},
                                                      {"constantKbps": 600, "seconds": 20}]},
              "content": {"ladderKbps": [300, 750, 1200, 1850], "segmentSeconds": 1, "segments": \(segments)},
              "players": [\(ids)] }
            """
    }

    /// Every regular file under `directory` (relative paths, hidden ones included), with its bytes.
    static func files(under directory: String) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return result }
        while let relative = walker.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = fileBytes(path)
            }
        }
        return result
    }

    /// The temporaries (`.NAME.tmp-PID-N`) under `directory`.
    static func temporaries(under directory: String) -> [String] {
        let names = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
        return names.filter { OutputFolder.isTemporary(String($0.split(separator: "/").last ?? "")) }.sorted()
    }

    /// ``files(under:)`` without the manifests (whose `subject` names the folder a plots folder was drawn from).
    static func outputs(under directory: String) -> [String: [UInt8]] {
        files(under: directory).filter { !$0.key.hasSuffix(OutputManifest.fileName) }
    }

    /// Runs a program (not abrsim) and returns its exit status.
    @discardableResult static func shell(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Whether this test process may mount a tmpfs (root, with mount(8) working here).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = TestPaths.scratch("mount-probe")
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard shell(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]) == 0 else { return false }
        shell(["umount", probe])
        return true
    }()
}
