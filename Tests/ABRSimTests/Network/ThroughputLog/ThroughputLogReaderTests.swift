import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The throughput-log readers give the per-request samples `trace infer` takes.
@Suite("the throughput-log readers")
struct ThroughputLogReaderTests {
    static let folder = TestPaths.packageRoot + "/Tests/Fixtures/throughput-logs/"

    @Test("the Puffer sent and acked tables join into one session's requests, timed half an RTT inside")
    func pufferSentAndAckedTablesJoinIntoOneSessionsRequests() throws {
        let log = try ThroughputLogReader.read(
            path: Self.folder + "video_sent.csv", format: .puffer, acked: Self.folder + "video_acked.csv")
        // Session sessA (the first); its third chunk was never acknowledged. RTT 100 ms: first byte half an RTT
        // after sending, last byte half an RTT before the ack.
        #expect(log.samples.count == 2)
        #expect(log.samples[0].bytes == 150_000)
        #expect(abs(log.samples[0].startSeconds - 0.05) < 1e-9)
        #expect(abs(log.samples[0].endSeconds - 0.95) < 1e-9)
        #expect(abs(log.samples[1].startSeconds - 1.15) < 1e-9)
        #expect(abs(log.samples[1].endSeconds - 2.15) < 1e-9)
        #expect(abs(log.samples[1].rttSeconds - 0.1) < 1e-12)
        #expect(log.samples[1].line == 4)
        let other = try ThroughputLogReader.read(
            path: Self.folder + "video_sent.csv", format: .puffer, acked: Self.folder + "video_acked.csv",
            selection: "sessB")
        #expect(other.samples.map(\.bytes) == [999])
        // Plain replay: the measured throughput, 150 kB in 0.9 s.
        let (trace, _) = try CapacityInference.trace(log, model: FluidModel(), name: "p")
        #expect(abs(trace.ratesBps[0] - 150_000 * 8 / 0.9) < 1e-6)
        #expect(trace.starts == [0, 1.1])
    }

    @Test("an access-log event stands for its mean request, which slow start inverts to 4.5 Mbit/s")
    func anAccessLogEventStandsForItsMeanRequestTimedFromTheRequest() throws {
        let path = TestPaths.packageRoot + "/Tests/Fixtures/bad/ok/access_log.csv"
        let log = try ThroughputLogReader.read(path: path, format: .accessLog)
        #expect(log.samples.count == 1)
        #expect(log.samples[0].count == 15)
        #expect(log.samples[0].bytes == 150_000)
        #expect(abs(log.samples[0].endSeconds - log.samples[0].startSeconds - 15.46 / 15) < 1e-12)
        // Under slow start at 100 ms the mean request (150 kB in 1.0307 s from the request) came from 4.5 Mbit/s.
        let (trace, _) = try CapacityInference.trace(log, model: SlowStartModel(), rttSeconds: 0.1, name: "a")
        #expect(abs(trace.ratesBps[0] / 4.5e6 - 1) < 1e-3)
    }
}
