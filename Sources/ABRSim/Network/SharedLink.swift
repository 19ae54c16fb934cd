/// One bottleneck link shared by every player's downloads (DESIGN §2.2).
///
/// The link carries the capacity curve c(t) of the scenario's network. At every instant the flows that are
/// transferring (past their first byte, not finished) split c(t) as the ``BandwidthAllocator`` says — by
/// default weighted processor sharing, flow i getting wᵢ/Σw — and an idle player takes nothing, so ON-OFF
/// effects between players appear by themselves.
///
/// Two exact regimes:
/// - **No caps** (no player rate limit, no loss on the network): every active flow receives a fixed fraction of
///   the *cumulative* capacity S(t) while the set of flows is unchanged, so a completion time is one inverse
///   look-up on the curve, whatever the trace's shape.
/// - **Caps** (a player's rate limit, or the TCP bound MSS·√(3/2)/(RTT·√p) of Mathis et al. where the network
///   has loss p): rates depend on c(t), so the link water-fills each piece of the curve separately and walks
///   piece by piece to the next completion.
///
/// The link recomputes the next completion whenever a flow joins, leaves or changes its demand, never by
/// stepping time. After each change (``flowsChanged``) the simulation cancels the link's completion timer, asks
/// ``nextCompletionTime()`` and schedules the next one.
public final class SharedLink {
    /// One transfer in progress.
    struct Flow {
        var owner: Int
        var remainingBits: Double
        var totalBits: Double
        var demand: FlowDemand
        /// A rate below this (bit/s) counts as delivering nothing (see ``deliversNothing(owner:at:)``).
        var minimumDataRateBps: Double
        /// The end of the last capped piece in which the flow received data (seconds; `-.infinity`: none yet).
        var cappedDataUntil: Double
        /// The last uncapped update in which the flow received data (seconds; `-.infinity`: none yet); its last
        /// bit came where the capacity was last positive before it.
        var uncappedDataUntil = -Double.infinity
        /// The download model's cap on the flow's rate (`nil`: none, or no longer limiting); see
        /// SharedLink+Windows.swift.
        var window: TransferWindow?
        /// When the window's rounds start (the first byte, seconds).
        var windowStart = 0.0
    }

    /// TCP maximum segment size used in the Mathis bound: 1460 bytes.
    public static let maximumSegmentBits = 1460.0 * 8

    /// The Mathis et al. throughput bound MSS·√(3/2)/(RTT·√p) in bit/s.
    ///
    /// Total loss (p = 1) delivers nothing, whatever the RTT: 0. Without loss it caps nothing (`.infinity`). A
    /// partial loss with an RTT of 0 caps nothing either: the bound grows without limit as the RTT shrinks (a lost
    /// packet is resent at once), so `.infinity` is its limit; the same holds where the quotient overflows.
    public static func lossBound(lossRate: Double, rttSeconds: Double) -> Double {
        if lossRate >= 1 { return 0 }
        if lossRate <= 0 || rttSeconds <= 0 { return .infinity }
        return maximumSegmentBits * (1.5).squareRoot() / (rttSeconds * lossRate.squareRoot())
    }

