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
}

/// The offline optimum of one player's session: the variant sequence that maximises a QoE model given the
/// whole future of the network, an upper bound on what any policy can reach on that trace (DESIGN §2.5).
///
/// Physics: ``SoloPlayerPhysics`` — exactly the ``Player``'s for one player alone on the link that does not
/// wait to minimise stalling (RTT of the curve's piece at each request, OFF periods at the forward-buffer
/// target, real-time drain at the playback rate, start and resume as soon as a segment is in). With
/// `automaticallyWaitsToMinimizeStalling = true` the player may hold back playback on its own; the plan can
/// still be replayed, but the bound is only exact for a non-waiting player. Policies that abandon requests or
/// wait voluntarily are outside the plan space (with a constant RTT a voluntary wait never helps: completion
/// times only grow with request times).
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
        var deadline: Double
        var qoe: Double
        var stall: Double
        var startup: Double
        var variant: Int32
        var parent: Int32
    }

    /// The optimal plan for `content` played from `settings.startSeconds` over `curve`, maximising `scorer`.
    /// Throws when no plan finishes (the network stops delivering).
    public static func solve(
        curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer,
        grid: OptimumGrid = OptimumGrid()
    ) throws -> OptimalPlan {
        let physics = SoloPlayerPhysics(curve: curve, content: content, settings: settings)
        let variantCount = content.variantCount
        let bufferCells = Int((physics.target / grid.bufferStep).rounded(.up)) + 2
        var stages: [[Node]] = []
        stages.reserveCapacity(content.segmentCount + 1)
        stages.append([
            Node(request: physics.start, deadline: -.infinity, qoe: 0, stall: 0, startup: 0, variant: -1, parent: -1)
        ])
        var statesKept = 1
        var cells: [Int: Int] = [:]
        for segment in 0..<content.segmentCount {
            let previous = stages[segment]
            var next: [Node] = []
            cells.removeAll(keepingCapacity: true)
            for (parentIndex, node) in previous.enumerated() {
                let started = node.variant >= 0
                for variant in 0..<variantCount {
                    guard
                        let step = physics.step(
                            segment: segment, variant: variant, request: node.request,
                            deadline: started ? node.deadline : nil)
                    else { continue }
                    let startup = started ? node.startup : step.finish - physics.start
                    let reward =
                        scorer.segmentReward(variant: variant, previous: started ? Int(node.variant) : nil)
                        - scorer.weights.rebufferPenalty * step.stall
                        - (started ? 0 : scorer.weights.startupPenalty * startup)
                    let candidate = Node(
                        request: step.nextRequest, deadline: step.deadline, qoe: node.qoe + reward,
                        stall: node.stall + step.stall, startup: startup, variant: Int32(variant),
                        parent: Int32(parentIndex))
                    let buffer = max(0, (step.deadline - step.nextRequest) * physics.rate)
                    let bufferCell = min(Int(buffer / grid.bufferStep), bufferCells - 1)
                    let timeCell = Int(step.nextRequest / grid.timeStep)
                    let key = (timeCell * bufferCells + bufferCell) * variantCount + variant
                    if let existing = cells[key] {
                        if candidate.qoe > next[existing].qoe { next[existing] = candidate }
                    } else {
                        cells[key] = next.count
                        next.append(candidate)
                    }
                }
            }
            next = prune(next, scorer: scorer)
            guard !next.isEmpty else {
                throw InputError("optimal: the network never delivers segment \(segment), so no plan finishes")
            }
            statesKept += next.count
            stages.append(next)
        }
        let last = stages[content.segmentCount]
        var best = 0
        for index in last.indices where last[index].qoe > last[best].qoe { best = index }
        var variants = [Int](repeating: 0, count: content.segmentCount)
        var index = best
        for segment in stride(from: content.segmentCount, to: 0, by: -1) {
            let node = stages[segment][index]
            variants[segment - 1] = Int(node.variant)
            index = Int(node.parent)
        }
        let final = last[best]
        return OptimalPlan(
            variants: variants, qoe: final.qoe, stallSeconds: final.stall, startupSeconds: final.startup,
            endTime: final.deadline, statesKept: statesKept)
    }

    /// Drops the states that another state dominates. A dominates B when it requests no later (r_A ≤ r_B), runs
    /// dry no later (D_A ≤ D_B) and W_A − λ·|q(v_A) − q(v_B)| ≥ W_B, with W = QoE so far + μ·D and v the last
    /// variant. Proof sketch: A can copy B's future choices; with a non-decreasing first-byte time r + RTT(r)
    /// each of A's downloads ends no later than B's, A's extra stall over B's is exactly the part of the head
    /// start D_B − D_A it uses up (so it costs at most μ·(D_B − D_A)), and only the first switch penalty
    /// differs, by at most λ·|q(v_A) − q(v_B)|. So A ends with at least B's QoE. Kept order: by request time.
    static func prune(_ nodes: [Node], scorer: QoEScorer) -> [Node] {
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
        plan: [Int], curve: CapacityCurve, content: Content, settings: PlayerSettings, scorer: QoEScorer
    ) -> OptimalPlan? {
        let physics = SoloPlayerPhysics(curve: curve, content: content, settings: settings)
        var request = physics.start
        var deadline: Double?
        var stall = 0.0
        var startup = 0.0
        for (segment, variant) in plan.enumerated() {
            guard
                let step = physics.step(segment: segment, variant: variant, request: request, deadline: deadline)
            else { return nil }
            if deadline == nil { startup = step.finish - physics.start }
            stall += step.stall
            deadline = step.deadline
            request = step.nextRequest
        }
        let qoe = scorer.score(variants: plan, stallSeconds: stall, startupSeconds: startup)
        return OptimalPlan(
            variants: plan, qoe: qoe, stallSeconds: stall, startupSeconds: startup, endTime: deadline ?? physics.start,
            statesKept: plan.count)
    }
}
