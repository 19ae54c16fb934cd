import ABRSimTestSupport
import Testing

@testable import ABRSim

/// Planned progress checks (Player+ProgressSkipping.swift) against every check run as an event: the same records
/// on hand-built links, abandonments at the same instants, and far fewer events.
@Suite("planned progress checks give the records of polling every check")
struct ProgressSkippingTests {
    /// Pensieve's six-rung ladder, 4 s segments.
    static func content(segments: Int = 40) throws -> Content {
        try Content.constantBitrate(
            ladderKbps: [300, 750, 1200, 1850, 2850, 4300], segmentSeconds: 4, segmentCount: segments)
    }

    /// A curve of `rates` (bit/s), each held for `seconds`, looping, with an 80 ms RTT.
    static func curve(_ rates: [Double], seconds: [Double]) throws -> CapacityCurve {
        var starts: [Double] = []
        var time = 0.0
        for length in seconds {
            starts.append(time)
            time += length
        }
        return try CapacityCurve(
            starts: starts, ratesBps: rates, duration: time, latencySeconds: Array(repeating: 0.08, count: rates.count))
    }

    /// The hand-built links: constant, a step down (and back up), and outages.
    static func links() throws -> [(name: String, curve: CapacityCurve)] {
        [
            ("constant 3 Mbit/s", try curve([3_000_000], seconds: [1000])),
            ("5 Mbit/s stepping down to 400 kbit/s", try curve([5_000_000, 400_000], seconds: [30, 30])),
            ("4 Mbit/s with 3 s outages", try curve([4_000_000, 0, 4_000_000], seconds: [17, 3, 10])),
            ("8 Mbit/s stepping down to 150 kbit/s", try curve([8_000_000, 150_000], seconds: [25, 15])),
            // hls.js switches down (and aborts) only when a level above the lowest loads in time: a moderate step.
            ("6 Mbit/s stepping down to 1.2 Mbit/s", try curve([6_000_000, 1_200_000], seconds: [20, 20])),
        ]
    }

    static let policies = ["bola-e", "dynamic", "hlsjs"]

    /// Plays `players` copies of `policy` (forward buffers 12, 60, 20, … s) on `curve` without a timeline, planning
    /// the checks or polling each one; returns the result and the events processed.
    static func run(_ policy: String, on curve: CapacityCurve, players: Int = 1, plans: Bool) throws -> (
        result: SimulationResult, events: Int
    ) {
        let content = try content()
        var configurations: [PlayerConfiguration] = []
        for index in 0..<players {
            var settings = PlayerSettings()
            settings.preferredForwardBufferDuration = [12, 60, 20][index % 3]
            settings.startSeconds = Double(index) * 1.3
            let made = try PolicyRegistry.builtIn.makePolicy(
                try PolicySpec.parse(policy),
                environment: PolicyEnvironment(
                    seed: 1, playerIndex: index, curve: curve, content: content, settings: settings, directory: ""),
                file: "test", location: "policy")
            configurations.append(
                PlayerConfiguration(
                    id: "p\(index)", content: content, policy: made, policyLabel: policy, settings: settings,
                    estimator: DualEWMAEstimator.dashjs))
        }
        let simulation = Simulation(curve: curve, players: configurations, recordsTimeline: false)
        simulation.plansProgressChecks = plans
        let result = simulation.run()
        return (result, simulation.eventCount)
    }

    @Test(
        "bola-e, dynamic and hlsjs abandon at the same instants and write the same records whether checks are planned or polled",
        arguments: policies)
    func plannedChecksMatchPolling(policy: String) throws {
        var abandonments = 0
        for link in try Self.links() {
            for players in [1, 3] {
                let polled = try Self.run(policy, on: link.curve, players: players, plans: false)
                let planned = try Self.run(policy, on: link.curve, players: players, plans: true)
                #expect(planned.result.segments == polled.result.segments, "\(link.name), \(players) players")
                #expect(planned.result.totals == polled.result.totals, "\(link.name), \(players) players")
                #expect(planned.result.endTime == polled.result.endTime)
                abandonments += polled.result.segments.joined().filter(\.abandoned).count
            }
        }
        // The links are built so that each policy abandons somewhere: the comparison covers the deciding checks.
        #expect(abandonments > 0)
    }

    @Test(
        "on shipped 1 ms mahimahi traces bola-e, dynamic and hlsjs write the same records whether checks are planned or polled",
        arguments: policies)
    func plannedChecksMatchPollingOnRealTraces(policy: String) throws {
        for name in ["Verizon-EVDO-driving.down", "TMobile-LTE-short.down"] {
            let trace = try TraceReader.read(path: TestPaths.scenarios + "/traces/" + name, mahimahiBinMs: 1)
            let curve = try trace.curve(atEnd: .loop)
            for players in [1, 2] {
                let polled = try Self.run(policy, on: curve, players: players, plans: false)
                let planned = try Self.run(policy, on: curve, players: players, plans: true)
                #expect(planned.result.segments == polled.result.segments, "\(name), \(players) players")
                #expect(planned.result.totals == polled.result.totals, "\(name), \(players) players")
                #expect(planned.events < polled.events)
            }
        }
    }

    @Test(
        "on a constant link a planned bola-e, dynamic or hlsjs download costs a few events, not one per check",
        arguments: policies)
    func plannedChecksCostFewEvents(policy: String) throws {
        let link = try Self.curve([3_000_000], seconds: [1000])
        let polled = try Self.run(policy, on: link, plans: false)
        let planned = try Self.run(policy, on: link, plans: true)
        let segments = Double(planned.result.segments[0].count)
        #expect(planned.result.segments == polled.result.segments)
        // Polling: one event per 50 or 100 ms of each download (about 1.6 s each here) on top of the rest.
        #expect(Double(polled.events) / segments > 10)
        #expect(Double(planned.events) / segments < 5)
    }
}
