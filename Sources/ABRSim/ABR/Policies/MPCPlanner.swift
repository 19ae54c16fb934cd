/// The look-ahead search of MPC (Yin, Jindal, Sekar, Sinopoli, SIGCOMM 2015) as Pensieve's `test/mpc.py`
/// writes it, made exact and fast.
///
/// A problem: `horizon` positions, variants `0..<choices`, for every position and variant the predicted download
/// seconds, each position's media seconds, the buffer now (seconds) and the last variant. A sequence is scored
/// as mpc.py does, in its operation order: walking the positions, `rebuffer += download − buffer` and
/// `buffer = 0` when the buffer does not cover the download, else `buffer −= download`; then `buffer += media`;
/// bitrates (kbit/s) and |Δbitrate| are summed; score = `Σbitrate/1000 − rebufferPenalty·rebuffer −
/// smoothnessPenalty·Σ|Δ|/1000`. The answer is the first variant of the best sequence, ties going to the
/// sequence last in lexicographic order (mpc.py's `reward >= max_reward` over `itertools.product`).
///
/// ``firstChoice()`` returns exactly what ``bruteForceFirstChoice()`` (every sequence, in lexicographic order)
/// returns, floating-point ties included: it walks the same prefixes with the same operations (a prefix's
/// buffer, rebuffer and sums are the same doubles whichever sequence they belong to), visits children from the
/// highest variant down (so the first sequence found with a score is the lexicographically last, and a later
/// one replaces it only when strictly better), and skips a subtree only when a bound proves every sequence in it
/// scores strictly less than a score already reached. The bound: bitrate minus smoothness over the remaining
/// positions is at most a precomputed best chain from the last variant (a tiny dynamic program, ignoring
/// rebuffering); rebuffering is at least what the smallest download at every remaining position would cause
/// (the buffer recursion is monotone); a relative margin of 10⁻⁹ covers rounding. The search starts from the
/// best constant sequence's score as a threshold. Owned by one ``MPCPolicy``; reuses its storage, no allocation
/// per decision once warm.
final class MPCPlanner {
    // Every stored property has unchecked exclusivity: a planner belongs to one policy of one player, used on one
    // thread, and no access spans a call that could reach the same property; the policy fills these arrays element
    // by element at every decision, where a run-time check per access cost as much as the search.
    /// Positions planned.
    @exclusivity(unchecked) private(set) var horizon = 0
    /// Variants considered, `0..<choices`.
    @exclusivity(unchecked) private(set) var choices = 0
    /// Predicted download seconds, `position * choices + variant`. Filled by the caller after ``reset``.
    @exclusivity(unchecked) var downloadSeconds: [Double] = []
    /// Media seconds each position adds to the buffer. Filled by the caller after ``reset``.
    @exclusivity(unchecked) var segmentSeconds: [Double] = []
    /// Bitrate of each variant, kbit/s (at least `choices` entries, and the last variant's).
    @exclusivity(unchecked) var bitratesKbps: [Double] = []
    /// Buffer when the plan starts, seconds.
    @exclusivity(unchecked) var startBuffer = 0.0
    /// The variant of the previous segment, for the first smoothness term (`nil`: no penalty on the first).
    @exclusivity(unchecked) var lastVariant: Int?
    /// Score lost per second of rebuffering (Pensieve 4.3).
    @exclusivity(unchecked) var rebufferPenalty = 4.3
    /// Weight of |Δbitrate| in Mbit/s (Pensieve 1).
    @exclusivity(unchecked) var smoothnessPenalty = 1.0

    // Bounds and scratch for the search: smallest download per position, best chains, per-depth prefix state.
    @exclusivity(unchecked) private var smallestDownload: [Double] = []
    @exclusivity(unchecked) private var bestChain: [Double] = []  // remaining * choices + last variant, kbit/s
    @exclusivity(unchecked) private var scratch: [Double] = []
    /// What `bestChain` was computed from: it depends only on the bitrates of `0..<choices`, the smoothness
    /// penalty and `choices`, not on the downloads or the buffer, so it is kept from one decision to the next
    /// while they stay the same (`chainLevels`: the remaining-position counts it holds, 0 when none).
    @exclusivity(unchecked) private var chainBitrates: [Double] = []
    @exclusivity(unchecked) private var chainPenalty = 0.0
    @exclusivity(unchecked) private var chainChoices = 0
    @exclusivity(unchecked) private var chainLevels = 0

