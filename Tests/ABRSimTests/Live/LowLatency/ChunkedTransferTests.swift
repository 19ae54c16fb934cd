import Testing

@testable import ABRSim

/// A live stream near its edge on a constant 1500 kbit/s link: 2 s segments at 1000 kbit/s in four 0.5 s CMAF
/// chunks of 500 kbit. Segment s's media starts at 10 + 2s, so chunk k is available at 10 + 2s + 0.5(k + 1); each
/// chunk takes 500/1500 = 1/3 s to cross the link, so the request idles 1/6 s before every chunk.
enum LiveEdgeBench {
    static let linkBps = 1_500_000.0
    static let segmentBits = 2_000_000.0

    static func curve(rttSeconds: Double? = nil) -> CapacityCurve {
        try! CapacityCurve(
            starts: [0], ratesBps: [linkBps], duration: 100_000, latencySeconds: rttSeconds.map { [$0] })
    }

    static func chunks(segment: Int) -> [CMAFChunk] {
        CMAFChunk.evenlySplit(
            segmentBits: segmentBits, segmentStart: 10 + 2 * Double(segment), segmentDuration: 2, count: 4)
    }

    /// `count` segments fetched back to back from t = 10 (each requested when the previous one's last byte
    /// arrived), as one throughput sample each.
    static func session(count: Int) -> [ThroughputSample] {
        var request = 10.0
        return (0..<count).map { segment in
            let timings = ChunkedTransfer.timings(
                segment: segment, chunks: chunks(segment: segment), requestTime: request, curve: curve())
            let sample = ChunkedTransfer.sample(requestTime: request, timings: timings)
            request = sample.doneTime
            return sample
        }
    }
}

@Suite("chunked transfer near the live edge")
struct ChunkedTransferTests {
    @Test("near the edge each 500 kbit chunk starts when encoded, at 10.5, 11, 11.5 and 12 s, and takes 1/3 s")
    func nearTheEdgeEachChunkWaitsForItsEncodeTime() {
        let timings = ChunkedTransfer.timings(
            segment: 0, chunks: LiveEdgeBench.chunks(segment: 0), requestTime: 10, curve: LiveEdgeBench.curve())
        #expect(timings.map(\.chunk) == [0, 1, 2, 3])
        #expect(timings.map(\.availableTime) == [10.5, 11, 11.5, 12])
        #expect(timings.map(\.firstByteTime) == [10.5, 11, 11.5, 12])
        for timing in timings {
            #expect(abs(timing.lastByteTime - (timing.firstByteTime + 1.0 / 3)) < 1e-12)
            #expect(timing.bits == 500_000)
        }
    }

    @Test("requested at 20 s, after its last chunk exists, a segment arrives as one transfer after the 40 ms RTT")
    func farBehindTheEdgeTheRequestIsOneContinuousTransfer() {
        // Requested at 20 s, long after the last chunk (12 s) exists: 2000 kbit at 1500 kbit/s after a 40 ms RTT.
        let timings = ChunkedTransfer.timings(
            segment: 0, chunks: LiveEdgeBench.chunks(segment: 0), requestTime: 20,
            curve: LiveEdgeBench.curve(rttSeconds: 0.04))
        #expect(timings[0].firstByteTime == 20.04)
        for k in 1..<4 { #expect(timings[k].firstByteTime == timings[k - 1].lastByteTime) }
        #expect(abs(timings[3].lastByteTime - (20.04 + 2_000_000.0 / 1_500_000)) < 1e-12)
    }

    @Test("1500 kbit chunks every 0.5 s on a 1500 kbit/s link queue: first bytes at 0.5, 1.5, 2.5 and 3.5 s")
    func aChunkLargerThanItsIntervalQueuesTheNextOne() {
        // 1500 kbit chunks every 0.5 s on a 1500 kbit/s link: each takes 1 s, so chunk k starts when k − 1 ends.
        let chunks = CMAFChunk.evenlySplit(segmentBits: 6_000_000, segmentStart: 0, segmentDuration: 2, count: 4)
        let timings = ChunkedTransfer.timings(
            segment: 3, chunks: chunks, requestTime: 0, curve: LiveEdgeBench.curve())
        #expect(timings.map(\.firstByteTime) == [0.5, 1.5, 2.5, 3.5])
        #expect(timings.map(\.lastByteTime) == [1.5, 2.5, 3.5, 4.5])
        #expect(timings.allSatisfy { $0.segment == 3 })
    }

    @Test("a segment's sample spans 10 s to 12 + 1/3 s with 2000 kbit, first byte at 10.5 s, and carries its 4 chunks")
    func theSampleSpansTheWholeRequestAndCarriesItsChunks() {
        let sample = LiveEdgeBench.session(count: 1)[0]
        #expect(sample.bits == 2_000_000)
        #expect(sample.requestTime == 10)
        #expect(sample.firstByteTime == 10.5)
        #expect(abs(sample.doneTime - (12 + 1.0 / 3)) < 1e-12)
        #expect(sample.chunks.count == 4)
    }
}
