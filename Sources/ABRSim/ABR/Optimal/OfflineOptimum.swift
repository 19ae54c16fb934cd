/// The discretisation of the offline optimum: states whose buffer and request time fall in the same cell of
/// this grid are merged (the one with the higher QoE so far is kept, with its exact buffer and time).
public struct OptimumGrid: Sendable, Equatable {
    /// Width of a buffer cell, media seconds.
    public var bufferStep: Double
    /// Width of a time cell, seconds.
    public var timeStep: Double

    /// A grid; both steps must be positive. With the default (0.1 s, 0.1 s), halving the cells moves the answer by
    /// less than 1 % (tested); on 48-segment Pensieve-trace sessions 0.4 s → 0.1 s moved it by at most 0.25 %.
    public init(bufferStep: Double = 0.1, timeStep: Double = 0.1) {
        self.bufferStep = bufferStep
        self.timeStep = timeStep
    }

    /// The finest cell `optimal(grid=…)` accepts, seconds: below it the states multiply (memory and time grow as
    /// the inverse square of the cell) while the answer no longer moves.
    public static let finest = 0.02
    /// The coarsest cell `optimal(grid=…)` accepts, seconds: above it merged states lie so far apart that the
    /// search misses plans a finer grid finds (stalls it could have avoided).
    public static let coarsest = 0.5
}

/// The offline optimum's answer: a variant per segment and what playing it does.
public struct OptimalPlan: Sendable, Equatable {
    /// The variant of each segment, in order.
    public var variants: [Int]
    /// The plan's QoE under the scorer it was solved for (exact for this plan, no discretisation in it).
    public var qoe: Double
    /// Seconds stalled after startup.
    public var stallSeconds: Double
    /// Play request to first frame, seconds.
    public var startupSeconds: Double
    /// When playback ends (the last segment has played), seconds.
    public var endTime: Double
    /// States kept over all stages (a measure of the work done).
    public var statesKept: Int
    /// Playback starts when this segment is in (0: as soon as the first one is). Later only for a player that
    /// waits to minimise stalling, whose start the optimum chooses (``OfflineOptimum``).
    public var startSegment = 0
}

/// The offline optimum of one player's session: the variant sequence that maximises a QoE model given the
/// whole future of the network, an upper bound on what any policy can reach on that trace (DESIGN §2.5).
///
/// Physics: ``SoloPlayerPhysics`` — exactly the ``Player``'s for one player alone on the link (RTT of the
/// curve's piece at each request, OFF periods at the forward-buffer target, real-time drain at the playback
/// rate, resume as soon as a segment is in).
///
/// When playback starts: for a player that does not wait to minimise stalling, when the first segment is in.
/// For one that waits (`automaticallyWaitsToMinimizeStalling`, the default), the optimum also chooses the start:
/// at the arrival of any segment, or at the latest when the buffer reaches its target (where the player's
/// predictor says likely and loading stops). A waiting player can move stall time into startup, which the QoE
/// models charge less (startup weight 0 by default), so a plan that starts at the first segment is no bound for
/// it. Its plan is played by ``OptimalPolicy`` in a player that starts where the plan says and resumes as soon
/// as a segment is in (``PlannedStartPredictor``). The choice is exact: resuming later than the first arrival
/// after a stall never pays (each second waited costs the stall weight and saves at most one second of later
/// stall, and a fuller buffer can only delay requests), and with the buffer below its target, starting between
/// two arrivals is no better than starting at the later one when startup costs nothing (the requests do not
/// move; with a startup weight above 0 it can be slightly better, and the answer is then a lower bound).
/// Policies that abandon requests or wait voluntarily are outside the plan space (with a constant RTT a
/// voluntary wait never helps: completion times only grow with request times).
///
/// Dynamic program: stage k holds the states after k downloads, a state being (last variant, time of the next
/// request r, deadline D when the buffer would run dry) with its QoE so far. Time must be in the state because
/// the link varies. Two reductions keep it small:
/// 1. Exact dominance (``prune(_:scorer:)``): a state that requests no later, runs dry no later and has a QoE so
///    far high enough to pay for the buffer it lacks (μ per second) and for the switch (λ·|Δq|) replaces another.
///    More buffer alone is not better: it can force an OFF period that misses good capacity.
/// 2. Grid merging (``OptimumGrid``): per (variant, buffer cell, time cell) only the best QoE so far survives,
///    keeping its exact continuous state. This is the only approximation.
/// Every kept state is thus a real prefix of a plan, and the answer is the exact QoE of a real plan: a lower
/// bound on the true optimum, converging to it as the cells shrink; two merged states differ by less than one
/// step in buffer and in time. Tests show that halving the default grid moves the answer by less than 1 % and
/// that it equals an exhaustive search on small cases. Dominance assumes r + RTT(r) never decreases (true for a
/// constant RTT; where a curve's latency drops between pieces it may discard a state that was slightly better).
/// Measured (debug build, 48 four-second segments, Pensieve ladder, norway traces, 0.1 s grid): 23 k–630 k
/// states, 0.3–7.5 s; release builds are about 15× faster.
/// Cost: O(segments × kept states per stage × variants) look-ups on the curve.
public enum OfflineOptimum {
    /// One kept state.
    struct Node {
        var request: Double
        /// When the buffer runs dry if nothing more arrives; before playback starts, the seconds the buffer holds.
        var deadline: Double
        var qoe: Double
        var stall: Double
        var startup: Double
        var variant: Int32
        var parent: Int32
        /// Whether playback has started.
        var started: Bool
    }