    /// Sizes the problem; the caller then fills ``downloadSeconds`` and ``segmentSeconds``.
    func reset(horizon: Int, choices: Int) {
        precondition(horizon >= 1 && choices >= 1, "an MPC plan needs a position and a variant")
        self.horizon = horizon
        self.choices = choices
        if downloadSeconds.count != horizon * choices {
            downloadSeconds = [Double](repeating: 0, count: horizon * choices)
        }
        if segmentSeconds.count != horizon { segmentSeconds = [Double](repeating: 0, count: horizon) }
        if smallestDownload.count != horizon { smallestDownload = [Double](repeating: 0, count: horizon) }
        if choices != chainChoices || bestChain.count < (horizon + 1) * choices {
            bestChain = [Double](repeating: 0, count: (horizon + 1) * choices)
            chainLevels = 0
        }
        if scratch.count != 5 * (horizon + 1) { scratch = [Double](repeating: 0, count: 5 * (horizon + 1)) }
    }

    /// The score of bitrate sum `a`, change sum `s` (kbit/s) and rebuffering `r` (s), in mpc.py's order.
    @inline(__always)
    private func score(_ a: Double, _ s: Double, _ r: Double) -> Double {
        LinearQoE.score(
            bitrateSumKbps: a, changeSumKbps: s, stallSeconds: r, rebufferPenalty: rebufferPenalty,
            smoothnessPenalty: smoothnessPenalty)
    }

    /// The first variant of the best sequence, by brute force over every sequence in lexicographic order. The
    /// reference ``firstChoice()`` is tested against; O(choices^horizon).
    func bruteForceFirstChoice() -> Int {
        var sequence = [Int](repeating: 0, count: horizon)
        var bestScore = -Double.infinity
        var chosen = 0
        var any = false
        while true {
            let value = sequenceScore { sequence[$0] }
            if !any || value >= bestScore {
                bestScore = value
                chosen = sequence[0]
                any = true
            }
            var position = horizon - 1
            while position >= 0 && sequence[position] == choices - 1 {
                sequence[position] = 0
                position -= 1
            }
            if position < 0 { return chosen }
            sequence[position] += 1
        }
    }

    /// The first variant of the best sequence: the same answer as ``bruteForceFirstChoice()``, found by a pruned
    /// depth-first search.
    func firstChoice() -> Int {
        prepareBounds()
        let threshold = bestConstantScore()
        return downloadSeconds.withUnsafeBufferPointer { downloads in
            segmentSeconds.withUnsafeBufferPointer { segments in
                bitratesKbps.withUnsafeBufferPointer { bitrates in
                    smallestDownload.withUnsafeBufferPointer { smallest in
                        bestChain.withUnsafeBufferPointer { chain in
                            scratch.withUnsafeMutableBufferPointer { state in
                                var search = MPCSearch(
                                    horizon: horizon, choices: choices, downloads: downloads.baseAddress!,
                                    segments: segments.baseAddress!, bitrates: bitrates.baseAddress!,
                                    smallest: smallest.baseAddress!, chain: chain.baseAddress!,
                                    state: state.baseAddress!, lastVariant: lastVariant ?? -1,
                                    rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty,
                                    threshold: threshold)
                                search.start(buffer: startBuffer)
                                return search.bestFirst
                            }
                        }
                    }
                }
            }
        }
    }