    /// The capacity the flows share.
    public let curve: CapacityCurve
    /// How the capacity is split.
    public let allocator: any BandwidthAllocator
    let curveHasLoss: Bool
    // The link's state below is read and modified at every event; `@exclusivity(unchecked)` drops the run-time
    // exclusivity check of each such access (a thread-local access set: about a tenth of a run's time in a checked
    // release build). Safe: a link belongs to one simulation, which runs on one thread, and no method holds an
    // access to one of these properties across a call that could reach the same property (each is read or
    // modified in place, then released). Debug builds of the tests ran with the checks on before this was added.
    @exclusivity(unchecked) var flows: [Flow] = []
    /// Per flow (parallel to `flows`): tier, share within the tier, fraction of the capacity when uncapped.
    @exclusivity(unchecked) var tiers: [Int] = []
    @exclusivity(unchecked) var shares: [Double] = []
    @exclusivity(unchecked) var fractions: [Double] = []
    @exclusivity(unchecked) var scratchCaps: [Double] = []
    @exclusivity(unchecked) var scratchRates: [Double] = []
    @exclusivity(unchecked) var scratchDemands: [FlowDemand] = []
    /// Each owner's position in `flows` (−1: no flow), so that a query by owner costs O(1), not a search.
    @exclusivity(unchecked) var positions: [Int] = []
    /// Set if an owner ever had two flows at once: queries by owner then search for its first flow.
    var hasSharedOwners = false
    /// Whether some flow may have a window (``dropEndedWindows(at:)`` has nothing to do otherwise).
    @exclusivity(unchecked) var mayHaveWindows = false
    /// Whether some flow's uncapped fraction is 0 (found with the fractions at every change of the flows).
    @exclusivity(unchecked) public internal(set) var hasIdleFraction = false
    /// After the last ``assignFractions()``: the number of flows, the top tier and the sum of its shares (count −1:
    /// not known).
    @exclusivity(unchecked) var fractionTotals = (count: -1, top: 0, total: 0.0)
    /// Which built-in allocator `allocator` is, if any: its tiers and shares are then written without a call.
    let allocatorKind: AllocatorKind
    @exclusivity(unchecked) var lastUpdate = 0.0
    @exclusivity(unchecked) var lastCumulativeBits = 0.0
    /// The curve piece the link's latest look-up at the current instant fell in (−1: none yet), where the next
    /// one (``advance(to:)``, the latency, the capacity) starts looking; and the piece of the predicted completion,
    /// where the completion's ``advance(to:)`` starts. Cursors only: the answers are the same without them.
    @exclusivity(unchecked) var lookupPiece = -1
    @exclusivity(unchecked) var completionPiece = -1
    /// The flow whose finish ``nextCompletionTime()`` predicted last (`nil`: the time was a re-evaluation point).
    @exclusivity(unchecked) var predictedOwner: Int?
    /// Whether the flows changed since the simulation last scheduled the link's next completion (it clears this).
    @exclusivity(unchecked) public internal(set) var flowsChanged = false
    /// Pieces walked at most per look-up in the capped regime before settling for a re-evaluation point.
    static let maximumPiecesPerLookup = 4096
    /// The earliest progress check a player skipped and still owes this link (`.infinity`: none). The link's state
    /// at a later instant depends on every instant it was brought up to, so ``advance(to:)`` past this time first
    /// has ``runPendingChecks`` run the owed checks in order (SharedLink+PendingChecks.swift).
    @exclusivity(unchecked) var pendingCheckTime = Double.infinity
    /// Changes of the flows so far (a plan of progress checks made since the last one still holds).
    @exclusivity(unchecked) var flowChangeCount = 0
    /// Runs every owed progress check before the given time, in time order (set by the simulation).
    var runPendingChecks: ((Double) -> Void)?
    /// The highest rate the curve offers (bit/s), found on first use by a download model's window.
    public lazy var peakRateBps: Double = Self.peakRate(of: curve)

    /// A link over `curve` with no flows at time 0, split by `allocator`.
    public init(curve: CapacityCurve, allocator: any BandwidthAllocator = WeightedAllocator()) {
        self.curve = curve
        self.allocator = allocator
        allocatorKind = AllocatorKind(allocator)
        curveHasLoss = curve.hasLoss
        flows.reserveCapacity(8)
    }

    /// The curve's latency at `t` (seconds; `nil` when the curve has none), read in place: a caller writing
    /// `link.curve.latency(at:)` copies the whole curve value (a retain per array) before asking it.
    @inline(__always)
    public func latency(at t: Double) -> Double? {
        var piece = lookupPiece
        defer { lookupPiece = piece }
        return curve.latency(at: t, after: &piece)
    }

