import Dispatch

/// A scenario run step by step from outside: every player whose policy is `agent` asks the caller for each
/// segment's variant. The run goes on a thread of its own and stops at each such decision until
/// ``answer(_:)`` (the Python package's `abrsim.gym.ABREnv`). One caller thread at a time.
///
/// Rewards are the scenario's linear QoE (``QoESettings/linear``), charged so that an episode's rewards add up to
/// the controlled player's `qoe_lin`: a decision's step earns q(R) − λ·|q(R) − q(R_prev)| for the variant chosen
/// (clamped as the player clamps it), less μ·(seconds stalled since the player's previous decision); the episode's
/// last step also carries the stall after the last decision and the startup term μₛ·startup.
final class ScenarioGym: @unchecked Sendable {
    /// What the caller sees at a decision: the asking player's context.
    struct Pending {
        var player: Int
        var context: ABRContext
    }

    let scenario: Scenario
    private let registry: PolicyRegistry
    private let seed: UInt64?
    private let decisionReady = DispatchSemaphore(value: 0)
    private let answerReady = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var running = false
    private var aborting = false
    private var answerVariant = 0
    /// The decision waiting for an answer, `nil` when the run has ended.
    private(set) var pending: Pending?
    /// The finished run's report, or the error it threw.
    private(set) var outcome: Result<RunReport, any Error>?
    /// Per player: the previous decision's variant and stall total.
    private var previousVariant: [Int: Int] = [:]
    private var stallAtDecision: [Int: Double] = [:]
    private var playerOfInstance: [ObjectIdentifier: Int] = [:]
    private var made = 0

    /// Players (indexes) whose policy is `agent`.
    let agentPlayers: [Int]

    init(scenario: Scenario, registry base: PolicyRegistry, seed: UInt64?) throws {
        self.scenario = scenario
        self.seed = seed
        agentPlayers = scenario.players.indices.filter { scenario.players[$0].policy.name == Self.policyName }
        guard !agentPlayers.isEmpty else {
            throw InputError(
                .named("players"), .missing("a player with the policy '\(Self.policyName)' for the agent to play"))
        }
        registry = base
    }

    /// The policy name that hands a player's decisions to the caller.
    static let policyName = "agent"

    /// The built-in policies plus `agent`, whose instances ask `gym` (set once the gym exists).
    static func registry(gym: @escaping @Sendable () -> ScenarioGym?) -> PolicyRegistry {
        var registry = PolicyRegistry.builtIn
        registry.register(
            PolicyDescriptor(
                name: policyName, summary: "decisions from the caller (abrsim.gym.ABREnv)", parameters: []
            ) { _, environment in
                AgentPolicy(gym: gym, player: environment.playerIndex)
            })
        return registry
    }

    /// Ends any run in progress (its remaining decisions answered with variant 0) and starts a new one; returns
    /// once it waits for its first decision or has ended.
    func restart() {
        stop()
        aborting = false
        outcome = nil
        pending = nil
        previousVariant = [:]
        stallAtDecision = [:]
        running = true
        DispatchQueue.global().async { [self] in
            let result = Result { try ScenarioRunner(registry: registry).run(scenario, seed: seed) }
            outcome = result
            pending = nil
            // After an abort nobody waits for the end; otherwise restart() or answer(_:) does.
            if !aborting { decisionReady.signal() }
            finished.signal()
        }
        decisionReady.wait()
    }

    /// Ends the run in progress, if any.
    func stop() {
        guard running else { return }
        aborting = true
        if pending != nil {
            pending = nil
            answerReady.signal()
        }
        finished.wait()
        running = false
    }

