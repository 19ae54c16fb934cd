import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("abrsim merge")
struct MergeCommandTests {
    func shards(_ fixture: SweepFixture, policies: String = "bba,throughput", count: Int = 2) throws {
        for k in 1...count {
            let outcome = try fixture.sweep([
                "--policies", policies, "--shard", "\(k)/\(count)", "--out", fixture.directory + "/s\(k)",
            ])
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
    }

    @Test("merging with a shard missing or given twice exits 2 and writes nothing")
    func aMissingOrDuplicatedShardIsAnErrorAndWritesNothing() throws {
        let fixture = SweepFixture("merge-missing")
        defer { fixture.remove() }
        try shards(fixture, count: 3)
        let out = fixture.directory + "/merged"
        let missing = try runABRSim(["merge", fixture.directory + "/s1", fixture.directory + "/s3", "--out", out])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("missing shard 2/3 of its sweep"), "\(missing.standardError)")
        let twice = try runABRSim([
            "merge", fixture.directory + "/s1", fixture.directory + "/s1", fixture.directory + "/s2", "--out", out,
        ])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("shard '1/3' is given twice (also at"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("shards of different sweeps are refused, naming the difference")
    func shardsOfDifferentSweepsDoNotMerge() throws {
        let fixture = SweepFixture("merge-mixed")
        defer { fixture.remove() }
        try shards(fixture)
        let other = try fixture.sweep([
            "--policies", "bba,fixed", "--shard", "2/2", "--out", fixture.directory + "/other",
        ])
        #expect(other.status == 0)
        let outcome = try runABRSim([
            "merge", fixture.directory + "/s1", fixture.directory + "/other", "--out", fixture.directory + "/m",
        ])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("its sweep differs from that of"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("policy fixed"))
    }

    @Test("an incomplete shard, a folder that is not a sweep, or merging into a shard folder is refused")
    func anIncompleteShardOrANonSweepFolderIsRefused() throws {
        let fixture = SweepFixture("merge-incomplete")
        defer { fixture.remove() }
        try shards(fixture)
        // Shard 2 as a crash right after starting leaves it: state present, no run committed.
        let progress = fixture.directory + "/s2/.sweep/progress"
        let text = String(decoding: fileBytes(progress), as: UTF8.self)
        let lines = text.split(separator: "\n")
        writeFile(
            fixture.directory + "/s2/.sweep", "progress",
            (["done 0"] + lines.dropFirst()).joined(separator: "\n") + "\n")
        let incomplete = try runABRSim([
            "merge", fixture.directory + "/s1", fixture.directory + "/s2", "--out", fixture.directory + "/m",
        ])
        #expect(incomplete.status == 2)
        #expect(
            incomplete.standardError.contains("needs at least four runs done, found 0"), "\(incomplete.standardError)")
        let plain = try runABRSim(["merge", fixture.traces, "--out", fixture.directory + "/m"])
        #expect(plain.status == 2)
        #expect(
            plain.standardError
                == "abrsim merge: \(fixture.traces): expected a sweep output folder, found no valid .abrsim-output in it\n"
        )
        writeFile(fixture.directory + "/s2/.sweep", "progress", text)
        let intoInput = try runABRSim([
            "merge", fixture.directory + "/s1", fixture.directory + "/s2", "--out", fixture.directory + "/s1",
        ])
        #expect(intoInput.status == 2)
        #expect(
            intoInput.standardError.contains("must be a folder other than the shards"), "\(intoInput.standardError)")
    }
}
