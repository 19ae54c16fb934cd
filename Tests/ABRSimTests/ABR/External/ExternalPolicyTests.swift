import Testing

@testable import ABRSim

/// The external policy's protocol in process: the request line a child is sent and the strict reading of replies.
@Suite("the external policy's protocol in process")
struct ExternalPolicyTests {
    @Test("the decide request is one JSON line carrying the context, the ladder's sizes and the throughput history")
    func requestCarriesTheContext() throws {
        let content = try Content.constantBitrate(ladderKbps: [300, 750], segmentSeconds: 4, segmentCount: 3)
        let history = ThroughputHistory()
        history.append(
            ThroughputSample(bits: 1_200_000, requestTime: 0, firstByteTime: 0.08, doneTime: 1.5), variant: 0)
        let context = ABRContext(
            time: 1.5, segmentIndex: 1, content: content, bufferSeconds: 2.25, bufferTargetSeconds: 30,
            playbackState: .playing, playbackRate: 1, lastVariant: 0, maxVariant: 1, startVariant: 0,
            history: history, isAfterSeek: false)
        let line = ExternalPolicy.request(for: context, historyLength: 10)
        #expect(
            line == "{\"type\":\"decide\",\"time\":1.5,\"segment\":1,\"segmentCount\":3,\"segmentDuration\":4,"
                + "\"ladderKbps\":[300,750],\"sizesBits\":[1200000,3000000],\"buffer\":2.25,\"bufferTarget\":30,"
                + "\"lastVariant\":0,\"maxVariant\":1,\"startVariant\":0,\"state\":\"playing\",\"rate\":1,"
                + "\"afterSeek\":false,\"history\":[{\"bits\":1200000,\"request\":0,\"firstByte\":0.08,\"done\":1.5,"
                + "\"variant\":0}]}")
        #expect(ExternalPolicy.request(for: context, historyLength: 0).hasSuffix("\"history\":[]}"))
    }

    @Test("a live player's request adds its latency and target latency after afterSeek; a VOD request has neither")
    func aLiveRequestCarriesItsLatency() throws {
        let content = try Content.constantBitrate(ladderKbps: [300, 750], segmentSeconds: 4, segmentCount: 3)
        var context = ABRContext(
            time: 10, segmentIndex: 2, content: content, bufferSeconds: 1.5, bufferTargetSeconds: 30,
            playbackState: .playing, playbackRate: 1.05, lastVariant: 1, maxVariant: 1, startVariant: 0,
            history: ThroughputHistory(), isAfterSeek: false)
        let vod = ExternalPolicy.request(for: context, historyLength: 0)
        #expect(!vod.contains("Latency"))
        context.liveLatencySeconds = 3.25
        context.targetLatencySeconds = 3
        let live = ExternalPolicy.request(for: context, historyLength: 0)
        #expect(
            live.hasSuffix("\"rate\":1.05,\"afterSeek\":false,\"liveLatency\":3.25,\"targetLatency\":3,\"history\":[]}")
        )
        #expect(live.replacingOccurrences(of: ",\"liveLatency\":3.25,\"targetLatency\":3", with: "") == vod)
    }

    @Test("a variant or wait reply is accepted; fractional, string, negative, empty or out-of-range ones are refused")
    func repliesAreParsedStrictly() {
        #expect(ExternalPolicy.parseReply("{\"variant\": 2}", maxVariant: 5) == .success(.variant(2)))
        #expect(ExternalPolicy.parseReply("{\"wait\": 0.5}", maxVariant: 5) == .success(.wait(seconds: 0.5)))
        for bad in ["", "3", "{\"variant\": 2.5}", "{\"variant\": \"2\"}", "{\"wait\": -1}", "{}", "{\"variant\": 6}"] {
            guard case .failure = ExternalPolicy.parseReply(bad, maxVariant: 5) else {
                Issue.record("accepted \(bad)")
                continue
            }
        }
    }
}
