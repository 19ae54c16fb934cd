import Testing

@testable import ABRSim

/// Physics a person can check with pencil and paper: constant 1000 kbit/s, no RTT, ladder 500/2000 kbit/s,
/// 4 s segments, 10 segments, always the 2000 kbit/s variant (8 Mbit per segment = 8 s per download).
@Suite("player physics by pencil and paper")
struct HandPhysicsTests {
    func run(waits: Bool, target: Double = 60, actions: [TimedAction] = []) throws -> (Simulation, SimulationResult) {
        let curve = try CapacityCurve(starts: [0], ratesBps: [1_000_000], duration: 1000)
        let content = try Content.constantBitrate(ladderKbps: [500, 2000], segmentSeconds: 4, segmentCount: 10)
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = target
        settings.automaticallyWaitsToMinimizeStalling = waits
        settings.actions = actions
        let player = PlayerConfiguration(
            id: "main", content: content, policy: FixedPolicy(variant: 1), policyLabel: "fixed", settings: settings,
            estimator: LastSampleEstimator())
        let simulation = Simulation(curve: curve, players: [player])
        return (simulation, simulation.run())
    }

    @Test(
        "a player that does not wait, on a link at half the bitrate, starts at 8 s and stalls 4 s before each later one"
    )
    func notWaitingStallsBetweenEverySegment() throws {
        let (_, result) = try run(waits: false)
        let totals = result.totals[0]
        // First segment arrives at 8 s and plays at once; each later one arrives 4 s after the buffer empties.
        #expect(totals.startupSeconds == 8)
        #expect(totals.stallCount == 9)
        #expect(totals.stallSeconds == 36)
        #expect(totals.endTime == 84)
        #expect(totals.playedSeconds == 40)
        #expect(totals.finalState == .ended)
        #expect(result.segments[0].map(\.doneTime) == [8, 16, 24, 32, 40, 48, 56, 64, 72, 80])
        #expect(result.segments[0].dropFirst().allSatisfy { $0.stallSeconds == 4 })
    }

    @Test("a player that waits to minimise stalls starts at 44 s, when playing through holds, and never stalls")
    func waitingToMinimizeStallsStartsWhenPlayThroughHolds() throws {
        let (_, result) = try run(waits: true)
        let totals = result.totals[0]
        // The last segment arrives at 80 s and starts 36 s of media after the first frame: start at 80 − 36 = 44 s.
        #expect(abs(totals.startupSeconds! - 44) < 1e-9)
        #expect(totals.stallCount == 0)
        #expect(totals.stallSeconds == 0)
        #expect(abs(totals.endTime! - 84) < 1e-9)
    }

    @Test("the timeline starts loading while evaluating the buffering rate, records nine stalls and ends at 84 s")
    func timelineRecordsStartupStallsAndEnd() throws {
        let (_, result) = try run(waits: false)
        let rows = result.timeline[0]
        #expect(rows.first?.state == .loading)
        #expect(rows.first?.waitingReason == .evaluatingBufferingRate)
        #expect(rows.filter { $0.state == .buffering }.count == 9)
        #expect(rows.last?.state == .ended)
        #expect(rows.last?.time == 84)
    }
}