    /// The number of flows transferring now.
    public var activeFlowCount: Int { flows.count }

    /// Whether any flow may be held below its share (then the capped regime applies).
    var isCapped: Bool { curveHasLoss || anyFlowCapped }
    /// Whether a flow has a rate limit or a window, found at every change of the flows (``reassign()``).
    var anyFlowCapped = false

    /// Floating-point residue of the shared accounting below which a flow counts as finished.
    var completionToleranceBits: Double { max(1e-6, 8 * lastCumulativeBits.ulp) }

    // MARK: - Changes

    /// Starts a transfer of `bits` for `owner` at time `t` (its first byte), with its demand. A rate below
    /// `minimumDataRateBps` counts as no data (the request timeout's one byte per timeout); `lastData` is when
    /// the transfer last received data before (a flow moved from another link), `-.infinity` for none.
    public func startFlow(
        owner: Int, bits: Double, demand: FlowDemand, at t: Double, minimumDataRateBps: Double = 0,
        lastData: Double = -.infinity, window: TransferWindow? = nil
    ) {
        advance(to: t)
        notePosition(of: owner, at: flows.count)
        flows.append(
            Flow(
                owner: owner, remainingBits: bits, totalBits: bits, demand: demand,
                minimumDataRateBps: minimumDataRateBps, cappedDataUntil: lastData, window: window, windowStart: t))
        if window != nil { mayHaveWindows = true }
        dropEndedWindows(at: t)
        reassign(appended: true)
    }

    /// Stops `owner`'s transfer at time `t` (abandoned, or the player left), returning the bits it had received.
    @discardableResult public func cancelFlow(owner: Int, at t: Double) -> Double {
        advance(to: t)
        guard let index = position(of: owner) else { return 0 }
        let flow = flows.remove(at: index)
        renumberPositions(from: index, removed: [owner])
        reassign()
        return flow.totalBits - max(flow.remainingBits, 0)
    }

    /// Changes `owner`'s demand from time `t` on (a priority change mid-download re-times every completion).
    public func setDemand(owner: Int, _ demand: FlowDemand, at t: Double) {
        advance(to: t)
        guard let index = position(of: owner) else { return }
        flows[index].demand = demand
        reassign()
    }

    /// Recomputes tiers, shares and uncapped fractions after a change, and invalidates pending completions.
    ///
    /// `appended`: the only change is a flow added at the end. Then, with a built-in allocator and two flows or
    /// more before, only the new flow's tier and share are written, and the top tier's total is the last one plus
    /// the new share — the same sum, in the same order, as adding them all again.
    func reassign(appended: Bool = false) {
        let count = flows.count
        if allocatorKind == .other {
            reassignThroughAllocator()
        } else if appended, count >= 3, fractionTotals.count == count - 1 {
            Self.resize(&tiers, to: count, with: 0)
            Self.resize(&shares, to: count, with: 0)
            Self.resize(&fractions, to: count, with: 0)
            Self.resize(&scratchCaps, to: count, with: .infinity)
            Self.resize(&scratchRates, to: count, with: 0)
            let last = count - 1
            let demand = flows[last].demand
            let hasWindow = flows[last].window != nil
            tiers[last] = allocatorKind == .strict ? demand.priority.rank : 0
            shares[last] = allocatorKind == .equal ? 1 : demand.weight
            anyFlowCapped = anyFlowCapped || hasWindow || demand.rateLimitBps.isFinite
            mayHaveWindows = mayHaveWindows || hasWindow
            assignFractions(appendedShare: shares[last], tier: tiers[last])
        } else {
            // A built-in allocator gives each flow its tier and share from its own demand: written in one pass over
            // buffers resized by the change (one flow more or less), with the same values `assign` writes.
            Self.resize(&tiers, to: count, with: 0)
            Self.resize(&shares, to: count, with: 0)
            Self.resize(&fractions, to: count, with: 0)
            Self.resize(&scratchCaps, to: count, with: .infinity)
            Self.resize(&scratchRates, to: count, with: 0)
            let kind = allocatorKind
            var capped = false
            var windows = false
            flows.withUnsafeBufferPointer { flows in
                tiers.withUnsafeMutableBufferPointer { tiers in
                    shares.withUnsafeMutableBufferPointer { shares in
                        for index in 0..<count {
                            let demand = flows[index].demand
                            let hasWindow = flows[index].window != nil
                            windows = windows || hasWindow
                            capped = capped || hasWindow || demand.rateLimitBps.isFinite
                            if count == 1 {
                                tiers[index] = 0
                                shares[index] = 1
                            } else {
                                tiers[index] = kind == .strict ? demand.priority.rank : 0
                                shares[index] = kind == .equal ? 1 : demand.weight
                            }
                        }
                    }
                }
            }
            anyFlowCapped = capped
            mayHaveWindows = windows
            assignFractions()
        }
        flowsChanged = true
        flowChangeCount &+= 1
    }

