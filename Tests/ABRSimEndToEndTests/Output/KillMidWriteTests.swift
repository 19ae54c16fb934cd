import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// `abrsim run` killed with SIGKILL while it writes: every file present under its final name is complete (byte
/// for byte the file a whole run writes), temporaries are the only debris, and the next run removes them.
@Suite("a run killed while it writes")
struct KillMidWriteTests {
    /// Starts `abrsim run` and kills it as soon as `trigger` says so (polled every 0.1 ms) or after `limit` s.
    func killedRun(_ scenario: String, out: String, limit: Double, trigger: () -> Bool) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.abrsim)
        process.arguments = ["run", scenario, "--out", out]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let start = Date()
        while process.isRunning && !trigger() && Date().timeIntervalSince(start) < limit { usleep(100) }
        let killed = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return killed
    }

    /// Every file under `out` is a temporary, a readable manifest, or identical to the whole run's file.
    func expectOnlyWholeFiles(_ out: String, reference: [String: [UInt8]], moment: String) {
        for (name, bytes) in OutputFixture.files(under: out) {
            let base = String(name.split(separator: "/").last ?? "")
            if OutputFolder.isTemporary(base) { continue }
            if base == OutputManifest.fileName {
                let folder = out + "/" + String(name.dropLast(base.count))
                guard case .valid = OutputManifest.read(directory: folder) else {
                    Issue.record("\(moment): \(name) is not a whole manifest")
                    continue
                }
                continue
            }
            #expect(bytes == reference[name], "\(moment): \(name) is not whole (\(bytes.count) bytes)")
        }
    }

    @Test("a run killed mid-write leaves only whole files and temporaries, which the next run removes")
    func killingARunMidWriteLeavesOnlyWholeFiles() throws {
        let scratch = TestPaths.scratch("kill")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = writeFile(scratch, "big.json", OutputFixture.scenario(name: "big", players: 3, segments: 120))
        let referenceOut = scratch + "/reference"
        let started = Date()
        #expect(try runABRSim(["run", scenario, "--out", referenceOut]).status == 0)
        let wholeRun = Date().timeIntervalSince(started)
        let reference = OutputFixture.outputs(under: referenceOut)
        // Seven tables (stretches.csv and scenario.csv for the plots), four SVGs (all players, then each), index.html.
        #expect(reference.count == 12)

        // Moments: fractions of a whole run's time, then the instant the n-th temporary appears (n = 1: the first
        // table; 9: a plot, after every table has landed).
        var moments: [(name: String, limit: Double, temporaries: Int?)] = [0.5, 0.8, 0.95].map {
            ("after \($0) of a run", wholeRun * $0, nil)
        }
        moments += [1, 3, 7, 9].map { (temporary: Int) in ("at temporary \(temporary)", 30, temporary) }
        var cleanedRuns = 0
        var caughtMidWrite = 0
        for (index, moment) in moments.enumerated() {
            let out = scratch + "/out-\(index)"
            _ = try killedRun(scenario, out: out, limit: moment.limit) {
                moment.temporaries.map { OutputFixture.temporaries(under: out).count >= $0 } ?? false
            }
            expectOnlyWholeFiles(out, reference: reference, moment: moment.name)
            let leftOver = OutputFixture.temporaries(under: out)
            guard !leftOver.isEmpty else { continue }
            caughtMidWrite += 1
            guard cleanedRuns < 2 else { continue }
            // The next run finishes the job and removes the dead process's temporaries.
            cleanedRuns += 1
            #expect(try runABRSim(["run", scenario, "--out", out]).status == 0)
            #expect(OutputFixture.temporaries(under: out) == [], "\(moment.name)")
            #expect(OutputFixture.outputs(under: out) == reference, "\(moment.name): the run after the kill differs")
        }
        #expect(caughtMidWrite > 0, "no kill landed while a temporary existed")
    }
}
