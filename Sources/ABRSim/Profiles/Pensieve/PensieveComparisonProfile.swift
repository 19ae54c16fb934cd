/// The `pensieve` profile of `abrsim compare`: every policy on every cooked trace in Pensieve's chunk-level
/// simulator (``PensieveProfile``), 48 chunks of Pensieve's video, with Pensieve's settings for the parameters a
/// policy leaves out (``PensieveProfile/policySpecDefaults(_:)``). It has its own player, so it takes no
/// scenario's player and no player settings. Called through ``Profile/registry``.
public struct PensieveComparisonProfile: ComparisonProfile {
    /// The profile.
    public init() {}

    public var name: String { "pensieve" }

    /// The profile's note, then the certificate of the optimum's plans on the plan's traces
    /// (``PensieveOptimumCertificate``), from the rewards of `optimal`'s reports.
    public func optimumNote(_ plan: ComparisonPlan, reports: [RunReport], jobs: Int) throws -> String {
        guard let optimal = plan.policies.first(where: \.isOfflineOptimum) else { return "" }
        var rewards: [String: Double] = [:]
        for report in reports where report.players.first?.policy == optimal.label {
            rewards[report.trace] = report.players[0].summary.qoeLinear
        }
        let certificate = try PensieveOptimumCertificate(
            planRewards: rewards, traces: plan.traces, content: plan.content, jobs: jobs)
        return OptimumNote.line("optimal", model: .pensieve) + certificate.line
    }

    public func checkArguments(scenarioGiven: Bool) throws {
        if scenarioGiven {
            throw InputError(
                .option("--scenario"),
                .notApplicable(nil, onlyFor: nil, here: "the pensieve profile", hint: "it has its own player"))
        }
    }

    /// Pensieve's video from a folder of `video_size_N` files (``PensieveProfile/loadContent(folder:)``); all of
    /// its rows are kept whatever `segments` is, as Pensieve's MPC plans from one row ahead.
    public func loadContent(path: String, segments: Int?, location: String) throws -> Content {
        guard InputFile.isDirectory(path) else {
            do { try InputFile.checkReadable(path) } catch var missing as InputError {
                missing.location = location
                throw missing
            }
            throw InputError(
                InputPlace(file: path, position: InputPlace.Position(text: location)),
                .unsupported(by: "the pensieve profile", supports: "a folder of video_size_N files", found: "a file"))
        }
        return try PensieveProfile.loadContent(folder: path)
    }

    /// Every (policy, trace) pair on Pensieve's chunk-level simulator, each policy with Pensieve's defaults for
    /// the parameters the user left out, a fresh instance per trace.
    public func run(_ plan: ComparisonPlan, registry: PolicyRegistry, jobs: Int) throws -> [RunReport] {
        guard plan.content.segmentCount >= PensieveProfile.chunkCount else {
            throw InputError(
                .option("--content"),
                .unsupported(
                    by: "the pensieve profile", supports: "content of at least \(PensieveProfile.chunkCount) chunks",
                    found: "\(plan.content.segmentCount)"))
        }
        let traces = try parallelMap(count: plan.traces.count, jobs: jobs) { index in
            try PensieveProfile.loadTrace(path: plan.traces[index])
        }
        let specs = plan.policies.map(PensieveProfile.policySpecDefaults)
        let pairs = specs.count * traces.count
        return try parallelMap(count: pairs, jobs: jobs) { index in
            let position = index / traces.count
            let trace = traces[index % traces.count]
            let content = plan.content.privateCopy()
            let policy: any ABRPolicy
            if specs[position].name == BuiltInPolicies.optimal.name {
                policy = try PensieveProfile.optimalPolicy(specs[position], trace: trace, content: content)
            } else {
                policy = try registry.makePolicy(
                    specs[position], environment: PolicyEnvironment(seed: plan.seed, playerIndex: 0))
            }
            let run = PensieveProfile.simulate(trace: trace, content: content, policy: policy)
            return Self.report(run, label: plan.policies[position].label, scenario: plan.label, content: plan.content)
        }
    }

    /// A Pensieve run as a ``RunReport``: one segment row per chunk, times from the session clock (each chunk's
    /// delay, then the sleep that brings the buffer under the cap); chunk 0's download counts as rebuffer and
    /// there is no separate startup, as in Pensieve; `qoe_lin` equals Pensieve's total reward.
    static func report(_ run: PensieveRun, label: String, scenario: String, content: Content) -> RunReport {
        var segments: [SegmentRecord] = []
        var totals = PlayerTotals()
        var clock = 0.0
        var buffer = 0.0
        let rtt = PensieveProfile.rttMilliseconds / 1000
        for chunk in run.chunks {
            let delay = chunk.delayMs / 1000
            let bits = chunk.chunkSizeBytes * 8
            let afterDownload = max(buffer - delay, 0) + PensieveProfile.chunkMilliseconds / 1000
            let sleep = max(afterDownload - chunk.bufferSecondsAfter, 0)
            segments.append(
                SegmentRecord(
                    player: 0, segment: chunk.chunk, variant: chunk.variant, bitrateBps: chunk.bitrateKbps * 1000,
                    durationSeconds: PensieveProfile.chunkMilliseconds / 1000, bytes: chunk.chunkSizeBytes,
                    requestTime: clock, firstByteTime: clock, doneTime: clock + delay,
                    throughputBps: delay > rtt ? bits / (delay - rtt) : .infinity, bufferBeforeSeconds: buffer,
                    bufferAfterSeconds: chunk.bufferSecondsAfter, stallSeconds: chunk.rebufferSeconds))
            if chunk.rebufferSeconds > 0 { totals.stallCount += 1 }
            totals.stallSeconds += chunk.rebufferSeconds
            totals.bytes += chunk.chunkSizeBytes
            clock += delay + sleep
            buffer = chunk.bufferSecondsAfter
        }
        totals.playedSeconds = Double(run.chunks.count) * PensieveProfile.chunkMilliseconds / 1000
        totals.finalState = .ended
        totals.endTime = clock + buffer
        let summary = SessionSummary(
            segments: segments, totals: totals, ladderBps: content.variants.map(\.bitrateBps), qoe: QoESettings())
        return RunReport(
            scenario: scenario, trace: run.trace, endTime: clock + buffer,
            players: [
                RunReport.PlayerReport(id: "player", policy: label, segments: segments, timeline: [], summary: summary)
            ])
    }

}