    /// The general path of ``reassign()``, for an allocator that is not one of the built-in three.
    private func reassignThroughAllocator() {
        let count = flows.count
        anyFlowCapped = flows.contains { $0.demand.rateLimitBps.isFinite || $0.window != nil }
        mayHaveWindows = flows.contains { $0.window != nil }
        // Refilled in place: after the first few events these buffers have their capacity, so the hot loop does
        // not allocate.
        Self.refill(&tiers, with: 0, count: count)
        Self.refill(&shares, with: 0, count: count)
        Self.refill(&fractions, with: 0, count: count)
        Self.refill(&scratchCaps, with: .infinity, count: count)
        Self.refill(&scratchRates, with: 0, count: count)
        if count == 1 {
            shares[0] = 1
        } else if count > 1 {
            scratchDemands.removeAll(keepingCapacity: true)
            for flow in flows { scratchDemands.append(flow.demand) }
            allocator.assign(scratchDemands, tiers: &tiers, shares: &shares)
        }
        assignFractions()
    }

    /// Uncapped, the lowest tier with a positive share takes everything, split by shares: writes `fractions` (a
    /// single flow takes 1) and ``hasIdleFraction``.
    private func assignFractions() {
        let count = flows.count
        guard count > 1 else {
            if count == 1 { fractions[0] = 1 }
            hasIdleFraction = false
            fractionTotals = (-1, 0, 0)
            return
        }
        var idle = false
        tiers.withUnsafeBufferPointer { tiers in
            shares.withUnsafeBufferPointer { shares in
                fractions.withUnsafeMutableBufferPointer { fractions in
                    var top = Int.max
                    for index in 0..<count where shares[index] > 0 { top = min(top, tiers[index]) }
                    var total = 0.0
                    for index in 0..<count where tiers[index] == top { total += shares[index] }
                    for index in 0..<count {
                        fractions[index] = tiers[index] == top && total > 0 ? shares[index] / total : 0
                        idle = idle || fractions[index] <= 0
                    }
                    fractionTotals = (count, top, total)
                }
            }
        }
        hasIdleFraction = idle
    }

    /// ``assignFractions()`` after a flow of `share` in `tier` was added at the end of flows whose fractions
    /// ``fractionTotals`` describes: the same top tier and total without summing again, and the other flows'
    /// fractions kept when the total did not change.
    private func assignFractions(appendedShare share: Double, tier: Int) {
        let count = flows.count
        let (_, top, before) = fractionTotals
        if share > 0 && tier < top {
            assignFractions()  // a new top tier
            return
        }
        let total = tier == top ? before + share : before
        let last = count - 1
        fractions[last] = tier == top && total > 0 ? share / total : 0
        if total != before {
            fractions.withUnsafeMutableBufferPointer { fractions in
                tiers.withUnsafeBufferPointer { tiers in
                    shares.withUnsafeBufferPointer { shares in
                        for index in 0..<last {
                            fractions[index] = tiers[index] == top && total > 0 ? shares[index] / total : 0
                        }
                    }
                }
            }
            hasIdleFraction = fractions.withUnsafeBufferPointer { $0.contains { $0 <= 0 } }
        } else {
            hasIdleFraction = hasIdleFraction || fractions[last] <= 0
        }
        fractionTotals = (count, top, total)
    }

