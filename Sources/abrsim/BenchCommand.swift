import ABRSim

/// `abrsim bench`: times long runs in this (release) build and prints, per policy, simulated segments per second,
/// nanoseconds per event and peak memory; then 1, 16, 64, 256 and 1,000 players sharing the link (CPU time per
/// event); then the standard workload's wall time on 1 and on all cores; for `BENCHMARKS.md`.
///
/// Per-policy workload: one player, an hour of 4 s segments (900) on Pensieve's six-rung ladder, over a one-hour
/// network made of the shipped mahimahi traces (600 s T-Mobile LTE, 600 s Verizon LTE, 1200 s T-Mobile UMTS,
/// 1200 s Verizon EVDO, each looped within its stretch), 60 s forward buffer. Each policy is measured in a child
/// process of its own (this binary, `--child`), so its peak resident memory is its own.
///
/// Standard workload: every trace of Pensieve's test set × {bba, bola, throughput, robust-mpc} under the
/// `pensieve` profile (as `abrsim compare --profile pensieve` computes it, without writing files).
enum BenchCommand {
    static let spec = CommandSpec(
        name: "abrsim bench", summary: "time long runs (build with -c release) and print segments per second",
        options: [
            .option(
                "traces", valueName: "DIR", help: "folder with the shipped mahimahi traces",
                defaultValue: "scenarios/traces"),
            .option(
                "policies", valueName: "LIST",
                help: "comma-separated policies (default: every built-in policy but external and the offline optimal)"),
            .option("seconds", valueName: "S", help: "minimum wall time per measurement", defaultValue: "2"),
            .option(
                "players", valueName: "LIST",
                help: "time N players sharing the link, for each N in the comma-separated list ('none' to skip)",
                defaultValue: "1,16,64,256,1000"),
            .flag("players-timeline", help: "time the players sharing the link with the timeline on as well"),
            .option(
                "workload-traces", valueName: "DIR", help: "the standard workload's traces ('none' to skip it)",
                defaultValue: "scenarios/data/traces/pensieve/test"),
            .option(
                "workload-content", valueName: "DIR", help: "the standard workload's video_size_N folder",
                defaultValue: "scenarios/data/content/pensieve-envivio"),
            .flag("child", help: "internal: measure one policy in this process and print one line per timeline mode"),
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
        let policyList =
            parsed.value("policies")
            ?? PolicyRegistry.builtIn.descriptors.map(\.name).filter { $0 != "external" && $0 != "optimal" }.joined(
                separator: ",")
        if parsed.flag("child") {
            writeStandardOutput(try childMeasurements(policyList, network: network, content: content, minimumSeconds))
            return 0
        }
        var text =
            "one-hour network (\(network.curve.pieceCount) pieces), 900 segments of 4 s, one player"
            + " (per CPU second of each measuring process)\n"
        text += "policy                      timeline  segments/s   events/s   ns/event   runs  peak MB\n"
        for label in try ListArgument.items(policyList, location: "--policies") {
            _ = try PolicySpec.parse(label, source: "--policies")
            let lines = try runChild(
                ["bench", "--child", "--policies", label, "--traces", directory, "--seconds", String(minimumSeconds)])
            for line in lines {
                let fields = line.split(separator: "\t").map(String.init)
                guard fields.count == 6, let peakKB = Double(fields[5]) else {
                    throw InputError(.named("bench"), .invalid("unexpected line from the measuring process: \(line)"))
                }
                text += label.padding(toLength: 28) + fields[0].padding(toLength: 8)
                for (field, width) in zip(fields[1...4], [12, 11, 11, 7]) { text += field.leftPadding(toLength: width) }
                text += fixed(peakKB / 1024, 1).leftPadding(toLength: 9) + "\n"
            }
        }
        let playerList = parsed.value("players") ?? "1,16,64,256,1000"
        if playerList != "none" {
            text += try sharedLinkRows(
                playerList, timelineModes: parsed.flag("players-timeline") ? [false, true] : [false],
                curve: network.curve, content: content, minimumSeconds: minimumSeconds)
        }
        let workloadTraces = parsed.value("workload-traces") ?? "scenarios/data/traces/pensieve/test"
        if workloadTraces != "none" {
            text += try standardWorkload(
                traces: workloadTraces,
                content: parsed.value("workload-content") ?? "scenarios/data/content/pensieve-envivio")
        }
        writeStandardOutput(text)
        return 0
    }

    /// N players of the throughput policy sharing the link, for each N in `list`: per CPU second of this process,
    /// segments and kernel events, and CPU nanoseconds per event (the measure of issue 21's many-players target).
    static func sharedLinkRows(
        _ list: String, timelineModes: [Bool], curve: CapacityCurve, content: Content, minimumSeconds: Double
    ) throws -> String {
        var text = "\nplayers sharing the link (throughput policy; CPU time of this process)\n"
        text += "players  timeline  segments/s   events/s   ns/event   µs/segment   events/run\n"
        for item in try ListArgument.items(list, location: "--players") {
            guard let count = Int(item), count >= 1, count <= 4096 else {
                throw InputError(.option("--players"), .expected("whole numbers in 1…4096", found: "'\(item)'"))
            }
            for recordsTimeline in timelineModes {
                let m = try measure(curve: curve, minimumSeconds: minimumSeconds, recordsTimeline: recordsTimeline) {
                    (0..<count).map { index in
                        var settings = PlayerSettings()
                        settings.preferredForwardBufferDuration = 60
                        return PlayerConfiguration(
                            id: "p\(index)", content: content,
                            policy: ThroughputPolicy(estimator: DualEWMAEstimator.dashjs), policyLabel: "throughput",
                            settings: settings)
                    }
                }
                let segmentsPerSecond = Double(m.segments) / m.cpuSeconds
                text +=
                    String(count).leftPadding(toLength: 7) + (recordsTimeline ? "on" : "off").leftPadding(toLength: 10)
                text += fixed(segmentsPerSecond, 0).leftPadding(toLength: 12)
                text += fixed(Double(m.events) / m.cpuSeconds, 0).leftPadding(toLength: 11)
                text += fixed(m.cpuSeconds / Double(m.events) * 1e9, 1).leftPadding(toLength: 11)
                text += fixed(1e6 / segmentsPerSecond, 3).leftPadding(toLength: 13)
                text += String(m.events / m.runs).leftPadding(toLength: 13) + "\n"
            }
        }
        return text
    }

    /// The `--child` side: measures each policy of `list` with the timeline off and on, and prints one
    /// tab-separated line each: mode, segments/s, events/s, ns/event, runs, peak resident KB of this process.
    static func childMeasurements(
        _ list: String, network: NetworkTimeline, content: Content, _ minimumSeconds: Double
    ) throws -> String {
        var text = ""
        for label in try ListArgument.items(list, location: "--policies") {
            let spec = try PolicySpec.parse(label, source: "--policies")
            for recordsTimeline in [false, true] {
                let m = try measure(
                    curve: network.curve, minimumSeconds: minimumSeconds, recordsTimeline: recordsTimeline
                ) {
                    var settings = PlayerSettings()
                    settings.preferredForwardBufferDuration = 60
                    let policy = try PolicyRegistry.builtIn.makePolicy(
                        spec,
                        environment: PolicyEnvironment(
                            seed: 1, playerIndex: 0, curve: network.curve, content: content, settings: settings))
                    return [
                        PlayerConfiguration(
                            id: "bench", content: content, policy: policy, policyLabel: label, settings: settings)
                    ]
                }
                text +=
                    [
                        recordsTimeline ? "on" : "off", fixed(m.segmentsPerSecond, 0), fixed(m.eventsPerSecond, 0),
                        fixed(m.nanosecondsPerEvent, 1), String(m.runs), String(peakResidentKilobytes()),
                    ].joined(separator: "\t") + "\n"
            }
        }
        return text
    }

    /// The standard workload (every trace in `traces` × {bba, bola, throughput, robust-mpc} under the `pensieve`
    /// profile, reading the traces included, no files written), timed three times on one core and on all cores.
    static func standardWorkload(traces: String, content contentPath: String) throws -> String {
        let files = try PathExpansion.files([traces])
        let content = try PensieveProfile.loadContent(folder: contentPath)
        let policies = try ["bba", "bola", "throughput", "robust-mpc"].map {
            try PolicySpec.parse($0, source: "bench")
        }
        var plan = ComparisonPlan(traces: files, content: content, policies: policies)
        plan.model = .pensieve
        var text =
            "\nstandard workload: \(files.count) traces × {bba, bola, throughput, robust-mpc}, pensieve profile\n"
        text += "jobs   wall s (best of 3)   runs/s\n"
        for jobs in Set([1, availableCores]).sorted() {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = ContinuousClock.now
                _ = try Comparison.run(plan, jobs: jobs)
                best = min(best, secondsElapsed(since: start))
            }
            text += String(jobs).leftPadding(toLength: 4) + fixed(best, 3).leftPadding(toLength: 21)
            text += fixed(Double(files.count * policies.count) / best, 0).leftPadding(toLength: 9) + "\n"
        }
        return text
    }

