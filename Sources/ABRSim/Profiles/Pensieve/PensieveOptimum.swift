/// The offline optimum on Pensieve's simulator: the variant sequence that maximises Pensieve's total reward on one
/// cooked trace, knowing the whole trace (`optimal` under `--profile pensieve`). Pensieve's player has no choice
/// of when to play (chunk 0's download is rebuffering, the buffer cap sleeps), so the variants are the only
/// decision, and ``PensieveProfile/simulate(trace:content:policy:chunkCount:)`` replays the plan exactly.
///
/// Dynamic program over chunks with dominance pruning. A state after k chunks is the engine (trace position E on
/// the unwrapped axis, buffer b), the last variant and the reward R so far; every kept state is a real prefix, so
/// the answer is the exact reward of a real plan. Write D = E + b (the trace time at which the buffer runs dry) and
/// W = R + 4.3·D. At one chunk and one last variant, A dominates B when E_A ≤ E_B, D_A ≤ D_B and W_A ≥ W_B. Any
/// continuation then rebuffers no more after A than after B beyond D_B − D_A, which A has paid for, and the
/// relation carries over to the next chunk: a download from an earlier position ends no later; rebuffering r
/// moves D by r and R by −4.3·r (W unchanged); sleeping above the cap moves E towards D − 60 s, which is monotone
/// in D. The one step that is not monotone is the sleep's 500 ms rounding (a state a little earlier can sleep to a
/// little later). ``upperBound(trace:content:chunkCount:)`` certifies the plan against it: the same search
/// without the rounding, where every step is monotone, bounds every plan of the real model from above.
public enum PensieveOptimum {
    /// One kept state.
    struct Node {
        var engine: PensieveEngine
        var reward: Double
        var variant: Int
        var parent: Int
        /// E, trace seconds.
        var position: Double
        /// D = E + buffer, trace seconds.
        var deadline: Double
        /// W = R + 4.3·D.
        var worth: Double

        init(engine: PensieveEngine, reward: Double, variant: Int, parent: Int) {
            self.engine = engine
            self.reward = reward
            self.variant = variant
            self.parent = parent
            position = engine.traceSeconds
            deadline = position + engine.bufferMs / 1000
            worth = reward + PensieveProfile.rebufferPenalty * deadline
        }
    }

    /// The best variants and their total reward for `chunkCount` chunks of `content` over `trace` (Pensieve's
    /// ``PensieveProfile/chunkCount`` unless told, at most the content's segment count).
    public static func solve(trace: PensieveCookedTrace, content: Content, chunkCount: Int = PensieveProfile.chunkCount)
        -> (variants: [Int], reward: Double)
    {
        search(
            trace: trace, content: content, chunkCount: chunkCount,
            sleepQuantumMs: PensieveProfile.sleepQuantumMilliseconds)
    }

    /// An upper bound on the total reward of every plan (every policy) on `trace`: the optimum of Pensieve's model
    /// with the cap's sleep not rounded up. Why it bounds: let the player of a relaxed model sleep any time
    /// between the excess over the cap and Pensieve's rounded sleep. Pensieve's own player is one of its
    /// choices, so the relaxed optimum is at least the real one. Sleeping only the excess is the best choice
    /// (it starts the next download no later, and leaves D and R unchanged), and with that sleep, E after the
    /// sleep is max(E, D − 60 s), monotone in both, so the dominance rule above is exact and the search finds
    /// the relaxed optimum. The plan of ``solve(trace:content:chunkCount:)`` is then within
    /// (bound − its reward) of the real optimum; 0 when the cap never sleeps.
    public static func upperBound(
        trace: PensieveCookedTrace, content: Content, chunkCount: Int = PensieveProfile.chunkCount
    ) -> Double {
        search(trace: trace, content: content, chunkCount: chunkCount, sleepQuantumMs: 0).reward
    }