    /// Makes `array` hold `count` elements, appending `value` or dropping the last ones (its other elements are
    /// overwritten by the caller).
    @inline(__always)
    private static func resize<T>(_ array: inout [T], to count: Int, with value: T) {
        if array.count > count { array.removeLast(array.count - count) }
        while array.count < count { array.append(value) }
    }

    // MARK: - Positions

    /// `owner`'s position in ``flows`` (its first flow), `nil` without one.
    @inline(__always)
    func position(of owner: Int) -> Int? {
        if hasSharedOwners { return flows.firstIndex(where: { $0.owner == owner }) }
        guard owner >= 0, owner < positions.count else { return nil }
        let position = positions[owner]
        return position >= 0 ? position : nil
    }

    /// Records that `owner`'s new flow goes at `position` (the end of ``flows``).
    private func notePosition(of owner: Int, at position: Int) {
        // Owners are player indices; another number (a test's) is looked up by search.
        guard owner >= 0, owner < 1 << 20 else {
            hasSharedOwners = true
            return
        }
        if owner >= positions.count {
            positions.append(contentsOf: repeatElement(-1, count: owner + 1 - positions.count))
        }
        if positions[owner] >= 0 { hasSharedOwners = true }
        positions[owner] = position
    }

    /// After flows were removed from position `start` on: the positions of the `removed` owners are cleared and
    /// those of the flows from `start` on written again.
    func renumberPositions(from start: Int, removed: [Int]) {
        guard !hasSharedOwners else { return }
        for owner in removed { positions[owner] = -1 }
        flows.withUnsafeBufferPointer { flows in
            positions.withUnsafeMutableBufferPointer { positions in
                for index in start..<flows.count { positions[flows[index].owner] = index }
            }
        }
    }

    /// Makes `array` hold `count` copies of `value`, keeping its storage.
    @inline(__always)
    private static func refill<T>(_ array: inout [T], with value: T, count: Int) {
        // The same count as before (every change of a one-player link): overwrite in place.
        if array.count == count {
            array.withUnsafeMutableBufferPointer { $0.update(repeating: value) }
            return
        }
        array.removeAll(keepingCapacity: true)
        for _ in 0..<count { array.append(value) }
    }

    // MARK: - Time

    /// Brings every flow's remaining bits up to time `t` (seconds, not before the last update).
    public func advance(to t: Double) {
        if t <= lastUpdate { return }
        if t > pendingCheckTime, let runPendingChecks {
            runPendingChecks(t)
            if t <= lastUpdate { return }
        }
        var piece = lookupPiece  // through a local: passing the property inout would copy the curve value
        let cumulative = curve.cumulativeBits(at: t, after: &piece)
        lookupPiece = piece
        if flows.isEmpty {
            lastUpdate = t
            lastCumulativeBits = cumulative
            return
        }
        if flows.count == 1 && !isCapped {
            flows[0].remainingBits -= cumulative - lastCumulativeBits
            if cumulative > lastCumulativeBits { flows[0].uncappedDataUntil = t }
        } else if !isCapped {
            let delivered = cumulative - lastCumulativeBits
            for index in flows.indices {
                flows[index].remainingBits -= fractions[index] * delivered
                if delivered > 0 && fractions[index] > 0 { flows[index].uncappedDataUntil = t }
            }
        } else {
            var from = lastUpdate
            let uncappedFrom = cappingEnd
            while from < t {
                if from >= uncappedFrom {
                    deliverUncapped(from: from, to: t, cumulative: cumulative)
                    break
                }
                let to = min(curve.nextChange(after: from), nextWindowChange(after: from), t)
                fillRates(at: from)
                for index in flows.indices {
                    flows[index].remainingBits -= scratchRates[index] * (to - from)
                    if !receivesNothing(index) { flows[index].cappedDataUntil = to }
                }
                from = to
            }
            dropEndedWindows(at: t)
        }
        lastUpdate = t
        lastCumulativeBits = cumulative
    }