    /// What repeated whole runs achieved.
    struct Measurement {
        var runs = 0
        var segments = 0
        var events = 0
        var seconds = 0.0
        /// CPU time of this process over the runs (seconds).
        var cpuSeconds = 0.0
        /// Per CPU second of the measuring process: on a shared machine its share of a core, not the wall clock.
        var segmentsPerSecond: Double { Double(segments) / cpuSeconds }
        var eventsPerSecond: Double { Double(events) / cpuSeconds }
        var nanosecondsPerEvent: Double { cpuSeconds / Double(events) * 1e9 }
    }

    /// Repeats whole runs of the players `makePlayers` builds (fresh each run) over `curve` for at least
    /// `minimumSeconds` of wall time.
    static func measure(
        curve: CapacityCurve, minimumSeconds: Double, recordsTimeline: Bool,
        _ makePlayers: () throws -> [PlayerConfiguration]
    ) throws -> Measurement {
        var result = Measurement()
        let start = ContinuousClock.now
        let cpuStart = processCPUSeconds()
        repeat {
            let simulation = Simulation(curve: curve, players: try makePlayers(), recordsTimeline: recordsTimeline)
            let run = simulation.run()
            result.segments += run.segments.reduce(0) { $0 + $1.count }
            result.events += simulation.eventCount
            result.runs += 1
            result.seconds = secondsElapsed(since: start)
            result.cpuSeconds = processCPUSeconds() - cpuStart
        } while result.seconds < minimumSeconds
        return result
    }
}