    /// The optimal plan for `content` played from `settings.startSeconds` over `curve`, maximising `scorer`.
    /// Throws when no plan finishes (the network stops delivering).
    public static func solve(
        curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer,
        grid: OptimumGrid = OptimumGrid()
    ) throws -> OptimalPlan {
        let physics = SoloPlayerPhysics(curve: curve, content: content, settings: settings)
        let choosesStart = settings.automaticallyWaitsToMinimizeStalling
        let variantCount = content.variantCount
        let bufferCells = Int((physics.target / grid.bufferStep).rounded(.up)) + 2
        var stages: [[Node]] = []
        stages.reserveCapacity(content.segmentCount + 1)
        stages.append([
            Node(
                request: physics.start, deadline: 0, qoe: 0, stall: 0, startup: 0, variant: -1, parent: -1,
                started: false)
        ])
        var statesKept = 1
        var cells: [Int: Int] = [:]
        var next: [Node] = []
        /// Keeps `candidate` unless its grid cell (variant, buffer cell, time cell, started) holds a better one.
        func keep(_ candidate: Node, buffer seconds: Double) {
            let buffer = max(0, seconds * physics.rate)
            let bufferCell = min(Int(buffer / grid.bufferStep), bufferCells - 1)
            let timeCell = Int(candidate.request / grid.timeStep)
            let key =
                ((timeCell * bufferCells + bufferCell) * variantCount + Int(candidate.variant)) * 2
                + (candidate.started ? 1 : 0)
            if let existing = cells[key] {
                if candidate.qoe > next[existing].qoe { next[existing] = candidate }
            } else {
                cells[key] = next.count
                next.append(candidate)
            }
        }
        for segment in 0..<content.segmentCount {
            let previous = stages[segment]
            next = []
            cells.removeAll(keepingCapacity: true)
            for (parentIndex, node) in previous.enumerated() {
                for variant in 0..<variantCount {
                    let previousVariant = node.variant >= 0 ? Int(node.variant) : nil
                    if node.started {
                        guard
                            let step = physics.step(
                                segment: segment, variant: variant, request: node.request, deadline: node.deadline)
                        else { continue }
                        let reward =
                            scorer.segmentReward(variant: variant, previous: previousVariant)
                            - scorer.weights.rebufferPenalty * step.stall
                        keep(
                            Node(
                                request: step.nextRequest, deadline: step.deadline, qoe: node.qoe + reward,
                                stall: node.stall + step.stall, startup: node.startup, variant: Int32(variant),
                                parent: Int32(parentIndex), started: true), buffer: step.deadline - step.nextRequest)
                        continue
                    }
                    guard
                        let held = physics.stepBeforeStart(
                            segment: segment, variant: variant, request: node.request, heldSeconds: node.deadline)
                    else { continue }
                    let reward = scorer.segmentReward(variant: variant, previous: previousVariant)
                    // Start now, as this segment lands…
                    let startup = held.finish - physics.start
                    let start = physics.startNow(finish: held.finish, heldSeconds: held.heldSeconds)
                    keep(
                        Node(
                            request: start.nextRequest, deadline: start.deadline,
                            qoe: node.qoe + reward - scorer.weights.startupPenalty * startup, stall: 0,
                            startup: startup, variant: Int32(variant), parent: Int32(parentIndex), started: true),
                        buffer: start.deadline - start.nextRequest)
                    // …or, for a waiting player with room below the target and more to load, keep waiting.
                    if choosesStart, held.heldSeconds * physics.rate <= physics.target,
                        segment + 1 < content.segmentCount
                    {
                        keep(
                            Node(
                                request: held.finish, deadline: held.heldSeconds, qoe: node.qoe + reward, stall: 0,
                                startup: 0, variant: Int32(variant), parent: Int32(parentIndex), started: false),
                            buffer: held.heldSeconds)
                    }
                }
            }
            next = prune(next, scorer: scorer)
            guard !next.isEmpty else {
                throw InputError(
                    .none,
                    .within(
                        "optimal",
                        .missingPrerequisite(
                            "every plan", needs: "segment \(segment), which the network never delivers")))
            }
            statesKept += next.count
            stages.append(next)
        }
        let last = stages[content.segmentCount]
        var best = 0
        for index in last.indices where last[index].qoe > last[best].qoe { best = index }
        var variants = [Int](repeating: 0, count: content.segmentCount)
        var startSegment = 0
        var index = best
        for segment in stride(from: content.segmentCount, to: 0, by: -1) {
            let node = stages[segment][index]
            variants[segment - 1] = Int(node.variant)
            if node.started { startSegment = segment - 1 }
            index = Int(node.parent)
        }
        let final = last[best]
        return OptimalPlan(
            variants: variants, qoe: final.qoe, stallSeconds: final.stall, startupSeconds: final.startup,
            endTime: final.deadline, statesKept: statesKept, startSegment: startSegment)
    }

