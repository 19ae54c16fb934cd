import Testing

@testable import ABRSim

/// A playlist reload of a stated size crosses the link after its round trip. The physics of LivePhysicsTests (one
/// 1000 kbit/s rung of 2 s segments, a 4 Mbit/s link, the live edge at 40 + t, the player 6 s behind it) with a
/// 50 ms link latency and a 5000-byte playlist: 40 000 bits take 10 ms at 4 Mbit/s.
@Suite("playlist reloads with a size take their round trip and transfer time")
struct LivePlaylistTransferTests {
    func run(refresh: PlaylistRefresh, playlistBytes: Double?, startSeconds: Double = 0) throws -> SimulationResult {
        let curve = try CapacityCurve(starts: [0], ratesBps: [4e6], duration: 1000, latencySeconds: [0.05])
        let stream = LiveStream(
            availabilityStartSeconds: -40, targetDurationSeconds: 2, refresh: refresh, playlistBytes: playlistBytes)
        let content = try Content.constantBitrate(ladderKbps: [1000], segmentSeconds: 2, segmentCount: 60)
            .playedLive(as: stream)
        var settings = PlayerSettings()
        settings.automaticallyWaitsToMinimizeStalling = false
        settings.startSeconds = startSeconds
        var live = LivePlaybackSettings()
        live.configuredTimeOffsetFromLive = 6
        settings.live = live
        let player = PlayerConfiguration(
            id: "live", content: content, policy: FixedPolicy(variant: 0), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
        return Simulation(curve: curve, players: [player], timeLimit: 60).run()
    }

    /// Segments at the edge (requested after being waited for), with their availability 2(k + 1) − 40 s.
    func edge(_ result: SimulationResult) -> [(request: Double, available: Double)] {
        result.segments[0].filter { $0.segment >= 24 }.map { ($0.requestTime, Double($0.segment + 1) * 2 - 40) }
    }

    @Test("2 s reloads from 0.3 s with a 5000-byte playlist request each edge segment at 2k + 0.3 + 0.05 + 0.01 s")
    func aReloadTakesItsRoundTripAndItsBytes() throws {
        // The reload at 2k + 0.3 s (the first at or after availability 2k) is sent then, its first byte comes one
        // 50 ms round trip later and its 40 000 bits take 10 ms: the segment is known, and requested, 60 ms later.
        let sized = edge(try run(refresh: .reload(intervalSeconds: 2), playlistBytes: 5000, startSeconds: 0.3))
        let free = edge(try run(refresh: .reload(intervalSeconds: 2), playlistBytes: nil, startSeconds: 0.3))
        #expect(sized.count >= 10)
        for segment in sized { #expect(abs(segment.request - (segment.available + 0.3 + 0.06)) < 1e-9) }
        for segment in free { #expect(abs(segment.request - (segment.available + 0.3)) < 1e-9) }
    }

    @Test("a blocking reload answered at availability arrives half a round trip and 10 ms later")
    func aBlockingReloadTakesHalfItsRoundTripAndItsBytes() throws {
        // The server holds the request until the unit exists, then answers: 25 ms one way, 10 ms of bits.
        let sized = edge(try run(refresh: .blockingReload, playlistBytes: 5000))
        let free = edge(try run(refresh: .blockingReload, playlistBytes: nil))
        #expect(sized.count >= 10)
        for segment in sized { #expect(abs(segment.request - (segment.available + 0.035)) < 1e-9) }
        for segment in free { #expect(abs(segment.request - segment.available) < 1e-9) }
    }

    @Test("a DASH template has no reload: the playlist size changes nothing")
    func aTemplateIgnoresThePlaylistSize() throws {
        let sized = try run(refresh: .template, playlistBytes: 5000)
        let free = try run(refresh: .template, playlistBytes: nil)
        #expect(sized.segments[0].map(\.requestTime) == free.segments[0].map(\.requestTime))
    }
}