    /// Answers the pending decision with `variant` and waits for the next one or the end. Returns the step's
    /// reward (see the type's documentation).
    func answer(_ variant: Int) -> Double {
        guard let asked = pending else { return 0 }
        let context = asked.context
        let chosen = max(0, min(variant, context.maxVariant))
        let weights = scenario.qoe.linear
        let variants = context.content.variants
        var reward = weights.segmentReward(
            quality: LinearQoE.quality(bitrateBps: variants[chosen].bitrateBps),
            previous: previousVariant[asked.player].map { LinearQoE.quality(bitrateBps: variants[$0].bitrateBps) })
        reward -= weights.cost(stallSeconds: context.stallSeconds - (stallAtDecision[asked.player] ?? 0))
        previousVariant[asked.player] = chosen
        stallAtDecision[asked.player] = context.stallSeconds
        answerVariant = chosen
        pending = nil
        answerReady.signal()
        decisionReady.wait()
        if pending == nil, case .success(let report)? = outcome {
            // The episode's end: the stall after each agent player's last decision, and the startup terms.
            for player in agentPlayers {
                let summary = report.players[player].summary
                reward -= weights.cost(stallSeconds: summary.stallSeconds - (stallAtDecision[player] ?? 0))
                reward -= weights.cost(startupSeconds: summary.startupSeconds ?? 0)
            }
        }
        return reward
    }

    /// Called on the run's thread by an agent player's policy: hands the decision over and waits.
    fileprivate func decide(player: Int, context: ABRContext) -> Int {
        if aborting { return 0 }
        pending = Pending(player: player, context: context)
        decisionReady.signal()
        answerReady.wait()
        return aborting ? 0 : answerVariant
    }
}

/// The `agent` policy: each decision is the caller's, through ``ScenarioGym``.
private final class AgentPolicy: ABRPolicy {
    let gym: @Sendable () -> ScenarioGym?
    let player: Int

    init(gym: @escaping @Sendable () -> ScenarioGym?, player: Int) {
        self.gym = gym
        self.player = player
    }

    func decide(_ context: ABRContext) -> ABRDecision {
        .variant(gym()?.decide(player: player, context: context) ?? 0)
    }
}

/// Holds the gym behind a C handle and lets the registry's `agent` policies find it.
final class ScenarioGymHandle: @unchecked Sendable {
    var gym: ScenarioGym?
    /// The observation's history length (downloads).
    static let historyLength = 8
}

/// Values `abrsim_gym_observe` writes before the per-variant sizes and the history, in this order.
enum ScenarioGymObservation {
    static let scalarCount = 9
    /// Scalars: player, time s, segment index, segments left, buffer s, last variant (−1 none), last bitrate
    /// kbit/s, max variant, stall s; then `variantCount` next-segment sizes (bytes), then ``ScenarioGymHandle/
    /// historyLength`` throughputs (kbit/s) and as many download times (s), oldest first, zero-padded in front.
    static func write(_ pending: ScenarioGym.Pending, to values: UnsafeMutablePointer<Double>, variantCount: Int) {
        let context = pending.context
        let content = context.content
        values[0] = Double(pending.player)
        values[1] = context.time
        values[2] = Double(context.segmentIndex)
        values[3] = Double(content.segmentCount - context.segmentIndex)
        values[4] = context.bufferSeconds
        values[5] = Double(context.lastVariant ?? -1)
        values[6] = context.lastVariant.map { content.variants[$0].bitrateBps / 1000 } ?? 0
        values[7] = Double(context.maxVariant)
        values[8] = context.stallSeconds
        let segment = min(context.segmentIndex, content.segmentCount - 1)
        for variant in 0..<variantCount {
            values[scalarCount + variant] =
                variant < content.variantCount ? content.sizeBytes(segment: segment, variant: variant) : 0
        }
        let length = ScenarioGymHandle.historyLength
        let base = scalarCount + variantCount
        let samples = context.history.samples
        for slot in 0..<length {
            let index = samples.count - length + slot
            let sample = index >= 0 ? samples[index] : nil
            values[base + slot] = sample.map { $0.bits / $0.downloadSeconds / 1000 } ?? 0
            values[base + length + slot] = sample?.totalSeconds ?? 0
        }
    }
}

