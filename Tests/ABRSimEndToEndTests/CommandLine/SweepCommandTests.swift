import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

@Suite("abrsim sweep")
struct SweepCommandTests {
    static let policies = "bba(reservoir=2..6:2),throughput,fixed(variant=0|3)"
    static let policyLabels = [
        "bba(reservoir=2)", "bba(reservoir=4)", "bba(reservoir=6)", "throughput", "fixed(variant=0)",
        "fixed(variant=3)",
    ]

    @Test("a sweep with one job or two writes identical bytes, trace-major with policies in grid order")
    func oneAndTwoJobsWriteIdenticalBytesInTraceMajorOrder() throws {
        let fixture = SweepFixture("sweep-jobs")
        defer { fixture.remove() }
        let one = try fixture.sweep(["--policies", Self.policies, "--jobs", "1", "--out", fixture.directory + "/one"])
        let two = try fixture.sweep([
            "--policies", Self.policies, "--jobs", "2", "--batch", "5", "--out", fixture.directory + "/two",
        ])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(two.status == 0, "\(two.standardError)")
        expectSameSweepFolders(fixture.directory + "/one", fixture.directory + "/two")
        let summary = try sweepSummary(fixture.directory + "/one")
        #expect(summary.rows.count == 24)
        #expect(summary.column("trace")! == ["t0", "t1", "t2", "t3"].flatMap { Array(repeating: $0, count: 6) })
        #expect(summary.column("policy")! == Array([[String]](repeating: Self.policyLabels, count: 4).joined()))
        #expect(summary.column("scenario")!.allSatisfy { $0 == "tiny" })
        #expect(summary.column("player")!.allSatisfy { $0 == "solo" })
        // fixed(variant=0) plays 300 kbit/s throughout; at 4 Mbit/s it never stalls.
        let row = summary.rows[3 * 6 + 4]
        #expect(row[summary.columns.firstIndex(of: "avg_bitrate_kbps")!] == "300")
        #expect(row[summary.columns.firstIndex(of: "stall_count")!] == "0")
        let segments = try CSVTable.parse(fileBytes(fixture.directory + "/one/segments.csv"), file: "segments.csv")
        #expect(segments.rows.count == 24 * 10)
    }

    @Test("a sweep's run equals a run of the scenario with that trace and policy, row for row")
    func aSweepRunEqualsRunningTheScenarioWithThatTraceAndPolicy() throws {
        let fixture = SweepFixture("sweep-equiv")
        defer { fixture.remove() }
        let sweep = try fixture.sweep(["--policies", Self.policies, "--out", fixture.directory + "/sweep"])
        #expect(sweep.status == 0, "\(sweep.standardError)")
        writeFile(
            fixture.directory, "single.json",
            """
            { "name": "tiny", "seed": 3, "network": {"trace": "traces/t2", "rttMs": 50},
              "content": {"ladderKbps": [300, 750, 1200, 1850], "segmentSeconds": 2, "segments": 10},
              "players": [{"id": "solo", "policy": "bba(reservoir=4)"}] }
            """)
        let run = try runABRSim(["run", fixture.directory + "/single.json", "--out", fixture.directory + "/run"])
        #expect(run.status == 0, "\(run.standardError)")
        let runSummary = try sweepSummary(fixture.directory + "/run")
        let sweepRows = try sweepSummary(fixture.directory + "/sweep").rows
        // Trace t2 is trace 2, bba(reservoir=4) policy 1: run 2 × 6 + 1.
        #expect(runSummary.rows == [sweepRows[13]])
        let runSegments = try CSVTable.parse(fileBytes(fixture.directory + "/run/segments.csv"), file: "s")
        let sweepSegments = try CSVTable.parse(fileBytes(fixture.directory + "/sweep/segments.csv"), file: "s")
        #expect(runSegments.rows == Array(sweepSegments.rows[130..<140]))
    }

    @Test("three shards merged in any order equal the unsharded sweep byte for byte")
    func shardsMergedByHandEqualTheUnshardedSweep() throws {
        let fixture = SweepFixture("sweep-shards")
        defer { fixture.remove() }
        let whole = try fixture.sweep(["--policies", Self.policies, "--out", fixture.directory + "/whole"])
        #expect(whole.status == 0, "\(whole.standardError)")
        for k in 1...3 {
            let shard = try fixture.sweep([
                "--policies", Self.policies, "--shard", "\(k)/3", "--jobs", "1", "--out", fixture.directory + "/s\(k)",
            ])
            #expect(shard.status == 0, "\(shard.standardError)")
        }
        // Shard 2/3 holds runs 1, 4, 7, …: 8 of the 24.
        let second = try sweepSummary(fixture.directory + "/s2")
        #expect(second.rows.count == 8)
        #expect(second.column("policy")!.prefix(2) == ["bba(reservoir=4)", "fixed(variant=0)"])
        let merge = try runABRSim([
            "merge", fixture.directory + "/s3", fixture.directory + "/s1", fixture.directory + "/s2", "--out",
            fixture.directory + "/merged",
        ])
        #expect(merge.status == 0, "\(merge.standardError)")
        expectSameSweepFolders(fixture.directory + "/whole", fixture.directory + "/merged")
    }