    /// The search, with the cap's sleep rounded up to `sleepQuantumMs` (0: not rounded).
    static func search(trace: PensieveCookedTrace, content: Content, chunkCount: Int, sleepQuantumMs: Double)
        -> (variants: [Int], reward: Double)
    {
        let bitrates = content.variants.map { $0.bitrateBps / 1000 }
        let top = content.variantCount - 1
        let count = min(chunkCount, content.segmentCount)
        let first = min(PensieveProfile.startVariant, top)
        guard count > 0 else { return ([], 0) }
        var start = PensieveEngine(trace: trace)
        start.sleepQuantumMs = sleepQuantumMs
        var stages: [[Node]] = [[Node(engine: start, reward: 0, variant: first, parent: -1)]]
        stages.reserveCapacity(count + 1)
        for chunk in 0..<count {
            var byVariant = [[Node]](repeating: [], count: top + 1)
            for (parentIndex, node) in stages[chunk].enumerated() {
                for variant in (chunk == 0 ? first...first : 0...top) {
                    var engine = node.engine
                    let step = engine.download(bytes: content.sizeBytes(segment: chunk, variant: variant))
                    let previous = chunk == 0 ? bitrates[first] : bitrates[node.variant]
                    let reward =
                        bitrates[variant] / 1000 - PensieveProfile.rebufferPenalty * step.rebufferMs / 1000
                        - PensieveProfile.smoothnessPenalty * abs(bitrates[variant] - previous) / 1000
                    byVariant[variant].append(
                        Node(engine: engine, reward: node.reward + reward, variant: variant, parent: parentIndex))
                }
            }
            // After the last chunk only the reward counts: keep everything and pick the best below.
            stages.append(chunk + 1 == count ? byVariant.flatMap { $0 } : byVariant.flatMap(undominated))
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
        return (variants, last[best].reward)
    }

    /// The states of `nodes` (one chunk, one last variant) that no other dominates; of equal states the first.
    static func undominated(_ nodes: [Node]) -> [Node] {
        let sorted = nodes.sorted {
            ($0.position, $0.deadline, -$0.worth) < ($1.position, $1.deadline, -$1.worth)
        }
        // Kept states seen so far all have E ≤ the candidate's; `front` holds their (D, W) staircase: D
        // increasing and W increasing, so the best W at D ≤ d is that of the last entry with D ≤ d.
        var front: [(deadline: Double, worth: Double)] = []
        var kept: [Node] = []
        for node in sorted {
            var low = 0
            var high = front.count
            while low < high {
                let middle = (low + high) / 2
                if front[middle].deadline <= node.deadline { low = middle + 1 } else { high = middle }
            }
            if low > 0, front[low - 1].worth >= node.worth { continue }
            kept.append(node)
            // Insert at `low`, then drop the entries after it that it now covers (D ≥ its D, W ≤ its W).
            var end = low
            while end < front.count, front[end].worth <= node.worth { end += 1 }
            front.replaceSubrange(low..<end, with: [(node.deadline, node.worth)])
        }
        return kept
    }
}

extension PensieveProfile {
    /// `optimal` under this profile: ``PensieveOptimum``'s plan for `trace`, replayed. It takes no parameters:
    /// Pensieve's reward is fixed and the search has no grid to tune.
    public static func optimalPolicy(_ spec: PolicySpec, trace: PensieveCookedTrace, content: Content) throws
        -> OptimalPolicy
    {
        if let (name, _) = spec.parameters.first {
            throw InputError(
                .none,
                .unsupported(
                    by: "the pensieve profile", supports: "'optimal' without parameters", found: "'\(name)'",
                    reason: "it maximises Pensieve's reward"))
        }
        let (variants, _) = PensieveOptimum.solve(trace: trace, content: content)
        return OptimalPolicy(
            plan: OptimalPlan(
                variants: variants, qoe: 0, stallSeconds: 0, startupSeconds: 0, endTime: 0, statesKept: 0))
    }
}