    /// Water-fills the capacity of the piece containing `t` into `scratchRates`.
    func fillRates(at t: Double) {
        let lossCap =
            curveHasLoss
            ? Self.lossBound(lossRate: curve.loss(at: t) ?? 0, rttSeconds: curve.latency(at: t) ?? 0) : .infinity
        for index in flows.indices {
            scratchCaps[index] = min(flows[index].demand.rateLimitBps, lossCap, windowCap(index, at: t))
        }
        waterFill(capacity: curve.rate(at: t), tiers: tiers, shares: shares, caps: scratchCaps, rates: &scratchRates)
    }

    /// Whether flow `index` counts as receiving nothing at the rate in `scratchRates` (zero, or below its
    /// minimum data rate).
    @inline(__always)
    func receivesNothing(_ index: Int) -> Bool {
        let rate = scratchRates[index]
        return !(rate > 0 && rate >= flows[index].minimumDataRateBps)
    }

    // MARK: - Queries

    /// When `owner`'s flow last received data, as of the last ``advance(to:)`` (seconds; `-.infinity` if it has
    /// received none on this link, or has no flow). Rates below the flow's minimum data rate do not count.
    public func lastDataTime(owner: Int) -> Double {
        guard let position = position(of: owner) else { return -.infinity }
        let flow = flows[position]
        guard flow.uncappedDataUntil > flow.cappedDataUntil else { return flow.cappedDataUntil }
        return max(flow.cappedDataUntil, lastDelivery(before: flow.uncappedDataUntil))
    }

    /// Bits `owner` still has to receive, as of the last ``advance(to:)``; `nil` when it has no flow.
    public func remainingBits(owner: Int) -> Double? {
        position(of: owner).map { max(flows[$0].remainingBits, 0) }
    }

    /// The fraction of the link's capacity `owner` receives at the last update (0 when it has no flow).
    public func share(owner: Int) -> Double {
        guard let index = position(of: owner) else { return 0 }
        return share(at: index)
    }

    /// The fraction of the link's capacity the flow at `position` of ``flows`` receives at the last update.
    func share(at position: Int) -> Double {
        if !isCapped { return fractions[position] }
        let capacity = curve.rate(at: lastUpdate)
        guard capacity > 0 else { return 0 }
        fillRates(at: lastUpdate)
        return scratchRates[position] / capacity
    }

    /// When the next flow will finish if nothing changes (`.infinity` if none will). In the capped regime the
    /// answer may be a re-evaluation point (no flow finishes there; ``takeFinished(at:)`` returns none).
    public func nextCompletionTime() -> Double {
        predictedOwner = nil
        guard !flows.isEmpty else { return .infinity }
        if !isCapped {
            // The flow that finishes first needs the least cumulative capacity: remainingᵢ / fractionᵢ.
            var needed = Double.infinity
            for (index, flow) in flows.enumerated() where fractions[index] > 0 {
                let cumulativeNeeded = max(flow.remainingBits, 0) / fractions[index]
                if cumulativeNeeded < needed {
                    needed = cumulativeNeeded
                    predictedOwner = flow.owner
                }
            }
            guard needed.isFinite else { return .infinity }
            var piece = completionPiece
            defer { completionPiece = piece }
            return curve.time(atCumulativeBits: lastCumulativeBits + needed, after: &piece)
        }
        // No capacity ahead at all: nothing will ever finish.
        if curve.time(atCumulativeBits: lastCumulativeBits + 1).isInfinite { return .infinity }
        var remaining = flows.map { max($0.remainingBits, 0) }
        var from = lastUpdate
        let uncappedFrom = cappingEnd
        for _ in 0..<Self.maximumPiecesPerLookup {
            if from >= uncappedFrom { return uncappedCompletion(remaining: remaining, from: from) }
            let to = min(curve.nextChange(after: from), nextWindowChange(after: from))
            fillRates(at: from)
            var soonest = Double.infinity
            for index in flows.indices where scratchRates[index] > 0 {
                let finish = from + remaining[index] / scratchRates[index]
                if finish < soonest {
                    soonest = finish
                    predictedOwner = flows[index].owner
                }
            }
            if soonest <= to { return soonest }
            predictedOwner = nil
            if to.isInfinite { return .infinity }
            for index in flows.indices { remaining[index] -= scratchRates[index] * (to - from) }
            from = to
        }
        return from
    }

