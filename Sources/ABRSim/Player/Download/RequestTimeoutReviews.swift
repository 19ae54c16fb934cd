/// The request-timeout reviews of a run: after each change of a link's flows, the review of every request
/// flowing on it (O(1) each), or none when every flow receives and none can go a timeout without data before the
/// link's next change. Built by ``Simulation``; called by it after each change of a link's flows.
///
/// Skipping is exact: a review of a flow with a positive share at a positive capacity only records that data
/// flows (which the next review rebuilds from ``allFlowsReceivingAt``) and arms its timeout where a zero-capacity
/// stretch first lasts the timeout before the link's next change. So every review is skipped when no stretch of
/// the shortest timeout's length fits before that change (the link is about to change again, or the curve has no
/// such stretch there) and no player on the link has a timeout armed that a review would have to disarm. At zero
/// capacity a review also arms the timeout of a flow whose stretch without data reaches the timeout within the
/// zero stretch it is in; none can when the earliest `idleSince` of the link's requests (``idleFloor``, a lower
/// bound kept as the stretches only start later) plus the shortest timeout is past that stretch's end or the
/// next change, and nothing is recorded then that the next review would not record the same.
final class RequestTimeoutReviews {
    /// Per link, the last change of its flows at which the review found every flow receiving and none able to time
    /// out before the next change, so it skipped the players' own reviews; they start from here (`-.infinity`:
    /// never).
    var allFlowsReceivingAt: [Double]
    /// The shortest request timeout of the players (seconds).
    var minimumTimeout = Double.infinity
    /// Per link, the players on it with a timeout event armed (``Player/setArmedTimeout(_:)`` keeps it).
    var armedTimeouts: [Int]
    /// Per link, the zero-capacity stretches lasting ``minimumTimeout`` (built on first need).
    private var longStretches: [ZeroCapacityIndex?]
    /// Per link, at most the earliest `idleSince` of the requests of its players (`-.infinity`: not known yet).
    /// A request's stretch without data only ever starts later, and a new request's starts at its sending, so the
    /// bound stays valid; it is raised by a scan of the link's players only when it is too low to skip a pass.
    var idleFloor: [Double]
    /// Whether a pass is skipped when the next change is a timeout or more away but no long stretch fits before it,
    /// or at zero capacity (`false`: only at a positive capacity with the next change nearer than a timeout; tests
    /// compare the two).
    var skipsWhereNoLongStretchFits = true
    /// Passes skipped so far with the next change a timeout or more away, and at zero capacity (what tests read).
    private(set) var skippedFarPasses = 0
    private(set) var skippedZeroCapacityPasses = 0

    /// Reviews for `linkCount` links.
    init(linkCount: Int) {
        allFlowsReceivingAt = Array(repeating: -.infinity, count: linkCount)
        armedTimeouts = Array(repeating: 0, count: linkCount)
        longStretches = Array(repeating: nil, count: linkCount)
        idleFloor = Array(repeating: -.infinity, count: linkCount)
    }

    /// Lowers link `linkIndex`'s ``idleFloor`` to `idleSince` when that is below it (called wherever a request's
    /// stretch without data is set but at its sending, which is never before the floor, and when a player moves
    /// to the link).
    func lowerIdleFloor(link linkIndex: Int, to idleSince: Double) {
        if idleSince < idleFloor[linkIndex] { idleFloor[linkIndex] = idleSince }
    }

    /// Whether no request on link `linkIndex` can reach `timeout` without data by `limit`: its ``idleFloor``, raised
    /// first to the earliest `idleSince` of the requests of `players` on the link (or `now`) if it is too low.
    func noIdleStretchReaches(_ limit: Double, link linkIndex: Int, players: [Player], now: Double) -> Bool {
        if idleFloor[linkIndex] + minimumTimeout > limit { return true }
        var floor = now
        for player in players where player.linkIndex == linkIndex && player.download.request != nil {
            floor = min(floor, player.download.idleSince)
        }
        idleFloor[linkIndex] = floor
        return floor + minimumTimeout > limit
    }

    /// Whether a zero-capacity stretch of link `linkIndex` lasting ``minimumTimeout`` starts after `now` early
    /// enough to reach the timeout by `horizon`: where some flow's review could arm a timeout. A stretch lasting a
    /// longer timeout is among them, so the shortest timeout answers for every player.
    func longStretchFits(link linkIndex: Int, of link: SharedLink, after now: Double, by horizon: Double) -> Bool {
        let stretches: ZeroCapacityIndex
        if let known = longStretches[linkIndex] {
            stretches = known
        } else {
            stretches = link.zeroCapacityIndex(minimumLength: minimumTimeout)
            longStretches[linkIndex] = stretches
        }
        guard let start = stretches.firstStretch(after: now) else { return false }
        return start + minimumTimeout <= horizon
    }

    /// After a change of link `linkIndex`'s flows at `now`, with its next completion at `horizon`, reviews the
    /// timeout of every request flowing on it (`players` indexed as the flows' owners).
    func review(link linkIndex: Int, of link: SharedLink, horizon: Double, players: [Player], now: Double) {
        let capped = link.isCapped
        if !capped, !link.hasIdleFraction {
            let near = horizon - now < minimumTimeout
            if near
                || (skipsWhereNoLongStretchFits && armedTimeouts[linkIndex] == 0
                    && !longStretchFits(link: linkIndex, of: link, after: now, by: horizon))
            {
                if link.capacity(at: now) > 0 {
                    allFlowsReceivingAt[linkIndex] = now  // the players' next reviews start from here
                    if !near { skippedFarPasses += 1 }
                    return
                }
                if skipsWhereNoLongStretchFits, armedTimeouts[linkIndex] == 0,
                    noIdleStretchReaches(
                        min(link.zeroStretchEnd(after: now), horizon), link: linkIndex, players: players, now: now)
                {
                    skippedZeroCapacityPasses += 1
                    return
                }
            }
        }
        let moment = LinkMoment(link, at: now, horizon: horizon, receivingAt: allFlowsReceivingAt[linkIndex])
        for position in link.flows.indices {
            let owner = link.flows[position].owner
            guard let bits = players[owner].download.timeoutReviewBits else { continue }
            players[owner].reviewRequestTimeout(
                received: bits - max(link.flows[position].remainingBits, 0),
                fraction: capped ? nil : link.fractions[position], moment: moment)
        }
    }
}

/// What a review pass knows about a link at one instant, computed once for all its flows.
struct LinkMoment {
    /// The instant (seconds).
    var time: Double
    /// The link's next completion: it changes again by then at the latest.
    var horizon: Double
    /// c(time) in bit/s.
    var capacity: Double
    /// Where the capacity last was positive up to `time`: the last bit of a flow with a positive share.
    var lastDelivery: Double
    /// Where the zero-capacity stretch containing `time` ends (`time` when the capacity is positive).
    var zeroStretchEnd: Double
    /// The last skipped review at which every flow on the link was receiving.
    var receivingAt: Double

    /// The moment of `link` at `time`.
    init(_ link: SharedLink, at time: Double, horizon: Double, receivingAt: Double) {
        self.time = time
        self.horizon = horizon
        self.receivingAt = receivingAt
        capacity = link.capacity(at: time)
        lastDelivery = link.lastDelivery(before: time)
        zeroStretchEnd = capacity > 0 ? time : link.zeroStretchEnd(after: time)
    }
}
