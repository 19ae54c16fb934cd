/// Runs a feed scenario: one player per item on the scenario's shared link (each with a fresh instance of the
/// viewer's ABR policy, or all with one instance and one throughput history under `carryEstimate`, and the viewer's
/// settings; only the first autoplays), a ``FeedSession`` over them, and a
/// ``RunReport`` whose parts are the items (each labelled with its `item`) and whose ``RunReport/feed`` holds the
/// feed's metrics. Called by ``ScenarioRunner``.
enum FeedRun {
    /// The report of `feed` in `scenario` with `seed`. Throws the scenario's errors found while running (a preload
    /// policy naming an item outside the window).
    static func run(
        _ feed: FeedDescription, of scenario: Scenario, seed: UInt64, registry: PolicyRegistry, recordsTimeline: Bool
    ) throws -> RunReport {
        let directory = InputFile.directory(of: scenario.file)
        var configurations: [PlayerConfiguration] = []
        for (index, item) in feed.items.enumerated() {
            var settings = feed.viewer.settings
            settings.autoplay = index == 0 && settings.autoplay
            // With carryEstimate, item 0's policy instance serves every item (one ladder): its estimate carries on.
            let carried = feed.carryEstimate ? configurations.first?.policy : nil
            let policy =
                try carried
                ?? registry.makePolicy(
                    feed.viewer.policy,
                    environment: PolicyEnvironment(
                        seed: seed, playerIndex: index, curve: scenario.network.curve, content: item.content,
                        settings: settings, directory: directory),
                    file: scenario.file, location: feed.viewer.policyLocation)
            configurations.append(
                PlayerConfiguration(
                    id: feed.viewer.id, content: item.content, policy: policy, policyLabel: feed.viewer.policy.label,
                    settings: settings))
        }
        let preload = try PreloadPolicies.make(
            feed.preload, environment: PreloadEnvironment(directory: directory, seed: seed), file: scenario.file,
            location: feed.preloadLocation)
        let simulation = Simulation(
            curve: scenario.network.curve, players: configurations, timeLimit: scenario.durationSeconds,
            allocation: scenario.allocation, priorityWeights: scenario.priorityWeights,
            recordsTimeline: recordsTimeline)
        if feed.carryEstimate {
            // One estimate for the queue: every item's downloads (preloads too) feed the one policy and history.
            let shared = ThroughputHistory()
            for player in simulation.players { player.history = shared }
        }
        let session = FeedSession(
            players: simulation.players, kernel: simulation.kernel, policy: preload, swipe: feed.swipe(seed),
            ids: feed.items.map(\.id), window: feed.recommendationWindow, preloadPriority: feed.preloadPriority,
            file: scenario.file, location: feed.preloadLocation)
        simulation.feed = session
        let result = simulation.run()
        if let error = session.inputError { throw error }
        var report = ScenarioRunner.report(
            result, scenario: scenario.name, trace: scenario.networkLabel, qoe: scenario.qoe,
            curve: scenario.network.curve)
        for index in report.players.indices { report.players[index].item = feed.items[index].id }
        report.feed = FeedSummary(
            parts: report.players, contents: feed.items.map(\.content), playingSince: session.playingSince,
            preloadedSegments: session.preloadedSegments, preload: feed.preload.label, swipe: feed.swipeLabel)
        return report
    }
}
