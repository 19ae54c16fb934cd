import ABRSim

/// `abrsim bench`: times long runs in this (release) build and prints simulated segments per second and
/// nanoseconds per event, for `BENCHMARKS.md`.
///
/// Workload: one player, an hour of 4 s segments (900) on Pensieve's six-rung ladder, over a one-hour network
/// made of the shipped mahimahi traces (600 s T-Mobile LTE, 600 s Verizon LTE, 1200 s T-Mobile UMTS,
/// 1200 s Verizon EVDO, each looped within its stretch), 60 s forward buffer.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "abrsim bench", summary: "time long runs (build with -c release) and print segments per second",
        options: [
            .option(
                "traces", valueName: "DIR", help: "folder with the shipped mahimahi traces",
                defaultValue: "scenarios/traces"),
            .option(
                "policies", valueName: "LIST", help: "comma-separated policies",
                defaultValue: "throughput,fixed(variant=3)"),
            .option("seconds", valueName: "S", help: "minimum wall time per measurement", defaultValue: "2"),
            .option(
                "players", valueName: "LIST",
                help: "also time N players sharing the link, for each N in the comma-separated list (e.g. 1,4,16,64)"),
        ])

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        let directory = parsed.value("traces") ?? "scenarios/traces"
        let minimumSeconds = try parsed.double("seconds") ?? 2
        let names = [
            ("TMobile-LTE-short.down", 600.0), ("Verizon-LTE-short.down", 600), ("TMobile-UMTS-driving.down", 1200),
            ("Verizon-EVDO-driving.down", 1200),
        ]
        var stretches: [NetworkStretch] = []
        for (name, seconds) in names {
            let trace = try TraceReader.read(path: InputFile.resolve(name, against: directory), format: .mahimahi)
            stretches.append(.trace(trace, seconds: seconds, rttSeconds: nil))
        }
        let network = try NetworkTimeline.build(stretches, defaultRttSeconds: 0.08, atEnd: .loop)
        let content = try Content.constantBitrate(
            ladderKbps: [300, 750, 1200, 1850, 2850, 4300], segmentSeconds: 4, segmentCount: 900)
        let policyList = (parsed.value("policies") ?? "throughput,fixed(variant=3)")
        var text = "one-hour network (\(network.curve.pieceCount) pieces), 900 segments of 4 s, one player\n"
        text += "policy                      timeline  segments/s   events/s   ns/event   runs\n"
        for label in splitPolicyList(policyList) {
            let spec = try PolicySpec.parse(label, source: "--policies")
            for recordsTimeline in [false, true] {
                let m = try measure(
                    curve: network.curve, minimumSeconds: minimumSeconds, recordsTimeline: recordsTimeline
                ) {
                    var settings = PlayerSettings()
                    settings.preferredForwardBufferDuration = 60
                    let policy = try PolicyRegistry.builtIn.makePolicy(
                        spec, environment: PolicyEnvironment(seed: 1, playerIndex: 0))
                    return [
                        PlayerConfiguration(
                            id: "bench", content: content, policy: policy, policyLabel: label, settings: settings,
                            estimator: DualEWMAEstimator.hlsjs)
                    ]
                }
                text += label.padding(toLength: 28) + (recordsTimeline ? "on " : "off").padding(toLength: 8)
                text += fixed(m.segmentsPerSecond, 0).leftPadding(toLength: 12)
                text += fixed(m.eventsPerSecond, 0).leftPadding(toLength: 11)
                text += fixed(m.nanosecondsPerEvent, 1).leftPadding(toLength: 11)
                text += String(m.runs).leftPadding(toLength: 7) + "\n"
            }
        }
        if let list = parsed.value("players") {
            text += "\nplayers sharing the link (throughput policy, timeline off)\n"
            text += "players   segments/s   events/s   ns/event   µs/segment/player\n"
            for item in list.split(separator: ",") {
                guard let count = Int(item), count >= 1 else {
                    throw InputError(location: "--players", "expected whole numbers ≥ 1, got '\(item)'")
                }
                let m = try measure(curve: network.curve, minimumSeconds: minimumSeconds, recordsTimeline: false) {
                    (0..<count).map { index in
                        var settings = PlayerSettings()
                        settings.preferredForwardBufferDuration = 60
                        return PlayerConfiguration(
                            id: "p\(index)", content: content,
                            policy: ThroughputPolicy(estimator: DualEWMAEstimator.dashjs), policyLabel: "throughput",
                            settings: settings, estimator: DualEWMAEstimator.hlsjs)
                    }
                }
                text += String(count).leftPadding(toLength: 7)
                text += fixed(m.segmentsPerSecond, 0).leftPadding(toLength: 13)
                text += fixed(m.eventsPerSecond, 0).leftPadding(toLength: 11)
                text += fixed(m.nanosecondsPerEvent, 1).leftPadding(toLength: 11)
                text += fixed(1e6 / m.segmentsPerSecond, 3).leftPadding(toLength: 20) + "\n"
            }
        }
        writeStandardOutput(text)
        return 0
    }

    /// What repeated whole runs achieved.
    struct Measurement {
        var runs = 0
        var segments = 0
        var events = 0
        var seconds = 0.0
        var segmentsPerSecond: Double { Double(segments) / seconds }
        var eventsPerSecond: Double { Double(events) / seconds }
        var nanosecondsPerEvent: Double { seconds / Double(events) * 1e9 }
    }

    /// Repeats whole runs of the players `makePlayers` builds (fresh each run) over `curve` for at least
    /// `minimumSeconds` of wall time.
    static func measure(
        curve: CapacityCurve, minimumSeconds: Double, recordsTimeline: Bool,
        _ makePlayers: () throws -> [PlayerConfiguration]
    ) throws -> Measurement {
        var result = Measurement()
        let clock = ContinuousClock()
        let start = clock.now
        repeat {
            let simulation = Simulation(curve: curve, players: try makePlayers(), recordsTimeline: recordsTimeline)
            let run = simulation.run()
            result.segments += run.segments.reduce(0) { $0 + $1.count }
            result.events += simulation.eventCount
            result.runs += 1
            let duration = clock.now - start
            result.seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        } while result.seconds < minimumSeconds
        return result
    }
}
