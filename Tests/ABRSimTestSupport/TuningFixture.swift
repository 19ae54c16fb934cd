import ABRSim

/// The three-priority-level tuning scenario (`Tests/Fixtures/tune/three-levels.json`) and measurements made from it.
package enum TuningFixture {
    package static var threeLevels: String { TestPaths.packageRoot + "/Tests/Fixtures/tune/three-levels.json" }

    /// "Measurements" from a run with weights 1/3/9: one row per downloaded segment at the middle of its transfer
    /// with its throughput, as a device logging each request would report it.
    package static func measurementsText(weights: PriorityWeights) throws -> String {
        var scenario = try ScenarioLoader().load(threeLevels)
        scenario.priorityWeights = weights
        let report = try ScenarioRunner().run(scenario, recordsTimeline: false)
        var text = "t_s,player,throughput_kbps\n"
        var rows: [(Double, String)] = []
        for player in report.players {
            for record in player.segments {
                let middle = (record.firstByteTime + record.doneTime) / 2
                rows.append(
                    (
                        middle,
                        "\(formatCSVNumber(middle)),\(player.id),\(formatCSVNumber(record.throughputBps / 1000))\n"
                    ))
            }
        }
        for row in rows.sorted(by: { $0.0 < $1.0 }) { text += row.1 }
        return text
    }
}