    /// Drops the states that another state dominates. A dominates B when it requests no later (r_A ≤ r_B), runs
    /// dry no later (D_A ≤ D_B) and W_A − λ·|q(v_A) − q(v_B)| ≥ W_B, with W = QoE so far + μ·D and v the last
    /// variant. Proof sketch: A can copy B's future choices; with a non-decreasing first-byte time r + RTT(r)
    /// each of A's downloads ends no later than B's, A's extra stall over B's is exactly the part of the head
    /// start D_B − D_A it uses up (so it costs at most μ·(D_B − D_A)), and only the first switch penalty
    /// differs, by at most λ·|q(v_A) − q(v_B)|. So A ends with at least B's QoE. Kept order: by request time.
    /// States before playback starts are kept as they are (the proof needs a draining buffer).
    static func prune(_ nodes: [Node], scorer: QoEScorer) -> [Node] {
        let waiting = nodes.filter { !$0.started }
        guard waiting.isEmpty else { return waiting + prune(started: nodes.filter(\.started), scorer: scorer) }
        return prune(started: nodes, scorer: scorer)
    }

    /// ``prune(_:scorer:)`` over states that have all started.
    static func prune(started nodes: [Node], scorer: QoEScorer) -> [Node] {
        let mu = scorer.weights.rebufferPenalty
        let lambda = scorer.weights.smoothnessPenalty
        let variantCount = scorer.qualities.count
        var order = Array(nodes.indices)
        order.sort { a, b in
            let x = nodes[a]
            let y = nodes[b]
            if x.request != y.request { return x.request < y.request }
            if x.deadline != y.deadline { return x.deadline < y.deadline }
            let wx = x.qoe + mu * x.deadline
            let wy = y.qoe + mu * y.deadline
            if wx != wy { return wx > wy }
            return a < b
        }
        var kept: [Node] = []
        kept.reserveCapacity(nodes.count)
        // Per last variant, a staircase of the kept states: deadlines ascending with W ascending, so the best W
        // among deadlines ≤ D is the last step at or before D.
        var stairD = [[Double]](repeating: [], count: variantCount)
        var stairW = [[Double]](repeating: [], count: variantCount)
        for index in order {
            let node = nodes[index]
            let v = Int(node.variant)
            let w = node.qoe + mu * node.deadline
            var dominated = false
            var position = 0
            for u in 0..<variantCount {
                let steps = stairD[u]
                var low = 0
                var high = steps.count
                while low < high {
                    let middle = (low + high) / 2
                    if steps[middle] <= node.deadline { low = middle + 1 } else { high = middle }
                }
                if u == v { position = low }
                let margin = lambda * abs(scorer.qualities[u] - scorer.qualities[v])
                if low > 0, stairW[u][low - 1] - margin >= w {
                    dominated = true
                    break
                }
            }
            if dominated { continue }
            kept.append(node)
            // Insert at `position`, removing the steps it dominates (deadline ≥ its own and W ≤ its own).
            var end = position
            while end < stairD[v].count, stairW[v][end] <= w { end += 1 }
            stairD[v].replaceSubrange(position..<end, with: [node.deadline])
            stairW[v].replaceSubrange(position..<end, with: [w])
        }
        return kept
    }

