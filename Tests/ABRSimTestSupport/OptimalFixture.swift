import ABRSim

/// Shared inputs of the offline-optimum tests.
package enum OptimalFixture {
    /// Pensieve's ladder (kbit/s).
    package static let pensieveLadderKbps: [Double] = [300, 750, 1200, 1850, 2850, 4300]

    /// A player that starts and resumes as soon as a segment is in (the optimum's physics).
    package static func settings(target: Double = 60) -> PlayerSettings {
        var settings = PlayerSettings()
        settings.preferredForwardBufferDuration = target
        settings.automaticallyWaitsToMinimizeStalling = false
        return settings
    }

    /// A Pensieve test trace, looping.
    package static func pensieveCurve(_ name: String) throws -> CapacityCurve {
        try TraceReader.read(path: TestPaths.data + "/traces/pensieve/test/" + name).curve(atEnd: .loop)
    }

    /// A short varying link with a per-piece RTT and a one-second outage, looping every 14 s.
    package static func varyingCurve() throws -> CapacityCurve {
        try CapacityCurve(
            starts: [0, 2, 5, 7, 8, 11], ratesBps: [2e6, 0.3e6, 4e6, 0, 1.5e6, 3e6], duration: 14,
            latencySeconds: [0.05, 0.1, 0.02, 0.2, 0.08, 0.05], atEnd: .loop)
    }

    /// Runs one player with `policy` and scores its session with `scorer`.
    package static func simulate(
        curve: CapacityCurve, content: Content, settings: PlayerSettings, policy: any ABRPolicy, scorer: QoEScorer
    ) -> (qoe: Double, variants: [Int], totals: PlayerTotals) {
        let player = PlayerConfiguration(
            id: "p", content: content, policy: policy, policyLabel: "test", settings: settings,
            estimator: LastSampleEstimator())
        let result = Simulation(curve: curve, players: [player]).run()
        let records = result.segments[0].filter { !$0.abandoned }
        let totals = result.totals[0]
        let qoe = scorer.score(
            bitratesBps: records.map(\.bitrateBps), stallSeconds: totals.stallSeconds,
            startupSeconds: totals.startupSeconds ?? 0)
        return (qoe, records.map(\.variant), totals)
    }
}
