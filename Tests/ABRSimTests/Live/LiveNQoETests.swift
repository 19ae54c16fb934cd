import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// ``LiveNQoE`` against every row of LoL's per-segment NQoE reference (`Tests/Fixtures/reference/live/lol_nqoe.csv`),
/// and hand-computed sessions.
@Suite("the live NQoE of LoL")
struct LiveNQoETests {
    static func relativeDifference(_ x: Double, _ y: Double) -> Double {
        x == y ? 0 : abs(x - y) / max(abs(x), abs(y))
    }

    @Test("every row of LoL's per-segment NQoE reference is matched within 1e-12, each term exercised")
    func everyReferenceRowMatchesWithin1e12() throws {
        let file = TestPaths.reference + "/live/lol_nqoe.csv"
        let table = try CSVTable.parse(try InputFile.readAll(file), file: "lol_nqoe.csv")
        #expect(table.rows.count == 20)
        var sessions: [String: LiveNQoE] = [:]
        var logged = 0
        for (line, row) in table.rows.enumerated() {
            func value(_ name: String) throws -> Double {
                let index = try #require(table.columns.firstIndex(of: name), "no column \(name)")
                return try #require(Double(row[index]), "\(name) line \(line + 2): \(row[index])")
            }
            let session = row[try #require(table.columns.firstIndex(of: "session"))]
            if sessions[session] == nil {
                sessions[session] = LiveNQoE(
                    segmentDurationSeconds: try value("segment_duration_s"),
                    maxBitrateKbps: try value("max_bitrate_kbps"),
                    minBitrateKbps: try value("min_bitrate_kbps"))
            }
            var qoe = sessions[session]!
            #expect(Double(qoe.segmentCount) == (try value("segment")), "line \(line + 2)")
            qoe.logSegmentMetrics(
                bitrateKbps: try value("bitrate_kbps"), rebufferSeconds: try value("rebuffer_s"),
                latencySeconds: try value("latency_s"), playbackSpeed: try value("playback_speed"))
            sessions[session] = qoe
            let got: [(String, Double)] = [
                ("w_bitrate", qoe.weights.bitrateReward), ("w_switch", qoe.weights.bitrateSwitchPenalty),
                ("w_rebuffer", qoe.weights.rebufferPenalty), ("w_latency_low", qoe.weights.lowLatencyPenalty),
                ("w_latency_high", qoe.weights.highLatencyPenalty), ("w_speed", qoe.weights.playbackSpeedPenalty),
                ("bitrate_wsum", qoe.bitrateWeightedSum), ("switch_wsum", qoe.bitrateSwitchWeightedSum),
                ("rebuffer_wsum", qoe.rebufferWeightedSum), ("latency_wsum", qoe.latencyWeightedSum),
                ("speed_wsum", qoe.playbackSpeedWeightedSum), ("total_qoe", qoe.totalQoe),
            ]
            for (name, x) in got {
                let expected = try value(name)
                #expect(Self.relativeDifference(x, expected) <= 1e-12, "\(name) line \(line + 2): \(x) vs \(expected)")
            }
            logged += 1
        }
        #expect(logged == table.rows.count)
        // The reference exercises every term: switches, a rebuffer, both latency bands, speeds above and below 1.
        let final = try #require(sessions["one_second_segments"])
        #expect(final.bitrateSwitchWeightedSum > 0 && final.rebufferWeightedSum > 0)
        #expect(final.playbackSpeedWeightedSum > 0)
    }

    @Test("a hand-computed two-segment live session gives LoL's weights and each term's weighted sum")
    func handComputedSession() {
        // 2 s segments, ladder 300…3000 kbit/s: weights 2, 1, 3000, 300 × 0.05 = 15, 3000 × 0.1 = 300, 300.
        var qoe = LiveNQoE(segmentDurationSeconds: 2, maxBitrateKbps: 3000, minBitrateKbps: 300)
        #expect(
            qoe.weights
                == LiveNQoE.Weights(segmentDurationSeconds: 2, maxBitrateKbps: 3000, minBitrateKbps: 300))
        #expect(
            [
                qoe.weights.bitrateReward, qoe.weights.bitrateSwitchPenalty, qoe.weights.rebufferPenalty,
                qoe.weights.lowLatencyPenalty, qoe.weights.highLatencyPenalty, qoe.weights.playbackSpeedPenalty,
            ] == [2, 1, 3000, 15, 300, 300])
        // Segment 0: 3000 kbit/s, no stall, 1 s latency (low band), speed 1: 6000 − 15 = 5985.
        qoe.logSegmentMetrics(bitrateKbps: 3000, rebufferSeconds: 0, latencySeconds: 1, playbackSpeed: 1)
        #expect(qoe.totalQoe == 5985)
        // Segment 1: 1000 kbit/s after 3000, 0.5 s stall, 2 s latency (high band), speed 1.25:
        // bitrate 6000 + 2000 = 8000; switch 2000; rebuffer 1500; latency 15 + 600 = 615; speed 75.
        qoe.logSegmentMetrics(bitrateKbps: 1000, rebufferSeconds: 0.5, latencySeconds: 2, playbackSpeed: 1.25)
        #expect(qoe.bitrateWeightedSum == 8000)
        #expect(qoe.bitrateSwitchWeightedSum == 2000)
        #expect(qoe.rebufferWeightedSum == 1500)
        #expect(qoe.latencyWeightedSum == 615)
        #expect(qoe.playbackSpeedWeightedSum == 75)
        #expect(qoe.totalQoe == 8000 - 2000 - 1500 - 615 - 75)
        #expect(qoe.segmentCount == 2)
        #expect(qoe.lastBitrateKbps == 1000)
    }

    @Test("the latency penalty switches band just above 1.1 s and stops counting above 1e8 s")
    func latencyBandsAtTheirThresholds() {
        let weights = LiveNQoE.Weights(segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
        #expect(weights.latencyPenalty(atLatencySeconds: 1.1) == 10)
        #expect(weights.latencyPenalty(atLatencySeconds: 1.1.nextUp) == 100)
        #expect(weights.latencyPenalty(atLatencySeconds: 1e8) == 100)
        #expect(weights.latencyPenalty(atLatencySeconds: 1e8.nextUp) == nil)
        var qoe = LiveNQoE(segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
        qoe.logSegmentMetrics(bitrateKbps: 200, rebufferSeconds: 0, latencySeconds: 2e8, playbackSpeed: 1)
        #expect(qoe.latencyWeightedSum == 0)
        #expect(qoe.totalQoe == 200)
    }

    @Test("zero or NaN settings take LoL's defaults, and a switch counts only from a non-zero bitrate")
    func missingSettingsTakeLoLsDefaultsAndAZeroBitrateStartsNoSwitch() {
        // LoL tests the settings for truth: 0 (or NaN) takes the default, except in the latency penalties.
        let weights = LiveNQoE.Weights(segmentDurationSeconds: 0, maxBitrateKbps: .nan, minBitrateKbps: 0)
        #expect(weights.bitrateReward == 1)
        #expect(weights.rebufferPenalty == 1000)
        #expect(weights.playbackSpeedPenalty == 200)
        #expect(weights.lowLatencyPenalty == 0)
        #expect(weights.highLatencyPenalty.isNaN)
        // A switch is counted only from a non-zero previous bitrate.
        var qoe = LiveNQoE(segmentDurationSeconds: 1, maxBitrateKbps: 1000, minBitrateKbps: 200)
        qoe.logSegmentMetrics(bitrateKbps: 0, rebufferSeconds: 0, latencySeconds: 0, playbackSpeed: 1)
        qoe.logSegmentMetrics(bitrateKbps: 1000, rebufferSeconds: 0, latencySeconds: 0, playbackSpeed: 1)
        #expect(qoe.bitrateSwitchWeightedSum == 0)
        qoe.logSegmentMetrics(bitrateKbps: 200, rebufferSeconds: 0, latencySeconds: 0, playbackSpeed: 1)
        #expect(qoe.bitrateSwitchWeightedSum == 800)
    }
}
