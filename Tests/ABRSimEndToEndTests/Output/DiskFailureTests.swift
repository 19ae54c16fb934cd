import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Writing to a full or read-only file system, for real: a small or read-only tmpfs mounted for the test (needs
/// root and mount(8); skipped otherwise), and `/dev/full`. Each failure is one line naming the path and the
/// system's reason, exit status 3, and leaves no partial file (an older output stays whole).
@Suite("full and read-only disks", .serialized)
struct DiskFailureTests {
    /// Mounts a tmpfs with `options` on a fresh folder, runs `body` with it, and unmounts it.
    func withTmpfs(_ options: String, _ body: (String) throws -> Void) throws {
        let mountPoint = TestPaths.scratch("tmpfs")
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        try #require(OutputFixture.shell(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mountPoint]) == 0)
        defer { OutputFixture.shell(["umount", mountPoint]) }
        try body(mountPoint)
    }

    @Test(
        "a run onto a full disk exits 3 with one line naming the path and reason, leaving no file",
        .enabled(if: OutputFixture.canMount, "needs root and a working mount(8) for a tmpfs"))
    func aFullDiskIsAClearErrorAndLeavesNoPartialFile() throws {
        let scratch = TestPaths.scratch("full")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = writeFile(scratch, "big.json", OutputFixture.scenario(name: "big", players: 2, segments: 300))
        try withTmpfs("size=32k") { disk in
            let out = disk + "/out"
            let outcome = try runABRSim(["run", scenario, "--out", out])
            #expect(outcome.status == 3)
            #expect(outcome.standardError.hasPrefix("abrsim run: cannot write output: \(out)"))
            #expect(outcome.standardError.hasSuffix(": No space left on device\n"))
            #expect(outcome.standardError.split(separator: "\n").count == 1)
            #expect(OutputFixture.files(under: disk).isEmpty, "\(OutputFixture.files(under: disk).keys)")
        }
    }

    @Test(
        "a run onto a read-only disk exits 3 with one line, and the older output stays whole",
        .enabled(if: OutputFixture.canMount, "needs root and a working mount(8) for a tmpfs"))
    func aReadOnlyDiskIsAClearErrorAndTheOldOutputStaysWhole() throws {
        let scratch = TestPaths.scratch("readonly")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let scenario = writeFile(scratch, "s.json", OutputFixture.scenario(name: "s", segments: 8))
        try withTmpfs("size=4m") { disk in
            let out = disk + "/out"
            #expect(try runABRSim(["run", scenario, "--out", out]).status == 0)
            let before = OutputFixture.files(under: disk)
            try #require(OutputFixture.shell(["mount", "-o", "remount,ro", disk]) == 0)
            let outcome = try runABRSim(["run", scenario, "--out", out])
            #expect(outcome.status == 3)
            #expect(
                outcome.standardError
                    == "abrsim run: cannot write output: \(out)/.abrsim-output: cannot create a file there: "
                    + "Read-only file system\n")
            #expect(OutputFixture.files(under: disk) == before)
            let fresh = try runABRSim(["run", scenario, "--out", disk + "/new"])
            #expect(fresh.status == 3)
            #expect(fresh.standardError.hasSuffix("cannot create directory \(disk)/new: Read-only file system\n"))
        }
    }

    @Test(
        "a sweep that fills the disk stops with one line and whole rows, then resumes to the same bytes",
        .enabled(if: OutputFixture.canMount, "needs root and a working mount(8) for a tmpfs"))
    func aSweepThatFillsTheDiskStopsClearlyAndResumesOnceThereIsRoom() throws {
        let fixture = SweepFixture("full-sweep")
        defer { fixture.remove() }
        let arguments = ["--policies", "bba(reservoir=1..25:1)", "--jobs", "2", "--batch", "4"]
        let whole = fixture.directory + "/whole"
        #expect(try fixture.sweep(arguments + ["--out", whole]).status == 0)
        try withTmpfs("size=64k") { disk in
            let out = disk + "/out"
            let full = try fixture.sweep(arguments + ["--out", out])
            #expect(full.status == 3)
            #expect(full.standardError.hasPrefix("abrsim sweep: cannot write output: \(out)/"))
            #expect(full.standardError.hasSuffix(": No space left on device\n"))
            #expect(full.standardError.split(separator: "\n").count == 1)
            // Only committed rows are left: the tables end with a whole row and match `progress`.
            let summary = fileBytes(out + "/summary.csv")
            #expect(summary.last == UInt8(ascii: "\n"))
            let progress = String(decoding: fileBytes(out + "/.sweep/progress"), as: UTF8.self)
            #expect(progress.contains("summary.csv \(summary.count)\n"))
            #expect(progress.contains("segments.csv \(fileBytes(out + "/segments.csv").count)\n"))
            try #require(OutputFixture.shell(["mount", "-o", "remount,size=8m", disk]) == 0)
            let resumed = try fixture.sweep(arguments + ["--out", out])
            #expect(resumed.status == 0, "\(resumed.standardError)")
            #expect(resumed.standardError.contains("resuming"))
            expectSameSweepFolders(whole, out)
        }
    }

    @Test("writing to /dev/full reports the full disk, exit 3, and leaves the device in place")
    func devFullIsWrittenInPlaceAndReportsTheFullDisk() throws {
        let trace = TestPaths.scenarios + "/traces/norway_tram_1"
        let outcome = try runABRSim(["trace", "convert", trace, "--to", "csv", "--out", "/dev/full"])
        #expect(outcome.status == 3)
        #expect(
            outcome.standardError
                == "abrsim trace: cannot write output: /dev/full: cannot write: No space left on device\n")
        // Still the device: a rename over it would have replaced it with a file.
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
}