/// Opens a scenario (file or JSON text, as `abrsim_run`) for stepping: players whose policy is `agent` are the
/// caller's. Stores the handle and the ladder size of the first agent player (`variantCount`).
@_cdecl("abrsim_gym_create")
public func abrsim_gym_create(
    _ path: UnsafePointer<CChar>?, _ json: UnsafePointer<UInt8>?, _ jsonLength: Int,
    _ directory: UnsafePointer<CChar>?, _ label: UnsafePointer<CChar>?, _ seed: Int64,
    _ handle: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ variantCount: UnsafeMutablePointer<Int64>?,
    _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ messageLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    do {
        let box = ScenarioGymHandle()
        let registry = ScenarioGym.registry(gym: { [weak box] in box?.gym })
        let scenario = try CAPIScenario.load(
            path: path, json: json, jsonLength: jsonLength, directory: directory, label: label, registry: registry,
            seed: seed)
        let gym = try ScenarioGym(scenario: scenario, registry: registry, seed: seed < 0 ? nil : UInt64(seed))
        box.gym = gym
        let first = scenario.players[gym.agentPlayers[0]]
        variantCount?.pointee = Int64(first.content.variantCount)
        handle?.pointee = Unmanaged.passRetained(box).toOpaque()
        return CAPIStatus.success
    } catch {
        return CAPIResult.fail(error, message, messageLength)
    }
}

/// Ends the run in progress and releases the handle.
@_cdecl("abrsim_gym_destroy")
public func abrsim_gym_destroy(_ handle: UnsafeMutableRawPointer?) {
    guard let handle else { return }
    let box = Unmanaged<ScenarioGymHandle>.fromOpaque(handle).takeRetainedValue()
    box.gym?.stop()
    box.gym = nil
}

/// Starts a new episode (ending any in progress). Returns 1 when a decision waits (its observation written to
/// `values`, see ``ScenarioGymObservation``), 0 when the run ended without asking.
@_cdecl("abrsim_gym_reset")
public func abrsim_gym_reset(
    _ handle: UnsafeMutableRawPointer, _ values: UnsafeMutablePointer<Double>, _ variantCount: Int64
) -> Int32 {
    let gym = Unmanaged<ScenarioGymHandle>.fromOpaque(handle).takeUnretainedValue().gym!
    gym.restart()
    guard let pending = gym.pending else { return 0 }
    ScenarioGymObservation.write(pending, to: values, variantCount: Int(variantCount))
    return 1
}

/// Answers the waiting decision with `variant` (clamped to the player's allowed range), stores the step's reward,
/// and writes the next decision's observation. Returns 1 when another decision waits, 0 when the episode ended
/// (then `values` is untouched), −1 when no decision was waiting, or ``CAPIStatus`` + 10 when the run failed
/// (its message in `message`).
@_cdecl("abrsim_gym_step")
public func abrsim_gym_step(
    _ handle: UnsafeMutableRawPointer, _ variant: Int64, _ values: UnsafeMutablePointer<Double>,
    _ variantCount: Int64, _ reward: UnsafeMutablePointer<Double>,
    _ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ messageLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    let gym = Unmanaged<ScenarioGymHandle>.fromOpaque(handle).takeUnretainedValue().gym!
    guard gym.pending != nil else { return -1 }
    reward.pointee = gym.answer(Int(clamping: variant))
    if let pending = gym.pending {
        ScenarioGymObservation.write(pending, to: values, variantCount: Int(variantCount))
        return 1
    }
    if case .failure(let error)? = gym.outcome {
        return CAPIResult.fail(error, message, messageLength) + 10
    }
    return 0
}

/// The finished episode's tables (as `abrsim_run` hands them), or status 1 when no episode has finished.
@_cdecl("abrsim_gym_tables")
public func abrsim_gym_tables(
    _ handle: UnsafeMutableRawPointer,
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?
) -> Int32 {
    let gym = Unmanaged<ScenarioGymHandle>.fromOpaque(handle).takeUnretainedValue().gym!
    return CAPIResult.call(out, outLength) {
        guard gym.pending == nil, let outcome = gym.outcome else {
            throw CAPIGymError.episodeRunning
        }
        return CAPIResult.runTables(try outcome.get(), scenario: gym.scenario)
    }
}

/// Misuse of a gym handle (not the user's input).
enum CAPIGymError: Error, CustomStringConvertible {
    case episodeRunning
    var description: String { "the episode has not finished" }
}
