import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Every run of `../shared/reference/shortvideo/results.csv` (the challenge's own simulator, fresh and
/// sequential runs of `no_save`, `fixed_preload` and the template `solution`) reproduced by the `mmgc22` profile
/// to 1e-9 relative in every figure and component; `steps.csv`'s decisions one by one; `samples.csv`'s seed pairs
/// and watch times from the sample index alone.
@Suite(
    "the mmgc22 profile against the challenge's own simulator",
    .enabled(
        if: MMGC22SharedReference.isPresent,
        "the challenge's data and reference outputs (../shared/data/shortvideo, ../shared/reference/shortvideo) are absent"
    ))
struct MMGC22ReferenceTests {
    static let data: MMGC22Data? = try? MMGC22Data(folder: MMGC22SharedReference.data)

    /// Trace files parsed once per family.
    static let traces: [String: [PensieveCookedTrace]] = {
        guard let data else { return [:] }
        var traces: [String: [PensieveCookedTrace]] = [:]
        for family in MMGC22Run.families {
            traces[family] = (try? data.traceFiles(family: family))?.compactMap({
                try? PensieveCookedTrace.read(path: $0)
            })
        }
        return traces
    }()

    static func run(_ row: [String: String], recordSteps: Bool = false) throws -> MMGC22SessionResult {
        let data = try #require(data)
        let trace = try #require(traces[row["family"]!]?[Int(row["trace"]!)!])
        let levels: [Int] =
            row["state"] == "sequential"
            ? try MMGC22Run.parseLevels(row["last_chunk_bitrate_before"]!)
            : MMGC22Session.freshLastChunkLevels(clipCount: data.clips.count)
        let algorithm = try #require(MMGC22Algorithm(rawValue: row["algorithm"]!))
        let feed = MMGC22Feed(
            clips: data.clips, trace: trace, viewers: .seeds(MMGC22Run.seeds(of: MMGC22SharedReference.user(row))),
            lastChunkLevels: levels)
        return try feed.run(algorithm: algorithm, recordSteps: recordSteps)
    }

    /// The figures of a result by results.csv's column names.
    static func figures(_ result: MMGC22SessionResult) -> [String: Double] {
        [
            "score": result.score, "bandwidth_usage_bytes": result.bandwidthUsageBytes, "qoe": result.qoe,
            "wasted_bytes": result.wastedBytes, "download_watch_ratio": result.downloadWatchRatio,
            "quality_sum_kbps": Double(result.qualitySumKbps), "rebuffer_ms": result.rebufferMilliseconds,
            "smooth_kbps": Double(result.smoothKbps), "smooth_next_quirk_kbps": Double(result.smoothNextQuirkKbps),
            "played_chunks": Double(result.playedChunks), "steps": Double(result.steps),
            "downloads": Double(result.downloads), "extra_downloads": Double(result.extraDownloads),
            "sleeps": Double(result.sleeps), "sleep_ms": result.sleepMilliseconds,
            "session_ms": result.sessionMilliseconds, "watch_ms": result.watchMilliseconds,
            "aborted_min_qoe": result.abortedAtMinimumQoE ? 1 : 0,
        ]
    }

    /// The rows of results.csv, split by algorithm and family so they run in parallel.
    static let groups: [String] = {
        MMGC22Algorithm.allCases.flatMap({ algorithm in MMGC22Run.families.map({ algorithm.rawValue + "/" + $0 }) })
    }()

    /// Every row when `ABRSIM_MMGC22_ALL_ROWS=1` (about a minute in a debug build); otherwise, to keep the suite
    /// fast, every row of the default user (fresh and sequential) and one sample row in ten, with the template's
    /// 10 000-step runs on trace 0 only.
    static func isChecked(_ row: [String: String]) -> Bool {
        if ProcessInfo.processInfo.environment["ABRSIM_MMGC22_ALL_ROWS"] == "1" { return true }
        let trace = Int(row["trace"]!)!
        if row["algorithm"] == MMGC22Algorithm.sleepingTemplate.rawValue { return trace == 0 }
        if row["scheme"] == "default" { return true }
        return (Int(row["sample"]!)! + trace) % 10 == 0
    }

    @Test(
        "every checked results.csv row of the challenge's simulator is reproduced to 1e-9 relative in every figure",
        arguments: groups)
    func everyResultsRowIsReproduced(_ group: String) throws {
        let rows = try MMGC22SharedReference.rows("results.csv").filter({
            $0["algorithm"]! + "/" + $0["family"]! == group && Self.isChecked($0)
        })
        var worst = 0.0
        for row in rows {
            let result = try Self.run(row)
            for (name, value) in Self.figures(result) {
                let text = try #require(row[name], "column \(name)")
                let expected = try #require(Double(text))
                let error = MMGC22SharedReference.relativeError(value, expected)
                worst = max(worst, error)
                #expect(
                    error <= 1e-9,
                    "\(row["scheme"]!) \(row["sample"]!) \(row["state"]!) \(group) trace \(row["trace"]!): \(name) \(value) vs \(expected)"
                )
            }
        }
        #expect(!rows.isEmpty || group.hasPrefix("solution"), "results.csv has rows of \(group)")
        print("mmgc22 \(group): \(rows.count) rows, max relative error \(worst)")
    }
}

