import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// Every run of `../shared/reference/shortvideo/results.csv` (the challenge's own simulator, fresh and
/// sequential runs of `no_save`, `fixed_preload` and the template `solution`) reproduced by the `mmgc22` profile
/// to 1e-9 relative in every figure and component; `steps.csv`'s decisions one by one; `samples.csv`'s seed pairs
/// and watch times from the sample index alone.
@Suite(
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
        var policy = try #require(MMGC22Algorithm(rawValue: row["algorithm"]!)).makePolicy()
        let session = MMGC22Session(
            clips: data.clips, seeds: MMGC22Run.seeds(of: MMGC22SharedReference.user(row)), trace: trace)
        return try session.run(policy: &policy, lastChunkLevels: levels, recordSteps: recordSteps)
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

    @Test(arguments: groups) func everyResultsRowIsReproduced(_ group: String) throws {
        let rows = try MMGC22SharedReference.rows("results.csv").filter({
            $0["algorithm"]! + "/" + $0["family"]! == group
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