    /// Fills the smallest download per position and the best bitrate-minus-smoothness chains.
    ///
    /// The loops work on local arrays (the planner's are moved out and back, so nothing is copied): each access to
    /// an array held by the class would otherwise pay a run-time exclusivity check, a large part of a decision in
    /// a checked release build.
    private func prepareBounds() {
        let downloads = downloadSeconds
        let bitrates = bitratesKbps
        let penalty = smoothnessPenalty
        var smallestPerPosition = [Double]()
        swap(&smallestPerPosition, &smallestDownload)
        var chain = [Double]()
        swap(&chain, &bestChain)
        defer {
            swap(&smallestPerPosition, &smallestDownload)
            swap(&chain, &bestChain)
        }
        for position in 0..<horizon {
            var smallest = Double.infinity
            for variant in 0..<choices { smallest = min(smallest, downloads[position * choices + variant]) }
            smallestPerPosition[position] = smallest
        }
        // The chains from the last decision still hold when their inputs are the same (bit for bit).
        var chainIsCurrent =
            chainLevels >= horizon && chainChoices == choices
            && chainPenalty.bitPattern == penalty.bitPattern && chainBitrates.count == choices
        if chainIsCurrent {
            for variant in 0..<choices where chainBitrates[variant].bitPattern != bitrates[variant].bitPattern {
                chainIsCurrent = false
                break
            }
        }
        if chainIsCurrent { return }
        chainBitrates = Array(bitrates[0..<choices])
        chainPenalty = penalty
        chainChoices = choices
        chainLevels = horizon
        for last in 0..<choices { chain[last] = 0 }
        for remaining in 1...horizon {
            for last in 0..<choices {
                var top = -Double.infinity
                for variant in 0..<choices {
                    let gain =
                        bitrates[variant] - penalty * abs(bitrates[variant] - bitrates[last])
                        + chain[(remaining - 1) * choices + variant]
                    top = max(top, gain)
                }
                chain[remaining * choices + last] = top
            }
        }
    }

    /// The best score of the sequences that repeat one variant: a score some sequence reaches, so any subtree
    /// proven strictly below it holds no best sequence.
    private func bestConstantScore() -> Double {
        var top = -Double.infinity
        for variant in 0..<choices {
            top = max(top, sequenceScore { _ in variant })
        }
        return top
    }

    /// The score of the sequence with variant `variantAt(position)` at each position, walked in mpc.py's
    /// operation order (the reference both brute force and the search's starting threshold use).
    private func sequenceScore(_ variantAt: (Int) -> Int) -> Double {
        var buffer = startBuffer
        var rebuffer = 0.0
        var a = 0.0
        var s = 0.0
        var last = lastVariant ?? variantAt(0)
        for position in 0..<horizon {
            let variant = variantAt(position)
            let download = downloadSeconds[position * choices + variant]
            if buffer < download {
                rebuffer += download - buffer
                buffer = 0
            } else {
                buffer -= download
            }
            buffer += segmentSeconds[position]
            a += bitratesKbps[variant]
            s += abs(bitratesKbps[variant] - bitratesKbps[last])
            last = variant
        }
        return score(a, s, rebuffer)
    }
}

/// The depth-first search of ``MPCPlanner/firstChoice()`` over raw storage (no bounds or exclusivity checks in the
/// hot loop). `state` holds, per depth, buffer, rebuffer, bitrate sum, change sum and last variant (5 slots each).
private struct MPCSearch {
    let horizon: Int
    let choices: Int
    let downloads: UnsafePointer<Double>
    let segments: UnsafePointer<Double>
    let bitrates: UnsafePointer<Double>
    let smallest: UnsafePointer<Double>
    let chain: UnsafePointer<Double>
    let state: UnsafeMutablePointer<Double>
    /// The previous segment's variant, −1 for none.
    let lastVariant: Int
    let rebufferPenalty: Double
    let smoothnessPenalty: Double
    /// A score some sequence reaches (the best constant sequence's).
    let threshold: Double
    var best = -Double.infinity
    var bestFirst = 0
    var found = false

