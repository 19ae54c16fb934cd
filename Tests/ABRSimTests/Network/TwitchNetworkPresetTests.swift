import ABRSimTestSupport
import Foundation
import Testing

@testable import ABRSim

/// The MMSys'20 challenge's network profiles as step presets: every step against the shared profile tables
/// (`Tests/Fixtures/reference/live/twitch_profiles`), through the scenario loader, and hand-computed deliveries.
@Suite("the Twitch step presets")
struct TwitchNetworkPresetTests {
    static let folder = TestPaths.reference + "/live/twitch_profiles/"

    /// The network of a one-player scenario whose `network` object is `network`.
    static func network(_ network: String) throws -> NetworkTimeline {
        let json =
            #"{"name": "p", "network": \#(network), "content": {"ladderKbps": [200, 600, 1000], "segmentSeconds": 1, "#
            + #""segments": 3}, "players": [{"id": "main", "policy": "throughput"}]}"#
        return try ScenarioLoader().load(
            json: Array(json.utf8), label: "p.json", directory: TestPaths.packageRoot, defaultName: "p"
        ).network
    }

    @Test(
        "each Twitch preset's curve equals the challenge's profile table step for step, played once with no RTT",
        arguments: [
            ("normal_PROFILE_CASCADE", "twitch-cascade"), ("normal_PROFILE_SPIKE", "twitch-spike"),
            ("fast_PROFILE_CASCADE", "twitch-fast-set-cascade"),
        ])
    func curveEqualsTheChallengeTableStepForStep(file: String, name: String) throws {
        let table = try CSVTable.parse(try InputFile.readAll(Self.folder + file + ".csv"), file: file)
        let preset = try #require(NetworkStepPreset.named(file))
        #expect(preset.name == name)
        #expect(NetworkStepPreset.named(name) == preset)
        // rttMs at the top must not reach the preset: it carries the challenge's latency, 0.
        let curve = try Self.network(#"{"preset": "\#(name)", "atEnd": "end", "rttMs": 40}"#).curve
        let column = { (name: String) in try #require(table.column(name)).map { try #require(Double($0)) } }
        let starts = try column("time_s")
        let kbps = try column("bandwidth_kbps")
        let durations = try column("duration_s")
        let bytesPerSecond = try column("chrome_download_bytes_per_s")
        let latencyMs = try column("latency_ms")
        #expect(curve.starts == starts)
        #expect(curve.ratesBps == kbps.map { $0 * 1024 })
        #expect(curve.ratesBps == bytesPerSecond.map { $0 * 8 })
        #expect(curve.duration == starts.last! + durations.last!)
        #expect(preset.steps.map(\.seconds) == durations)
        for (start, latency) in zip(starts, latencyMs) {
            #expect(curve.latency(at: start) == latency / 1000)
            #expect(curve.loss(at: start) == 0)
        }
        // Played once: nothing after the last step with atEnd "end".
        #expect(curve.rate(at: curve.duration + 1) == 0)
    }

    @Test("the bytes deliverable over Twitch steps are the hand-computed ones, with 1 kbps as 1024 bit/s")
    func bytesDeliverableOverOneStepAreHandComputed() throws {
        // Spike, step 2: 300 "kbps" = 300 × 1024 bit/s for 10 s = 3,072,000 bit = 384,000 bytes.
        let spike = try Self.network(#"{"preset": "twitch-spike"}"#).curve
        #expect(spike.bits(from: 10, to: 20) / 8 == 384_000)
        // Cascade, 25 s to 35 s: 5 s at 1200 × 1024 then 5 s at 800 × 1024 = 10,240,000 bit = 1,280,000 bytes.
        let cascade = try Self.network(#"{"preset": "twitch-cascade"}"#).curve
        #expect(cascade.bits(from: 25, to: 35) / 8 == 1_280_000)
        // Fast jitters, the 0.1 s step at 500 × 1024 bit/s from 5.25 s: 51,200 bit = 6,400 bytes.
        let jitters = try #require(NetworkStepPreset.named("twitch-fast-jitters"))
        #expect(jitters.starts[2] == 5.25)
        let curve = try jitters.trace.curve(atEnd: .end)
        #expect(abs(curve.bits(from: 5.25, to: 5.25 + 0.1) / 8 - 6_400) < 1e-9)
        // The unit: the spike's 300 "kbps" step is 307,200 bit/s, not 300,000.
        #expect(try #require(NetworkStepPreset.named("twitch-spike")).steps[1].downlinkBps == 307_200)
    }

    @Test("the step catalogue holds the ten Twitch profiles with their lengths, aliases and no RTT")
    func catalogueHoldsTheTenProfilesWithTheirLengths() {
        let lengths = Dictionary(
            uniqueKeysWithValues: NetworkStepPreset.catalogue.map { ($0.name, $0.durationSeconds) })
        #expect(
            lengths == [
                "twitch-cascade": 150, "twitch-intra-cascade": 135, "twitch-spike": 30, "twitch-slow-jitters": 30,
                "twitch-fast-jitters": 11.6, "twitch-fast-set-cascade": 90, "twitch-fast-set-intra-cascade": 75,
                "twitch-fast-set-spike": 30, "twitch-fast-set-slow-jitters": 30, "twitch-fast-set-fast-jitters": 11.6,
            ])
        #expect(NetworkStepPreset.catalogue.count == 10)
        for preset in NetworkStepPreset.catalogue {
            #expect(NetworkPreset.named(preset.name) == nil, "\(preset.name) shadows a constant preset")
            #expect(preset.rttSeconds == 0)
            #expect(preset.steps.allSatisfy { $0.downlinkBps > 0 && $0.seconds > 0 })
        }
        #expect(NetworkStepPreset.named("Normal PROFILE_INTRA_CASCADE")?.name == "twitch-intra-cascade")
        #expect(NetworkStepPreset.named("fast_PROFILE_FAST_JITTERS")?.name == "twitch-fast-set-fast-jitters")
        #expect(NetworkStepPreset.named("lte") == nil)
        #expect(NetworkPreset.allNames.contains("twitch-slow-jitters"))
    }

    @Test("a stretch longer than a Twitch profile loops it and keeps its label")
    func aStretchLoopsTheProfileAndKeepsItsLabel() throws {
        let timeline = try Self.network(
            #"{"stretches": [{"preset": "twitch-spike", "seconds": 45}, {"constantKbps": 100, "seconds": 5}]}"#)
        #expect(timeline.labels == ["twitch-spike", "constant"])
        #expect(timeline.curve.rate(at: 35) == 1200 * 1024)  // 35 s is 5 s into the second loop
        #expect(timeline.curve.rate(at: 41) == 300 * 1024)
        #expect(timeline.curve.rate(at: 46) == 100_000)
        #expect(timeline.curve.latency(at: 35) == 0)
    }

    @Test("a step preset stretch with its own rttMs, or an unknown Twitch name, is refused")
    func aStepPresetRejectsItsOwnRtt() {
        #expect(throws: InputError.self) {
            try Self.network(#"{"stretches": [{"preset": "twitch-spike", "seconds": 30, "rttMs": 20}]}"#)
        }
        #expect(throws: InputError.self) { try Self.network(#"{"preset": "twitch-nope"}"#) }
    }
}