    /// When `owner`'s flow would finish if nothing changes (`.infinity` without a flow).
    public func projectedFinish(owner: Int) -> Double {
        guard let index = position(of: owner) else { return .infinity }
        if !isCapped {
            guard fractions[index] > 0 else { return .infinity }
            let needed = max(flows[index].remainingBits, 0) / fractions[index]
            return curve.time(atCumulativeBits: lastCumulativeBits + needed)
        }
        if flows[index].window != nil { return projectedWindowedFinish(index) }
        fillRates(at: lastUpdate)
        let rate = scratchRates[index]
        return rate > 0 ? lastUpdate + max(flows[index].remainingBits, 0) / rate : .infinity
    }

    /// Removes and returns the owners of every flow finished at time `t` (the completion event's time), in the
    /// order the flows started: the flow the event was computed for, and any other within rounding of done.
    /// After a re-evaluation point it returns none but still invalidates the event, so the next is scheduled.
    public func takeFinished(at t: Double) -> [Int] {
        if t > lastUpdate { lookupPiece = completionPiece }
        advance(to: t)
        var finished: [Int] = []
        let tolerance = completionToleranceBits
        let capped = isCapped
        let count = flows.count
        // One pass that keeps the unfinished flows in order. A flow's tolerance is scaled by the fraction at its
        // position once the finished flows before it are gone (`kept`), as when they were removed one by one.
        var kept = 0
        var firstMoved = count
        for index in 0..<count {
            let flow = flows[index]
            let scale = capped ? 1 : max(fractions[kept], 1e-300)
            if flow.owner == predictedOwner || flow.remainingBits <= tolerance * scale {
                finished.append(flow.owner)
                firstMoved = min(firstMoved, index)
            } else {
                if kept != index { flows[kept] = flow }
                kept += 1
            }
        }
        if kept < count {
            flows.removeLast(count - kept)
            renumberPositions(from: firstMoved, removed: finished)
        }
        predictedOwner = nil
        reassign()
        return finished
    }

    /// Finishes the single uncapped flow due at `t` without allocating (the one-player fast path).
    public func takeFinishedSingle(at t: Double) -> Int? {
        guard flows.count == 1, !isCapped else { return nil }
        if t > lastUpdate { lookupPiece = completionPiece }
        advance(to: t)
        let owner = flows[0].owner
        predictedOwner = nil
        flows.removeAll(keepingCapacity: true)
        renumberPositions(from: 0, removed: [owner])
        anyFlowCapped = false
        mayHaveWindows = false
        hasIdleFraction = false
        fractionTotals = (-1, 0, 0)
        flowsChanged = true
        flowChangeCount &+= 1
        return owner
    }
}

/// The built-in allocators ``SharedLink`` recognises, whose tiers and shares it writes itself.
enum AllocatorKind: Equatable {
    case weighted, equal, strict, other

    /// The kind of `allocator`.
    init(_ allocator: any BandwidthAllocator) {
        switch allocator {
        case is WeightedAllocator: self = .weighted
        case is EqualAllocator: self = .equal
        case is StrictPriorityAllocator: self = .strict
        default: self = .other
        }
    }
}
