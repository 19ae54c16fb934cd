import ABRSimTestSupport
import Testing

@testable import ABRSim

@Suite("sweep shards")
struct SweepShardTests {
    @Test("each shard takes the runs congruent to its index, and together they cover every run once")
    func shardsTakeTheRunsCongruentToTheirIndexAndCoverEveryRunOnce() {
        for total in [0, 1, 2, 7, 24, 25] {
            for count in 1...5 {
                var seen: [Int] = []
                for index in 1...count {
                    let shard = SweepShard(index: index, count: count)
                    let runs = (0..<shard.runCount(of: total)).map(shard.globalRun(at:))
                    #expect(runs.allSatisfy { $0 % count == index - 1 && $0 < total })
                    seen += runs
                }
                #expect(seen.sorted() == Array(0..<total), "total \(total), \(count) shards")
            }
        }
        #expect(SweepShard(index: 2, count: 3).runCount(of: 7) == 2)  // runs 1 and 4
        #expect(SweepShard(index: 1, count: 3).runCount(of: 7) == 3)  // runs 0, 3, 6
    }

    @Test("a shard parses from K/N with 1 ≤ K ≤ N, and other forms are refused")
    func parsingAcceptsKOverNWithinRangeOnly() throws {
        #expect(try SweepShard.parse("2/3") == SweepShard(index: 2, count: 3))
        #expect(try SweepShard.parse("1/1") == .whole)
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3", ""] {
            #expect(throws: InputError.self, "\(bad)") { try SweepShard.parse(bad) }
        }
    }

    @Test("sweep runs are numbered trace-major, and the manifest lists traces then policies")
    func runsAreNumberedTraceMajor() throws {
        let fixture = SweepFixture("shard-plan")
        defer { fixture.remove() }
        let scenario = try ScenarioLoader().load(fixture.scenario)
        let plan = try SweepPlan(
            scenario: scenario, traces: ["a", "b", "c"], policies: [PolicySpec(name: "bba"), PolicySpec(name: "mpc")])
        #expect(plan.runCount == 6)
        #expect(plan.coordinates(ofRun: 0) == (0, 0))
        #expect(plan.coordinates(ofRun: 3) == (1, 1))
        #expect(plan.coordinates(ofRun: 4) == (2, 0))
        #expect(plan.rttSeconds == 0.05)
        #expect(plan.seed == 3)
        #expect(plan.manifest(shard: .whole).contains("\ntrace b\ntrace c\npolicy bba\npolicy mpc\n"))
    }
}