    init(
        horizon: Int, choices: Int, downloads: UnsafePointer<Double>, segments: UnsafePointer<Double>,
        bitrates: UnsafePointer<Double>, smallest: UnsafePointer<Double>, chain: UnsafePointer<Double>,
        state: UnsafeMutablePointer<Double>, lastVariant: Int, rebufferPenalty: Double, smoothnessPenalty: Double,
        threshold: Double
    ) {
        self.horizon = horizon
        self.choices = choices
        self.downloads = downloads
        self.segments = segments
        self.bitrates = bitrates
        self.smallest = smallest
        self.chain = chain
        self.state = state
        self.lastVariant = lastVariant
        self.rebufferPenalty = rebufferPenalty
        self.smoothnessPenalty = smoothnessPenalty
        self.threshold = threshold
    }

    mutating func start(buffer: Double) {
        state[0] = buffer
        state[1] = 0
        state[2] = 0
        state[3] = 0
        state[4] = Double(lastVariant)
        explore(depth: 0, first: 0)
    }

    /// Rebuffering the positions from `position` on would cause at least, starting with `buffer`.
    @inline(__always)
    func rebufferLowerBound(from position: Int, buffer start: Double) -> Double {
        var buffer = start
        var rebuffer = 0.0
        var p = position
        while p < horizon {
            let download = smallest[p]
            if buffer < download {
                rebuffer += download - buffer
                buffer = 0
            } else {
                buffer -= download
            }
            buffer += segments[p]
            p &+= 1
        }
        return rebuffer
    }

    /// Visits the children of the prefix stored at `depth`, highest variant first. Index arithmetic wraps
    /// (`&+`, `&*`) instead of checking for overflow: every value is below (horizon + 1) × choices, which the
    /// planner's limits keep far from `Int.max`, and this is the hottest loop of the MPC policies.
    mutating func explore(depth: Int, first: Int) {
        let slot = state + 5 &* depth
        let buffer = slot[0]
        let rebuffer = slot[1]
        let a = slot[2]
        let s = slot[3]
        let previous = Int(slot[4])
        let row = downloads + depth &* choices
        let segment = segments[depth]
        let isLeafLevel = depth == horizon &- 1
        let remaining = horizon &- depth &- 1
        var variant = choices &- 1
        while variant >= 0 {
            let download = row[variant]
            var nextBuffer = buffer
            var nextRebuffer = rebuffer
            if nextBuffer < download {
                nextRebuffer += download - nextBuffer
                nextBuffer = 0
            } else {
                nextBuffer -= download
            }
            nextBuffer += segment
            let last = previous < 0 ? variant : previous
            let nextA = a + bitrates[variant]
            let nextS = s + abs(bitrates[variant] - bitrates[last])
            let head = depth == 0 ? variant : first
            if isLeafLevel {
                // mpc.py: (bitrate_sum/1000.) - (REBUF_PENALTY*curr_rebuffer_time) - (smoothness_diffs/1000.)
                let value = LinearQoE.score(
                    bitrateSumKbps: nextA, changeSumKbps: nextS, stallSeconds: nextRebuffer,
                    rebufferPenalty: rebufferPenalty, smoothnessPenalty: smoothnessPenalty)
                if !found || value > best {
                    best = value
                    bestFirst = head
                    found = true
                }
            } else {
                let future = rebufferLowerBound(from: depth &+ 1, buffer: nextBuffer)
                let gain = chain[remaining &* choices &+ variant]
                let penaltyFloor = rebufferPenalty * (nextRebuffer + future)
                let bound = (nextA - smoothnessPenalty * nextS + gain) / 1000 - penaltyFloor
                let margin =
                    1e-9 * (1 + (abs(nextA) + abs(smoothnessPenalty * nextS) + abs(gain)) / 1000 + penaltyFloor)
                let limit = found ? max(best, threshold) : threshold
                if bound + margin > limit {
                    let child = slot + 5
                    child[0] = nextBuffer
                    child[1] = nextRebuffer
                    child[2] = nextA
                    child[3] = nextS
                    child[4] = Double(variant)
                    explore(depth: depth &+ 1, first: head)
                }
            }
            variant &-= 1
        }
    }
}
