import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Inputs that crashed, hung or exhausted memory under the fuzz targets (`Tests/Fuzz/`, findings in
/// `docs/reliability/fuzzing.md`), kept in `Tests/Fixtures/fuzz/<target>/`. Each must now end as one
/// ``InputError`` naming the file, quickly and in bounded memory; before its fix each one trapped, or ran until it
/// exhausted memory (the time limit turns a hang into a failure).
@Suite("inputs the fuzzers found")
struct FuzzRegressionTests {
    /// Reads `Tests/Fixtures/fuzz/<target>/<name>` as the fuzz target `target` does, which must fail with a
    /// one-line ``InputError``; returns the error.
    static func refusal(_ target: String, _ name: String) throws -> InputError {
        let path = TestPaths.packageRoot + "/Tests/Fixtures/fuzz/\(target)/\(name)"
        let error = try #require(throws: InputError.self) {
            switch target {
            case "scenario": _ = try ScenarioLoader().load(path)
            default: _ = try TraceStatistics(TraceReader.read(path: path))  // trace-detect: `abrsim trace info`
            }
        }
        #expect(error.file == path || error.file == name, "\(error)")
        #expect(!error.description.contains("\n"))
        return error
    }

    /// A scenario fixture's ``InputError``.
    static func scenarioError(_ name: String) throws -> InputError { try refusal("scenario", name) }

    /// The ``InputError`` of `abrsim trace info` on a trace fixture (detection, reader, statistics).
    static func traceInfoError(_ name: String) throws -> InputError { try refusal("trace-detect", name) }

    /// Scenario fixtures, the JSON path of the error, and its problem. Before the fixes:
    /// `content-duration-1e300` trapped converting 1e300 segments to `Int` (Content.splitDuration);
    /// `content-segments-1e12` asked `Array(repeating:count:)` for 8 TB; `stretch-loops-short-trace` (a 2 ms trace
    /// looped over 10^9 s) ran out of memory in NetworkTimeline.build; `markov-sojourn-1e-300` and
    /// `outages-1e300-per-minute` advanced time by ~1e-300 s per draw, growing their lists until memory ran out.
    /// Since the keys' bounds (ScenarioBounds), four of them are refused at the key itself, before the limit they
    /// first met.
    static let refusedScenarios: [(String, String, InputProblem)] = [
        (
            "content-duration-1e300.json", "$.content.durationSeconds",
            .outOfRange(what: "a number", bound: "in 0.001…10000000", found: "1e+300")
        ),
        (
            "content-segments-1e12.json", "$.content",
            .overLimit("1000000000000 segments", limit: "\(Content.maximumSegmentCount)")
        ),
        (
            "stretch-loops-short-trace.json", "$.network.stretches[0].seconds",
            .outOfRange(what: "a number", bound: "in 1e-06…10000000", found: "1000000000")
        ),
        (
            "markov-sojourn-1e-300.json", "$.network.stretches[0].synthetic.states[0].meanSojournSeconds",
            .outOfRange(what: "a number", bound: "in 1e-06…10000000", found: "1e-300")
        ),
        (
            "outages-1e300-per-minute.json", "$.network.synthetic.outages.perMinute",
            .outOfRange(what: "a number", bound: "in 1e-06…10000", found: "1e+300")
        ),
    ]

    @Test(
        "each fuzz-found scenario asking for unbounded work is refused quickly, naming the key and its bound",
        .timeLimit(.minutes(10)), arguments: refusedScenarios)
    func scenariosThatAskForUnboundedWorkAreRefused(name: String, location: String, problem: InputProblem) throws {
        let error = try Self.scenarioError(name)
        #expect(error.location == location)
        #expect(error.problem == problem, "\(error)")
    }

    @Test("one segment more than the limit is refused, by count or by duration")
    func oneSegmentMoreThanTheLimitIsRefusedEitherWay() {
        let limit = Content.maximumSegmentCount
        #expect(throws: InputError.self) {
            try Content.constantBitrate(ladderKbps: [100], segmentSeconds: 1, segmentCount: limit + 1)
        }
        #expect(throws: InputError.self) {
            try Content.constantBitrate(ladderKbps: [100], segmentSeconds: 2, durationSeconds: 2 * Double(limit) + 1)
        }
    }

    @Test("the Markov visits and outage intervals stop at their limit however tiny the draws")
    func markovVisitsAndOutageIntervalsStopAtTheirLimit() throws {
        // The generator's second line of defence: a skewed draw cannot run past the cap either.
        let chain = MarkovRateModel(
            states: [
                .init(rate: LognormalRate(meanBps: 1e6, spread: 0), sojourn: .exponential(meanSeconds: 1e-300)),
                .init(rate: LognormalRate(meanBps: 1e4, spread: 0), sojourn: .exponential(meanSeconds: 1e-300)),
            ])
        #expect(chain.visits(seconds: 10, RandomSource(seed: 1), limit: 1000).count == 1001)
        let outages = OutageModel(perMinute: 1e300, duration: .exponential(meanSeconds: 1e-300))
        #expect(outages.intervals(seconds: 10, RandomSource(seed: 1), limit: 1000).count == 1001)
    }

    /// Trace fixtures and the problem each is refused with. Before the fixes: `pensieve-1e15-seconds` asked
    /// `reserveCapacity` for 10^15 one-second bins (8 PB); `mahimahi-13-nines-…` (found by fuzz-trace-detect, one
    /// timestamp of 13 nines, ms) for 10^10 bins; `mahimahi-1e7-seconds-…` (a fuzz-trace-detect timeout,
    /// 9 999 999 929 ms) made 10^7 bins in 5.6 s; the two 1e-320 traces overflowed the look-up grid's pieces per
    /// second to infinity and `Int(0 × ∞)` trapped. Now the readers refuse traces longer than
    /// ``Trace/maximumDurationSeconds`` (with the line) or shorter than a microsecond, and the statistics keep
    /// their own bound on bins for what gets past the readers (the 10^7-second one).
    static let refusedTraces: [(String, InputProblem)] = [
        (
            "pensieve-1e15-seconds",
            .overLimit("time 1000000000000000.0 s, 1000000000000000.0 s after the start", limit: longestTrace)
        ),
        (
            "mahimahi-13-nines-crash-7a7c574a",
            .overLimit("timestamp 9999999999999 ms, 9999999999.999 s after the start", limit: longestTrace)
        ),
        (
            "mahimahi-1e7-seconds-timeout-3d043c3b",
            .overLimit(
                "9999999.929 s in bins of 1.0 s", limit: "\(TraceStatistics.maximumBins) bins (slice the trace first)")
        ),
        ("pensieve-1e-320-seconds", .mustBe("duration", rule: "at least a microsecond", found: "1e-320", unit: "s")),
        ("sabre-1e-320-ms.json", .mustBe("duration", rule: "at least a microsecond", found: "1e-323", unit: "s")),
    ]

    /// The longest trace the readers take, as their errors state it.
    static let longestTrace = "10000000 s (about 116 days)"

    @Test(
        "trace info refuses each fuzz-found trace too long or too short to index, quickly, in one line",
        .timeLimit(.minutes(10)), arguments: refusedTraces)
    func traceInfoRefusesTracesTooLongOrTooShortToIndex(name: String, problem: InputProblem) throws {
        let error = try Self.traceInfoError(name)
        #expect(error.problem == problem, "\(error)")
    }

    @Test("a curve of a denormal rate is refused, while a tiny normal rate still inverts exactly")
    func aCurveCarryingADenormalNumberOfBitsIsRefused() {
        // 1e-320 bit/s for 1 s: pieces per bit overflowed to infinity, so time(atCumulativeBits:) trapped.
        #expect(throws: InputError.self) {
            try CapacityCurve(starts: [0], ratesBps: [1e-300 / 1e20], duration: 1, atEnd: .loop)  // a denormal, 1e-320
        }
        let ordinary = try? CapacityCurve(starts: [0], ratesBps: [1e-300], duration: 1, atEnd: .loop)
        #expect(abs((ordinary?.time(atCumulativeBits: 5e-301) ?? 0) - 0.5) < 1e-12)
    }
}
