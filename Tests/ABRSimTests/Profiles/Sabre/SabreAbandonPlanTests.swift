import Foundation
import Testing

@testable import ABRSim

/// The per-download values BOLA's abandonment rule reuses between steps, and the steps it skips.
@Suite("sabre's abandonment checks between download steps")
struct SabreAbandonPlanTests {
    /// Three levels, 1000, 2000 and 4000 kbit/s, 3 s segments.
    static let manifest = SabreManifest(
        segmentTimeMs: 3000, bitratesKbps: [1000, 2000, 4000],
        sizesBits: Array(repeating: [3_000_000.0, 6_000_000, 12_000_000], count: 4).flatMap { $0 })

    static func simulation(_ abr: SabreOptions.ABR) -> SabreSimulation {
        var options = SabreOptions()
        options.abr = abr
        let sim = SabreSimulation(
            options: options, network: [SabreNetworkPeriod(durationMs: 1000, bandwidthKbps: 1000, latencyMs: 50)],
            manifest: manifest)
        sim.start()
        sim.latency = 100
        return sim
    }

    // Vp 1000, γp 5, utilities 0, 1, 2: targets 5000, 6000, 7000 ms; at quality 2 and 8000 bits the lower sizes are
    // 8000 × 1000/4000 = 2000 and 8000 × 2000/4000 = 4000 bits, and the quiet level the highest lower target, 6000.
    @Test("the plan holds BOLA's targets, the lower qualities' sizes and the quiet level, as worked by hand")
    func planValuesAsWorkedByHand() {
        let sim = Self.simulation(.bola)
        var plan = SabreAbandonPlan()
        plan.prepare(sim, utilities: [0, 1, 2], vp: 1000, gp: 5, quality: 2, size: 8000)
        #expect(plan.targets == [5000, 6000, 7000])
        #expect(plan.otherSizes == [2000, 4000])
        #expect(plan.quietLevel == 6000)
        plan.prepare(sim, utilities: [0, 1, 2], vp: 1000, gp: 5, quality: 0, size: 8000)
        #expect(plan.otherSizes.isEmpty && plan.quietLevel == -.infinity)
        // A lower quality with a higher target than the download's own: never quiet.
        var unordered = SabreAbandonPlan()
        unordered.prepare(sim, utilities: [0, 3, 2], vp: 1000, gp: 5, quality: 2, size: 8000)
        #expect(unordered.targets == [5000, 8000, 7000])
        #expect(unordered.quietLevel.isNaN)
        // A new Vp is picked up: targets 10,000, 12,000, 14,000.
        plan.prepare(sim, utilities: [0, 1, 2], vp: 2000, gp: 5, quality: 2, size: 8000)
        #expect(plan.targets == [10_000, 12_000, 14_000] && plan.quietLevel == 12_000)
    }

    /// The loop both of sabre's BOLA `check_abandon`s end with, every value computed afresh: the lower quality
    /// whose score (Vp·(γp + u) − `level`) / its size beats the download's own over `left` bits, if any (`nil` at
    /// once when `stopBelowZero` and the own score is negative, as `Bola`'s does).
    static func sabreLowerWinner(
        _ sim: SabreSimulation, vp: Double, gp: Double, utilities: [Double], _ progress: SabreDownloadProgress,
        level: Double, left: Double, stopBelowZero: Bool
    ) -> Int? {
        var abandonTo: Int? = nil
        var score = (vp * (gp + utilities[progress.quality]) - level) / left
        if stopBelowZero && score < 0 { return nil }
        for q in 0..<progress.quality {
            let otherSize = progress.size * sim.bitrates[q] / sim.bitrates[progress.quality]
            let otherScore = (vp * (gp + utilities[q]) - level) / otherSize
            if otherSize < left && otherScore > score {
                score = otherScore
                abandonTo = q
            }
        }
        return abandonTo
    }

    /// Sabre's `Bola.check_abandon` as sabre writes it.
    static func sabreBola(_ sim: SabreSimulation, _ rule: SabreBola, _ progress: SabreDownloadProgress, _ level: Double)
        -> Int?
    {
        let remain = progress.size - progress.downloaded
        if progress.downloaded <= 0 || remain <= 0 { return nil }
        return sabreLowerWinner(
            sim, vp: rule.vp, gp: rule.gp, utilities: rule.utilities, progress, level: level, left: remain,
            stopBelowZero: true)
    }

    /// Sabre's `BolaEnh.check_abandon` as sabre writes it.
    static func sabreBolaEnh(
        _ sim: SabreSimulation, _ rule: SabreBolaEnh, _ progress: SabreDownloadProgress, _ level: Double
    ) -> Int? {
        let remain = progress.size - progress.downloaded
        if progress.downloaded <= 0 || remain <= 0 { return nil }
        let bl = max(0, level + rule.placeholder - progress.timeToFirstBit)
        let tp = progress.downloaded / (progress.time - progress.timeToFirstBit)
        let sz = remain - progress.timeToFirstBit * tp
        if sz <= 0 { return nil }
        return sabreLowerWinner(
            sim, vp: rule.vp, gp: rule.gp, utilities: rule.utilities, progress, level: bl, left: sz,
            stopBelowZero: false)
    }

    /// Downloads of 12,000,000 bits at each quality, part done, at buffer levels from 0 to 40 s.
    static func cases() -> [(progress: SabreDownloadProgress, level: Double)] {
        var cases: [(SabreDownloadProgress, Double)] = []
        for quality in 0..<3 {
            for downloaded in stride(from: 0.0, through: 12_000_000, by: 750_000) {
                for level in stride(from: 0.0, through: 40_000, by: 250) {
                    let progress = SabreDownloadProgress(
                        index: 1, quality: quality, size: 12_000_000, downloaded: downloaded,
                        time: 80 + downloaded / 3000, timeToFirstBit: 80, abandonToQuality: nil)
                    cases.append((progress, level))
                }
            }
        }
        return cases
    }

    @Test("Bola's and BolaEnh's checks, with their plans and quiet levels, answer as sabre's formulas at every step")
    func checksAnswerAsSabresFormulas() throws {
        let bolaSim = Self.simulation(.bola)
        let bola = try #require(bolaSim.abr as? SabreBola)
        let enhSim = Self.simulation(.bolae)
        let enh = try #require(enhSim.abr as? SabreBolaEnh)
        var abandonments = 0
        for vp in [bola.vp, bola.vp / 3] {
            bola.vp = vp
            for (progress, level) in Self.cases() {
                let expected = Self.sabreBola(bolaSim, bola, progress, level)
                #expect(bola.checkAbandon(bolaSim, progress, bufferLevel: level) == expected)
                abandonments += expected == nil ? 0 : 1
            }
        }
        for placeholder in [0.0, 4000] {
            enh.placeholder = placeholder
            for (progress, level) in Self.cases() {
                let expected = Self.sabreBolaEnh(enhSim, enh, progress, level)
                #expect(enh.checkAbandon(enhSim, progress, bufferLevel: level) == expected)
                abandonments += expected == nil ? 0 : 1
            }
        }
        // The grid reaches both answers.
        #expect(abandonments > 0 && abandonments < 4 * Self.cases().count)
    }

    @Test("the throughput quality counted up to a limit is the full count capped at the limit")
    func qualityFromThroughputStopsAtTheLimit() {
        let sim = Self.simulation(.throughput)
        for tput in stride(from: 100.0, through: 10_000, by: 97) {
            let full = sim.qualityFromThroughput(tput)
            for limit in 0..<4 { #expect(sim.qualityFromThroughput(tput, atMost: limit) == min(full, limit)) }
        }
    }
}
