/// The request-timeout reviews of a run: after each change of a link's flows, the review of every request
/// flowing on it (O(1) each), or none when every flow receives and none can go a timeout without data before the
/// link's next change. Built by ``Simulation``; called by it after each change of a link's flows.
final class RequestTimeoutReviews {
    /// Per link, the last change of its flows at which the review found every flow receiving and none able to time
    /// out before the next change, so it skipped the players' own reviews; they start from here (`-.infinity`:
    /// never).
    var allFlowsReceivingAt: [Double]
    /// The shortest request timeout of the players (seconds).
    var minimumTimeout = Double.infinity

    /// Reviews for `linkCount` links.
    init(linkCount: Int) {
        allFlowsReceivingAt = Array(repeating: -.infinity, count: linkCount)
    }

    /// After a change of link `linkIndex`'s flows at `now`, with its next completion at `horizon`, reviews the
    /// timeout of every request flowing on it (`players` indexed as the flows' owners).
    func review(link linkIndex: Int, of link: SharedLink, horizon: Double, players: [Player], now: Double) {
        let capped = link.isCapped
        if !capped, horizon - now < minimumTimeout, link.capacity(at: now) > 0, !link.hasIdleFraction {
            allFlowsReceivingAt[linkIndex] = now  // the players' next reviews start from here
            return
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