    @Test("with --no-segments a sweep writes only its summary, unchanged")
    func withoutSegmentsOnlyTheSummaryIsWrittenAndItIsUnchanged() throws {
        let fixture = SweepFixture("sweep-noseg")
        defer { fixture.remove() }
        let full = try fixture.sweep(["--policies", "bba,throughput", "--out", fixture.directory + "/full"])
        let lean = try fixture.sweep([
            "--policies", "bba,throughput", "--no-segments", "--out", fixture.directory + "/lean",
        ])
        #expect(full.status == 0 && lean.status == 0, "\(lean.standardError)")
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/lean/segments.csv"))
        #expect(
            fileBytes(fixture.directory + "/lean/summary.csv") == fileBytes(fixture.directory + "/full/summary.csv"))
    }

    @Test("traces given as several arguments are all swept, as their folder would be")
    func tracesGivenAsSeveralArgumentsAreAllSwept() throws {
        let fixture = SweepFixture("sweep-args")
        defer { fixture.remove() }
        let folder = try fixture.sweep(["--policies", "bba", "--out", fixture.directory + "/folder"])
        let listed = try runABRSim(
            ["sweep", fixture.scenario, "--traces"] + (0..<4).map { fixture.traces + "/t\($0)" } + [
                "--policies", "bba", "--out", fixture.directory + "/listed",
            ])
        #expect(folder.status == 0 && listed.status == 0, "\(listed.standardError)")
        #expect(try sweepSummary(fixture.directory + "/listed").rows.count == 4)
        #expect(
            fileBytes(fixture.directory + "/listed/summary.csv") == fileBytes(fixture.directory + "/folder/summary.csv")
        )
    }

    @Test("a sweep without traces or policies writes the scenario's own run")
    func withoutTracesOrPoliciesTheSweepIsTheScenarioItself() throws {
        let fixture = SweepFixture("sweep-plain")
        defer { fixture.remove() }
        let sweep = try runABRSim(["sweep", fixture.scenario, "--out", fixture.directory + "/sweep"])
        let run = try runABRSim(["run", fixture.scenario, "--out", fixture.directory + "/run"])
        #expect(sweep.status == 0 && run.status == 0, "\(sweep.standardError)")
        #expect(
            fileBytes(fixture.directory + "/sweep/summary.csv") == fileBytes(fixture.directory + "/run/summary.csv"))
        #expect(
            fileBytes(fixture.directory + "/sweep/segments.csv") == fileBytes(fixture.directory + "/run/segments.csv"))
    }

    @Test("bad shards, grids, policies, job counts and traces exit 2 with one line and no output")
    func badShardsGridsPoliciesAndTracesAreUsageErrorsWithNoOutput() throws {
        let fixture = SweepFixture("sweep-bad")
        defer { fixture.remove() }
        let out = fixture.directory + "/out"
        let cases: [([String], String)] = [
            (["--shard", "0/3"], "1 ≤ K ≤ N"), (["--shard", "4/3"], "1 ≤ K ≤ N"), (["--shard", "2"], "K/N"),
            (["--policies", "bba(reservoir=5..1)"], "the range's end 1 must be at least its start"),
            (["--policies", "bba(reservoir=1..5:0)"], "step must be > 0"),
            (["--policies", "bba(cushion=1|)"], "alternative must be non-empty"),
            (["--policies", "nope"], "unknown policy 'nope'"), (["--policies", "bba(typo=3)"], "typo"),
            (["--jobs", "0"], "--jobs"),
        ]
        for (arguments, message) in cases {
            let outcome = try fixture.sweep(arguments + ["--out", out])
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: out), "\(arguments) left output")
        }
        writeFile(fixture.traces, "broken", "0 1\n1 x\n")
        let broken = try fixture.sweep(["--out", out])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("broken: line 2"), "\(broken.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a complete sweep is not redone, and another sweep cannot reuse its folder")
    func aCompleteSweepIsNotRedoneAndAnotherSweepCannotReuseItsFolder() throws {
        let fixture = SweepFixture("sweep-again")
        defer { fixture.remove() }
        let out = fixture.directory + "/out"
        #expect(try fixture.sweep(["--policies", "bba", "--out", out]).status == 0)
        let before = fileBytes(out + "/summary.csv")
        let again = try fixture.sweep(["--policies", "bba", "--out", out])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("already complete"))
        #expect(fileBytes(out + "/summary.csv") == before)
        let other = try fixture.sweep(["--policies", "throughput", "--out", out])
        #expect(other.status == 2)
        #expect(other.standardError.contains("the sweep this folder holds differs"), "\(other.standardError)")
        #expect(other.standardError.contains("policy bba"))
        #expect(fileBytes(out + "/summary.csv") == before)
    }
}
