import Foundation
import Testing

@testable import ABRSim

/// Sabre's network model and buffer on tiny hand-built networks, numbers worked out by hand.
@Suite("sabre's network model and buffer")
struct SabreNetworkModelTests {
    /// Two levels, 1000 and 2000 kbit/s, 3 s segments, 4 segments of 3,000,000 / 6,000,000 bits.
    static let manifest = SabreManifest(
        segmentTimeMs: 3000, bitratesKbps: [1000, 2000],
        sizesBits: Array(repeating: [3_000_000.0, 6_000_000], count: 4).flatMap { $0 })

    static func simulation(_ periods: [SabreNetworkPeriod], options: SabreOptions = SabreOptions())
        -> SabreSimulation
    {
        var options = options
        options.abr = .throughput
        let sim = SabreSimulation(options: options, network: periods, manifest: manifest)
        sim.start()
        return sim
    }

    /// Records every progress report and never abandons.
    final class Recorder: SabreABRRule {
        var progress: [SabreDownloadProgress] = []
        func qualityDelay(_ sim: SabreSimulation, segmentIndex: Int) -> (quality: Int, delay: Double) { (0, 0) }
        func checkAbandon(_ sim: SabreSimulation, _ progress: SabreDownloadProgress, bufferLevel: Double) -> Int? {
            self.progress.append(progress)
            return nil
        }
    }

    // Period 0: 100 ms, 1000 kbit/s, latency 80 ms; period 1: 1000 ms, 2000 kbit/s, latency 40 ms.
    // After 60 ms, 40 ms of period 0 remain: the latency uses them for 40/80 = half of itself, the other half
    // at period 1's 40 ms is 20 ms: 60 ms in all. Then 20,000 bits at 2000 bits/ms: 10 ms.
    @Test("sabre's latency is split pro rata across a network period boundary, as worked by hand")
    func latencyIsSplitProRataAcrossAPeriodBoundary() {
        let sim = Self.simulation([
            SabreNetworkPeriod(durationMs: 100, bandwidthKbps: 1000, latencyMs: 80),
            SabreNetworkPeriod(durationMs: 1000, bandwidthKbps: 2000, latencyMs: 40),
        ])
        sim.networkDelay(60)
        let metric = sim.download(size: 20_000, index: 1, quality: 0, bufferLevel: 0, check: .none)
        #expect(metric.timeToFirstBit == 60)
        #expect(metric.time == 70)
        #expect(sim.networkIndex == 1)
        #expect(sim.networkTotalTime == 130)
        #expect(sim.timeToNext == 1000 - 20 - 10)
    }

    // One period of 1000 ms at 1000 kbit/s, no latency: 2,500,000 bits take 2500 ms, looping twice.
    @Test("sabre's network trace loops when a download outlasts it")
    func theTraceLoops() {
        let sim = Self.simulation([SabreNetworkPeriod(durationMs: 1000, bandwidthKbps: 1000, latencyMs: 0)])
        let metric = sim.download(size: 2_500_000, index: 0, quality: 0, bufferLevel: 0, check: .none)
        #expect(metric.time == 2500)
        #expect(sim.networkIndex == 0)
        #expect(sim.timeToNext == 500)
    }

    // With abandonment checks at 1000 kbit/s and a 20 ms latency, the first step is max(12000 bits, (50 − 20) ms ×
    // 1000) = 30,000 bits (30 ms); then 50,000-bit steps of 50 ms. At 100 kbit/s the 12,000-bit floor rules:
    // 120 ms steps.
    @Test("sabre's progress reports come every 50 ms and at least 12,000 bits")
    func progressStepsAreAtLeast12000BitsAnd50Ms() {
        let fast = Self.simulation([SabreNetworkPeriod(durationMs: 10_000, bandwidthKbps: 1000, latencyMs: 20)])
        let recorder = Recorder()
        fast.abr = recorder
        let metric = fast.download(size: 200_000, index: 1, quality: 0, bufferLevel: 9000, check: .abr)
        #expect(recorder.progress.map(\.downloaded) == [30_000, 80_000, 130_000, 180_000])
        #expect(recorder.progress.map(\.time) == [50, 100, 150, 200])
        #expect(metric.downloaded == 200_000 && metric.time == 220 && metric.timeToFirstBit == 20)

        let slow = Self.simulation([SabreNetworkPeriod(durationMs: 10_000, bandwidthKbps: 100, latencyMs: 0)])
        let slowRecorder = Recorder()
        slow.abr = slowRecorder
        _ = slow.download(size: 40_000, index: 1, quality: 0, bufferLevel: 9000, check: .abr)
        #expect(slowRecorder.progress.map(\.downloaded) == [12_000, 24_000, 36_000])
        #expect(slowRecorder.progress.map(\.time) == [120, 240, 360])
    }

