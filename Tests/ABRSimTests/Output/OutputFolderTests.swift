import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The output-folder rule: same command and input replace (and tidy), anything else is refused unless forced;
/// temporaries of dead writers are cleaned; a failed write leaves the old output whole.
@Suite("the output-folder rule")
struct OutputFolderTests {
    let runA = OutputIdentity(command: "run", subject: "/data/a.json", fingerprint: "-")
    let runB = OutputIdentity(command: "run", subject: "/data/b.json", fingerprint: "-")

    func bundle(_ files: [String: String]) -> OutputBundle {
        var bundle = OutputBundle()
        for name in files.keys.sorted() { bundle.add(name: name, bytes: Array(files[name]!.utf8)) }
        return bundle
    }

    func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("a fresh output folder gets its files and a complete manifest naming command, input and files")
    func aFreshFolderGetsItsFilesAndACompleteManifest() throws {
        let scratch = TestPaths.scratch("folder")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let out = scratch + "/results/a"
        try OutputFolder(out, identity: runA, force: false).commit(bundle(["s.csv": "1\n", "t.csv": "2\n"]))
        #expect(listing(out) == [".abrsim-output", "s.csv", "t.csv"])
        #expect(
            text(out + "/.abrsim-output")
                == "abrsim-output 1\ncommand run\nsubject /data/a.json\nfingerprint -\ncomplete yes\n"
                + "file s.csv\nfile t.csv\n")
        #expect(OutputManifest.read(directory: out) == .valid(OutputManifest.parse(text(out + "/.abrsim-output"))!))
    }

    @Test("a rerun replaces its files, removes those and the folders it no longer writes, and keeps others")
    func aRerunReplacesItsFilesAndRemovesWhatItNoLongerWrites() throws {
        let out = TestPaths.scratch("rerun")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let plotsIdentity = OutputIdentity(command: "plots", subject: out, fingerprint: "-")
        try OutputFolder(out, identity: runA, force: false).commit(
            bundle(["s.csv": "old\n", "old-only.csv": "x\n"]), folders: ["plots"])
        try OutputFolder(out + "/plots", identity: plotsIdentity, force: false).commit(bundle(["p.svg": "<svg/>"]))
        writeFile(out, "notes.txt", "mine")  // not abrsim's: never removed
        // Same command and input: accepted; the second output has no old-only.csv and no plots folder.
        try OutputFolder(out, identity: runA, force: false).commit(bundle(["s.csv": "new\n"]))
        #expect(listing(out) == [".abrsim-output", "notes.txt", "s.csv"])
        #expect(text(out + "/s.csv") == "new\n")
    }

    @Test("a folder holding another input's or command's output is refused and left unchanged")
    func anotherInputsOutputIsRefusedAndLeftAlone() throws {
        let out = TestPaths.scratch("other")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try OutputFolder(out, identity: runA, force: false).commit(bundle(["s.csv": "a\n"]))
        let before = text(out + "/.abrsim-output")
        #expect {
            try OutputFolder(out, identity: runB, force: false)
        } throws: { error in
            "\(error)" == "\(out): holds the output of 'abrsim run' of /data/a.json; use --force to replace it, "
                + "or another --out"
        }
        let tune = OutputIdentity(command: "tune", subject: "/data/a.json", fingerprint: "-")
        #expect(throws: InputError.self) { try OutputFolder(out, identity: tune, force: false, option: "--plots") }
        #expect(text(out + "/.abrsim-output") == before)
        #expect(text(out + "/s.csv") == "a\n")
    }

    @Test("--force replaces another output, keeping files abrsim did not write")
    func forceReplacesAnotherOutputButKeepsUnknownFiles() throws {
        let out = TestPaths.scratch("force")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try OutputFolder(out, identity: runA, force: false).commit(bundle(["s.csv": "a\n", "a-only.csv": "a\n"]))
        writeFile(out, "notes.txt", "mine")
        try OutputFolder(out, identity: runB, force: true).commit(bundle(["s.csv": "b\n"]))
        #expect(listing(out) == [".abrsim-output", "notes.txt", "s.csv"])
        guard case .valid(let manifest) = OutputManifest.read(directory: out) else {
            Issue.record("no manifest")
            return
        }
        #expect(manifest.identity == runB && manifest.isComplete && manifest.files == ["s.csv"])
    }

    @Test("a folder of files without a manifest or with an old manifest format is refused unless forced")
    func filesWithoutAManifestOrAnUnknownFormatAreRefused() throws {
        let out = TestPaths.scratch("foreign")
        defer { try? FileManager.default.removeItem(atPath: out) }
        writeFile(out, "summary.csv", "from an older abrsim\n")
        #expect {
            try OutputFolder(out, identity: runA, force: false)
        } throws: { error in
            "\(error)".hasSuffix(
                "holds files that are not the output of this version of abrsim (e.g. 'summary.csv'); use --force "
                    + "to replace it, or another --out")
        }
        writeFile(out, ".abrsim-output", "abrsim-output 0\ncommand run\n")
        #expect {
            try OutputFolder(out, identity: runA, force: false)
        } throws: { error in
            "\(error)".contains(
                "holds output in an unknown or older format ('.abrsim-output' starts 'abrsim-output 0')")
        }
        // Forced: written, and the unknown file is overwritten only because this output writes the same name.
        try OutputFolder(out, identity: runA, force: true).commit(bundle(["summary.csv": "new\n"]))
        #expect(text(out + "/summary.csv") == "new\n")
    }

    @Test("temporaries of dead writers are ignored and then removed, and a live writer's are kept")
    func temporariesOfDeadWritersAreIgnoredThenRemoved() throws {
        let out = TestPaths.scratch("temporaries")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // A pid that cannot be running: above the kernel's maximum.
        let dead = ".summary.csv.tmp-99999999-0"
        writeFile(out, dead, "half a fi")
        writeFile(out, ".segments.csv.merge-99999999", "half")
        let live = ".timeline.csv.tmp-\(getpid())-7"
        writeFile(out, live, "someone is writing this")
        let folder = try OutputFolder(out, identity: runA, force: false)  // temporaries are not foreign files
        try folder.commit(bundle(["summary.csv": "whole\n"]))
        #expect(listing(out) == [".abrsim-output", live, "summary.csv"])
    }

    @Test("temporary names give their writer's process id, and other names give none")
    func temporaryNamesAreRecognised() {
        #expect(OutputFolder.writer(ofTemporary: ".summary.csv.tmp-123-4") == 123)
        #expect(OutputFolder.writer(ofTemporary: ".runs.csv.merge-77") == 77)
        for name in ["summary.csv", ".abrsim-output", ".sweep", ".x.tmp-12", ".x.tmp-a-1", "x.tmp-1-2", ".tmp-1-2"] {
            #expect(OutputFolder.writer(ofTemporary: name) == nil, "\(name)")
        }
    }

    @Test("a failed write leaves the previous output and manifest whole, and a fresh folder is removed")
    func aFailedWriteLeavesThePreviousOutputWhole() throws {
        let out = TestPaths.scratch("failed")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try OutputFolder(out, identity: runA, force: false).commit(bundle(["a.csv": "old\n", "b.csv": "old\n"]))
        let before = text(out + "/.abrsim-output")
        try FileManager.default.createDirectory(atPath: out + "/c.csv", withIntermediateDirectories: false)
        let folder = try OutputFolder(out, identity: runA, force: false)
        #expect(throws: OutputError.self) { try folder.commit(bundle(["a.csv": "new\n", "c.csv": "new\n"])) }
        #expect(text(out + "/.abrsim-output") == before)
        #expect(text(out + "/a.csv") == "old\n" && text(out + "/b.csv") == "old\n")
        // A fresh folder that cannot be written is removed again.
        let fresh = out + "/fresh"
        let freshFolder = try OutputFolder(fresh, identity: runA, force: false)
        #expect(throws: OutputError.self) { try freshFolder.commit(bundle([String(repeating: "x", count: 250): ""])) }
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test("paths are made absolute lexically, resolving dots and doubled slashes")
    func pathsAreMadeAbsoluteLexically() {
        #expect(absolutePath("/a/./b//c/../d") == "/a/b/d")
        #expect(absolutePath("/..") == "/")
        #expect(absolutePath("x/y").hasSuffix("/x/y") && absolutePath("x/y").hasPrefix("/"))
    }

    @Test("an output identity fingerprints its input file with FNV-1a, and a folder gets none")
    func identitiesFingerprintTheirInputFile() throws {
        let scratch = TestPaths.scratch("fingerprint")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let path = writeFile(scratch, "s.json", "a")
        // FNV-1a 64 of "a", from the algorithm's published test vectors.
        #expect(OutputIdentity(command: "run", subject: path).fingerprint == "fnv1a64:af63dc4c8601ec8c")
        #expect(OutputIdentity(command: "run", subject: scratch).fingerprint == "-")
        writeFile(scratch, "s.json", "b")
        let edited = OutputIdentity(command: "run", subject: path)
        #expect(edited.fingerprint == "fnv1a64:af63df4c8601f1a5")
        #expect(edited.matches(OutputIdentity(command: "run", subject: path, fingerprint: "other")))
    }
}
