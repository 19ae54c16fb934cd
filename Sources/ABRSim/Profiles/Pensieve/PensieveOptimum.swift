/// The offline optimum on Pensieve's simulator: the variant sequence that maximises Pensieve's total reward on one
/// cooked trace, knowing the whole trace (`optimal` under `--profile pensieve`). Pensieve's player has no choice
/// of when to play (chunk 0's download is rebuffering, the buffer cap sleeps), so the variants are the only
/// decision, and ``PensieveProfile/simulate(trace:content:policy:)`` replays the plan exactly.
///
/// Dynamic program over chunks: a state is the environment after k chunks (trace pointer and clock, buffer) with
/// the last variant and the reward so far; chunk 0 is at Pensieve's start variant, as for every policy. States
/// whose session clock falls in the same `gridMilliseconds` cell with the same last variant are merged, the one
/// with the higher reward plus buffer (each buffered second worth the rebuffering penalty) kept with its exact
/// environment. So every kept state is a real prefix and the answer is the exact reward of a real plan: a lower
/// bound on the optimum, not the optimum (the merge is a heuristic; see docs/keep-up-predictor.md for where it
/// falls short).
public enum PensieveOptimum {
    /// One kept state.
    struct Node {
        var engine: PensieveEngine
        var clockMs: Double
        var reward: Double
        var variant: Int
        var parent: Int
    }

    /// What a state is worth when merged with another: its reward plus its buffer at the rebuffering penalty
    /// (the most a buffered second can save later).
    static func value(_ node: Node) -> Double {
        node.reward + PensieveProfile.rebufferPenalty * node.engine.bufferMs / 1000
    }

    /// The best variants for the ``PensieveProfile/chunkCount`` chunks of `content` over `trace`.
    public static func solve(trace: PensieveCookedTrace, content: Content, gridMilliseconds: Double = 100) -> [Int] {
        let bitrates = content.variants.map { $0.bitrateBps / 1000 }
        let top = content.variantCount - 1
        let count = min(PensieveProfile.chunkCount, content.segmentCount)
        let first = min(PensieveProfile.startVariant, top)
        var stages: [[Node]] = [
            [Node(engine: PensieveEngine(trace: trace), clockMs: 0, reward: 0, variant: first, parent: -1)]
        ]
        stages.reserveCapacity(count + 1)
        var cells: [Int: Int] = [:]
        for chunk in 0..<count {
            var next: [Node] = []
            cells.removeAll(keepingCapacity: true)
            for (parentIndex, node) in stages[chunk].enumerated() {
                for variant in (chunk == 0 ? first...first : 0...top) {
                    var engine = node.engine
                    let step = engine.download(bytes: content.sizeBytes(segment: chunk, variant: variant))
                    let previous = chunk == 0 ? bitrates[first] : bitrates[node.variant]
                    let reward =
                        bitrates[variant] / 1000 - PensieveProfile.rebufferPenalty * step.rebufferMs / 1000
                        - PensieveProfile.smoothnessPenalty * abs(bitrates[variant] - previous) / 1000
                    let clock = node.clockMs + step.delayMs + step.sleepMs
                    let candidate = Node(
                        engine: engine, clockMs: clock, reward: node.reward + reward, variant: variant,
                        parent: parentIndex)
                    let key = Int(clock / gridMilliseconds) * (top + 1) + variant
                    if let existing = cells[key] {
                        if value(candidate) > value(next[existing]) { next[existing] = candidate }
                    } else {
                        cells[key] = next.count
                        next.append(candidate)
                    }
                }
            }
            stages.append(next)
        }
        let last = stages[count]
        var best = 0
        for index in last.indices where last[index].reward > last[best].reward { best = index }
        var variants = [Int](repeating: first, count: count)
        var index = best
        for chunk in stride(from: count, to: 0, by: -1) {
            variants[chunk - 1] = stages[chunk][index].variant
            index = stages[chunk][index].parent
        }
        return variants
    }
}

extension PensieveProfile {
    /// `optimal` under this profile: ``PensieveOptimum``'s plan for `trace`, replayed. Its only parameter is
    /// `grid` (the cell, seconds; default 0.1, at most 0.5); Pensieve's reward is fixed, so `qoe` and the weights
    /// are refused.
    public static func optimalPolicy(_ spec: PolicySpec, trace: PensieveCookedTrace, content: Content) throws
        -> OptimalPolicy
    {
        var grid = 0.1
        for (name, value) in spec.parameters {
            guard name == "grid", case .number(let seconds) = value else {
                throw InputError(
                    "policy 'optimal': under the pensieve profile it maximises Pensieve's reward and takes only grid, "
                        + "got '\(name)'")
            }
            guard seconds >= OptimumGrid.finest, seconds <= OptimumGrid.coarsest else {
                throw InputError(
                    "policy 'optimal': grid must be between \(OptimumGrid.finest) and \(OptimumGrid.coarsest) s, got \(seconds)"
                )
            }
            grid = seconds
        }
        let variants = PensieveOptimum.solve(trace: trace, content: content, gridMilliseconds: grid * 1000)
        return OptimalPolicy(
            plan: OptimalPlan(
                variants: variants, qoe: 0, stallSeconds: 0, startupSeconds: 0, endTime: 0, statesKept: 0))
    }
}