    // A bandwidth-0 period is waited out whole while the 12,000-bit floor is owed, and the first step then ends
    // at the floor: 500 ms + 12 ms. Then 50,000-bit steps of 50 ms; the last 38,000 bits take 38 ms.
    @Test("a zero-bandwidth sabre period is waited out whole before the first progress report")
    func aZeroBandwidthPeriodIsWaitedOut() {
        let sim = Self.simulation([
            SabreNetworkPeriod(durationMs: 500, bandwidthKbps: 0, latencyMs: 0),
            SabreNetworkPeriod(durationMs: 10_000, bandwidthKbps: 1000, latencyMs: 0),
        ])
        let recorder = Recorder()
        sim.abr = recorder
        let metric = sim.download(size: 100_000, index: 1, quality: 0, bufferLevel: 9000, check: .abr)
        #expect(recorder.progress.map(\.time) == [512, 562])
        #expect(recorder.progress.map(\.downloaded) == [12_000, 62_000])
        #expect(metric.time == 600)
    }

    // The buffer plays segment by segment: 4 s from one 3 s segment is 3 s played and 1 s of rebuffering, one
    // event; time passing on an empty buffer adds stall time but no event.
    @Test(
        "a sabre rebuffer event counts only when a drain empties the buffer, and switches are credited as segments start"
    )
    func rebufferEventsCountOnlyWhenADrainEmptiesTheBuffer() {
        let sim = Self.simulation([SabreNetworkPeriod(durationMs: 1000, bandwidthKbps: 1000, latencyMs: 0)])
        sim.bufferContents = [1]
        sim.depleteBuffer(1000)
        #expect(sim.bufferFcc == 1000 && sim.bufferLevel == 2000)
        #expect(sim.playedBitrate == 2000)
        sim.depleteBuffer(3000)
        #expect(sim.rebufferTime == 1000 && sim.rebufferEventCount == 1)
        #expect(sim.totalPlayTime == 4000)
        sim.depleteBuffer(500)
        #expect(sim.rebufferTime == 1500 && sim.rebufferEventCount == 1)
        // Utility and bitrate change are credited when a segment starts: 1 → 0 costs |2000 − 1000|, |ln 2|.
        sim.bufferContents = [0]
        sim.depleteBuffer(10)
        #expect(sim.totalBitrateChange == 1000)
        #expect(abs(sim.totalLogBitrateChange - 0.6931471805599453) < 1e-15)
    }

    // EWMA with half-lives 3 s and 8 s after one 1000 ms download at 1000 kbit/s, latency 100 ms: both
    // bias-corrected averages equal the sample exactly.
    @Test("sabre's EWMA is bias-corrected and takes the lower average, and its sliding window the lower mean")
    func ewmaIsBiasCorrected() {
        let ewma = SabreEWMA(halfLifeSeconds: [3, 8], segmentTime: 3000)
        let first = ewma.push(time: 1000, throughput: 1000, latency: 100)
        #expect(abs(first.throughput - 1000) < 1e-9 && abs(first.latency - 100) < 1e-9)
        // A second, slower download pulls the 3 s average down more: the minimum is the 3 s one.
        let second = ewma.push(time: 1000, throughput: 500, latency: 300)
        let a3 = pow(0.5, 1.0 / 3)
        let t3 = (a3 * (1 - a3) * 1000 + (1 - a3) * 500) / (1 - pow(0.5, 2.0 / 3))
        #expect(abs(second.throughput - t3) < 1e-9)
        let window = SabreSlidingWindow(windowSize: [2, 3])
        _ = window.push(time: 1, throughput: 900, latency: 10)
        _ = window.push(time: 1, throughput: 300, latency: 50)
        let three = window.push(time: 1, throughput: 600, latency: 20)
        // Windows [300, 600] and [900, 300, 600]: the lower mean throughput, 450; the higher mean latency, 35.
        #expect(three.throughput == 450 && three.latency == 35)
    }
}