    /// The optimal variant sequence for `qoe` with its published weights and the default grid.
    public static func solve(
        curve: CapacityCurve, content: Content, settings: PlayerSettings, qoe: QoEModel
    ) throws -> [Int] {
        let scorer = QoEScorer(model: qoe, ladderBps: content.variants.map(\.bitrateBps))
        return try solve(curve: curve, content: content, settings: settings, scorer: scorer).variants
    }

    /// What playing `plan` (one variant per segment) does under the same physics, exactly: its QoE, stalls,
    /// startup and end. `nil` if the network never delivers one of its segments. For tests and for checking a
    /// plan found elsewhere.
    public static func evaluate(
        plan: [Int], curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer,
        startSegment: Int = 0
    ) -> OptimalPlan? {
        let physics = SoloPlayerPhysics(curve: curve, content: content, settings: settings)
        var request = physics.start
        var deadline: Double?
        var held = 0.0
        var stall = 0.0
        var startup = 0.0
        for (segment, variant) in plan.enumerated() {
            if let current = deadline {
                guard let step = physics.step(segment: segment, variant: variant, request: request, deadline: current)
                else { return nil }
                stall += step.stall
                deadline = step.deadline
                request = step.nextRequest
                continue
            }
            guard
                let step = physics.stepBeforeStart(
                    segment: segment, variant: variant, request: request, heldSeconds: held)
            else { return nil }
            held = step.heldSeconds
            request = step.finish
            if segment >= startSegment || held * physics.rate > physics.target || segment + 1 == plan.count {
                startup = step.finish - physics.start
                let start = physics.startNow(finish: step.finish, heldSeconds: held)
                deadline = start.deadline
                request = start.nextRequest
            }
        }
        let qoe = scorer.score(variants: plan, stallSeconds: stall, startupSeconds: startup)
        return OptimalPlan(
            variants: plan, qoe: qoe, stallSeconds: stall, startupSeconds: startup, endTime: deadline ?? physics.start,
            statesKept: plan.count, startSegment: min(startSegment, max(plan.count - 1, 0)))
    }
}