extension MMGC22ReferenceTests {
    /// steps.csv: every decision of the default user's fresh runs, and what each cost.
    @Test(
        "every step of the default user's fresh runs in steps.csv is reproduced exactly: decision, delay, stall, waste")
    func everyStepOfTheDefaultUserIsReproduced() throws {
        let steps = try MMGC22SharedReference.rows("steps.csv")
        var byRun: [String: [[String: String]]] = [:]
        for step in steps {
            byRun[step["algorithm"]! + "/" + step["family"]! + "/" + step["trace"]!, default: []].append(step)
        }
        #expect(!byRun.isEmpty)
        for (run, expected) in byRun.sorted(by: { $0.key < $1.key }) {
            let result = try Self.run(expected[0], recordSteps: true)
            #expect(result.stepRecords.count == expected.count, "\(run): steps")
            for (record, row) in zip(result.stepRecords, expected) {
                let isSleep = row["action"] == "sleep"
                let outcome = record.outcome
                let actual: [String: Double] = [
                    "play_video_before": Double(record.playVideoBefore),
                    "video": isSleep ? -1 : Double(record.decision.video),
                    "chunk": Double(record.chunk),
                    "bitrate": isSleep ? -1 : Double(record.decision.level),
                    "quality_kbps": Double(record.qualityKbps), "smooth_kbps": Double(record.smoothKbps),
                    "smooth_next_quirk_kbps": Double(record.smoothNextQuirkKbps),
                    "delay_ms": outcome.delayMilliseconds, "rebuffer_ms": outcome.rebufferMilliseconds,
                    "video_size_bytes": outcome.chunkBytes, "end_of_video": outcome.endOfVideo ? 1 : 0,
                    "play_video_after": Double(outcome.playVideoId), "wasted_bytes": outcome.wastedBytes,
                    "extra_chunk": outcome.extraChunk ? 1 : 0,
                ]
                #expect((record.decision.sleepMilliseconds > 0) == isSleep, "\(run) step \(row["step"]!): action")
                if isSleep { #expect(record.decision.sleepMilliseconds == Double(row["sleep_arg"]!)) }
                for (name, value) in actual {
                    #expect(
                        value == Double(row[name]!), "\(run) step \(row["step"]!): \(name) \(value) vs \(row[name]!)")
                }
            }
        }
    }

    /// samples.csv: the seed pairs of `default` and of sample J come from the index alone (numpy's legacy
    /// MT19937 and masked randint), and the watch times from them (numpy's choice, Python's uniform).
    @Test("samples.csv's seed pairs and watch times are drawn from the sample index alone, as the challenge draws them")
    func userSamplesAreDrawnAsTheChallengeDrawsThem() throws {
        let data = try #require(Self.data)
        let samples = try MMGC22SharedReference.rows("samples.csv")
        #expect(samples.count >= 2)
        for row in samples {
            let seeds = MMGC22Run.seeds(of: MMGC22SharedReference.user(row))
            let text = seeds.map({ "\($0.numpySeed):\($0.pythonSeed)" }).joined(separator: "|")
            #expect(text == row["seeds"], "\(row["scheme"]!) \(row["sample"]!)")
            let watch = zip(data.clips, seeds).map({ MMGC22Retention(clip: $0, seeds: $1).watchMilliseconds })
            #expect(watch.map({ PythonFormat.repr($0) }).joined(separator: "|") == row["durations_ms"])
        }
    }

    /// The leaking `last_chunk_bitrate`: in a sequential process, what run k leaves is what run k + 1 starts from.
    @Test("each sequential run leaves the last chunk levels results.csv's next run starts from, checked over 100 pairs")
    func sequentialRunsHandTheirLastBitratesOn() throws {
        let rows = try MMGC22SharedReference.rows("results.csv").filter({
            $0["state"] == "sequential" && $0["scheme"] == "default" && $0["algorithm"] != "solution"
        })
        var byKey: [String: [String: String]] = [:]
        for row in rows { byKey[row["algorithm"]! + "/" + row["family"]! + "/" + row["order"]!] = row }
        var checked = 0
        for row in rows {
            let key = row["algorithm"]! + "/" + row["family"]! + "/"
            guard let next = byKey[key + String(Int(row["order"]!)! + 1)] else { continue }
            let after = try Self.run(row).lastChunkLevels.map(String.init).joined(separator: "|")
            #expect(after == next["last_chunk_bitrate_before"], "\(key)\(row["order"]!)")
            checked += 1
        }
        #expect(checked > 100)
    }
}
