/// One bottleneck link shared by every player's downloads, by weighted processor sharing.
///
/// The link carries the capacity curve c(t) of the scenario's network. At every instant the flows that are
/// transferring (past their first byte, not finished) split c(t) in proportion to their weights: flow i gets
/// wᵢ/Σw of it; an idle player takes nothing, so ON-OFF effects between players appear by themselves.
/// Because every active flow receives the same fraction of the *cumulative* capacity S(t) while the set of
/// flows is unchanged, a completion time is one inverse look-up on the curve; the link recomputes the next
/// completion whenever a flow joins, leaves or changes weight, never by stepping time.
///
/// The simulation asks ``nextCompletionTime`` after each change and schedules one event carrying
/// ``generation``; an event whose generation is stale is ignored.
public final class SharedLink {
    /// One transfer in progress.
    struct Flow {
        var owner: Int
        var remainingBits: Double
        var totalBits: Double
        var weight: Double
    }

    /// Bits below which a flow counts as finished besides the one a completion event was computed for: the
    /// floating-point residue of the shared accounting, a few units in the last place of S(t).
    var completionToleranceBits: Double { max(1e-6, 8 * lastCumulativeBits.ulp) }

    /// The capacity the flows share.
    public let curve: CapacityCurve
    var flows: [Flow] = []
    var totalWeight = 0.0
    var lastUpdate = 0.0
    var lastCumulativeBits = 0.0
    /// The flow whose finish ``nextCompletionTime()`` predicted last.
    var predictedOwner: Int?
    /// Incremented on every change of the flow set; completion events carry it so stale ones are dropped.
    public private(set) var generation: UInt64 = 0

    /// A link over `curve` with no flows, at time 0.
    public init(curve: CapacityCurve) {
        self.curve = curve
        flows.reserveCapacity(8)
    }

    /// The number of flows transferring now.
    public var activeFlowCount: Int { flows.count }

    /// Brings every flow's remaining bits up to time `t` (seconds, not before the last update).
    public func advance(to t: Double) {
        if t <= lastUpdate { return }
        let cumulative = curve.cumulativeBits(at: t)
        let delivered = cumulative - lastCumulativeBits
        lastUpdate = t
        lastCumulativeBits = cumulative
        if flows.isEmpty || delivered <= 0 { return }
        if flows.count == 1 {
            flows[0].remainingBits -= delivered
            return
        }
        let perWeight = delivered / totalWeight
        for i in flows.indices { flows[i].remainingBits -= perWeight * flows[i].weight }
    }

    /// Starts a transfer of `bits` for `owner` at time `t` (its first byte), with the given weight.
    public func startFlow(owner: Int, bits: Double, weight: Double, at t: Double) {
        advance(to: t)
        flows.append(Flow(owner: owner, remainingBits: bits, totalBits: bits, weight: weight))
        totalWeight += weight
        generation &+= 1
    }

    /// Stops `owner`'s transfer at time `t` (abandoned, or the player left), returning the bits it had received.
    @discardableResult public func cancelFlow(owner: Int, at t: Double) -> Double {
        advance(to: t)
        guard let index = flows.firstIndex(where: { $0.owner == owner }) else { return 0 }
        let flow = flows.remove(at: index)
        recomputeTotalWeight()
        generation &+= 1
        return flow.totalBits - max(flow.remainingBits, 0)
    }

    /// Changes `owner`'s weight from time `t` on (a priority change mid-download re-times every completion).
    public func setWeight(owner: Int, weight: Double, at t: Double) {
        advance(to: t)
        guard let index = flows.firstIndex(where: { $0.owner == owner }) else { return }
        flows[index].weight = weight
        recomputeTotalWeight()
        generation &+= 1
    }

    /// Bits `owner` still has to receive, as of the last ``advance(to:)``; `nil` when it has no flow.
    public func remainingBits(owner: Int) -> Double? {
        flows.first(where: { $0.owner == owner }).map { max($0.remainingBits, 0) }
    }

    /// The fraction of the link `owner` receives now (0 when it has no flow).
    public func share(owner: Int) -> Double {
        guard let flow = flows.first(where: { $0.owner == owner }) else { return 0 }
        return flow.weight / totalWeight
    }

    /// When the next flow will finish if nothing changes (`.infinity` if none will: no flows, or no capacity ahead).
    public func nextCompletionTime() -> Double {
        guard !flows.isEmpty else { return .infinity }
        // The flow that finishes first needs the least cumulative capacity: remainingᵢ · Σw / wᵢ.
        var needed = Double.infinity
        for flow in flows {
            let cumulativeNeeded = max(flow.remainingBits, 0) * totalWeight / flow.weight
            if cumulativeNeeded < needed {
                needed = cumulativeNeeded
                predictedOwner = flow.owner
            }
        }
        return curve.time(atCumulativeBits: lastCumulativeBits + needed)
    }

    /// When `owner`'s flow would finish if nothing changes (`.infinity` without a flow).
    public func projectedFinish(owner: Int) -> Double {
        guard let flow = flows.first(where: { $0.owner == owner }) else { return .infinity }
        return curve.time(atCumulativeBits: lastCumulativeBits + max(flow.remainingBits, 0) * totalWeight / flow.weight)
    }

    /// Removes and returns the owners of every flow finished at time `t` (the completion event's time), in the
    /// order the flows started: the flow the event was computed for, and any other within rounding of done.
    public func takeFinished(at t: Double) -> [Int] {
        advance(to: t)
        var finished: [Int] = []
        var index = 0
        let tolerance = completionToleranceBits
        while index < flows.count {
            let flow = flows[index]
            if flow.owner == predictedOwner || flow.remainingBits <= tolerance * flow.weight / totalWeight {
                finished.append(flow.owner)
                flows.remove(at: index)
            } else {
                index += 1
            }
        }
        predictedOwner = nil
        if !finished.isEmpty {
            recomputeTotalWeight()
            generation &+= 1
        }
        return finished
    }

    /// Finishes the single flow due at `t` without allocating (the one-player fast path); returns its owner.
    public func takeFinishedSingle(at t: Double) -> Int? {
        advance(to: t)
        guard flows.count == 1 else { return nil }
        let owner = flows[0].owner
        predictedOwner = nil
        flows.removeAll(keepingCapacity: true)
        totalWeight = 0
        generation &+= 1
        return owner
    }

    private func recomputeTotalWeight() {
        var sum = 0.0
        for flow in flows { sum += flow.weight }
        totalWeight = sum
    }
}
