/// The request timeout: a request that receives no byte for ``RequestRetrySettings/timeoutSeconds`` is
/// abandoned, sent again after a back-off delay, and after the retry limit the player fails.
///
/// Between two changes of its link's flows, a flow's rate is zero exactly where it gets nothing: zero capacity (an
/// outage, a zero piece of a trace), or a share of zero (strict priority starving it, total loss). After every
/// change ``RequestTimeoutReviews/review(link:of:horizon:players:now:)`` takes a ``LinkMoment`` of the link and
/// reviews each flow in O(1): it brings the start of the flow's stretch without data up to date and arms the
/// request's own timeout timer where that stretch first reaches the timeout, if before the link's next completion
/// (the next change it can foresee).
extension Player {
    /// Pieces walked per look-up at most; past them a walk settles for a re-evaluation point.
    static let maximumTimeoutPieces = 4096

    /// A new request leaves `now` with no data yet and no timeout armed.
    func resetRequestTimeout(at now: Double) {
        download.idleSince = now
        download.receivedAtReview = 0
        download.timeoutReviewedAt = now
        download.timeoutHorizon = .infinity
        setArmedTimeout(nil)
        kernel.cancel(&download.timeoutTimer)
    }

    /// The rate (bit/s) below which a request counts as receiving nothing: less than one byte per timeout.
    var minimumDataRateBps: Double { 8 / settings.requests.timeoutSeconds }

    /// The start of `current`'s stretch without data on a capped link, from the link's own record of the flow's
    /// last data (exact even while it trickles below ``minimumDataRateBps``); the request time before any data.
    func cappedIdleSince(of current: InFlightRequest, at now: Double) -> Double {
        min(max(current.requestTime, link.lastDataTime(owner: index)), now)
    }

    /// Bits the request in flight has received (as of the link's last update).
    func receivedBits(of current: InFlightRequest) -> Double {
        if download.isChunked { return chunkedReceivedBits() }
        return current.bits - (link.remainingBits(owner: index) ?? current.bits)
    }

    /// After a change of the link's flows at `moment`, with the request having `received` bits and a share
    /// `fraction` of the capacity (`nil` when flows are capped): updates the stretch without data and arms the
    /// timeout event for the new allocation.
    func reviewRequestTimeout(received: Double, fraction: Double?, moment: LinkMoment) {
        guard download.timeoutReviewBits != nil else { return }  // none in flight, before its first byte, or cached
        let timeout = settings.requests.timeoutSeconds
        guard timeout.isFinite else { return }
        let now = moment.time
        download.timeoutHorizon = moment.horizon
        if received > download.receivedAtReview + link.completionToleranceBits
            || moment.receivingAt > download.timeoutReviewedAt
        {
            // Data arrived since the last review (surely, if the flow was receiving at a skipped review). Since
            // then its share was positive throughout, so the last bit came where the capacity last was positive.
            download.idleSince = min(max(download.timeoutReviewedAt, moment.receivingAt, moment.lastDelivery), now)
            timeoutReviews?.lowerIdleFloor(link: linkIndex, to: download.idleSince)
            download.receivedAtReview = received
        }
        download.timeoutReviewedAt = now
        guard let fraction else {
            // Capped: a trickle below one byte per timeout adds bits but no data, so the link's record decides.
            guard let current = download.request else { return }
            download.idleSince = cappedIdleSince(of: current, at: now)
            timeoutReviews?.lowerIdleFloor(link: linkIndex, to: download.idleSince)
            arm(walkedDeadline(from: now, horizon: moment.horizon, timeout: timeout), at: now)
            return
        }
        var deadline: Double?
        if fraction <= 0 {
            deadline = max(download.idleSince + timeout, now)  // a zero share: nothing until the allocation changes
        } else if moment.capacity <= 0, max(min(download.idleSince, now) + timeout, now) <= moment.zeroStretchEnd {
            deadline = max(min(download.idleSince, now) + timeout, now)  // within the zero stretch the flow is in
        } else {
            deadline = longStretchDeadline(after: now, horizon: moment.horizon, timeout: timeout)
        }
        if let time = deadline, time > moment.horizon { deadline = nil }
        arm(deadline, at: now)
    }

    /// Re-reviews the request in flight at `now` (a re-evaluation point, or data came before an armed timeout).
    func reviewRequestTimeout(at now: Double) {
        guard let current = download.request else { return }
        link.advance(to: now)
        let moment = LinkMoment(
            link, at: now, horizon: download.timeoutHorizon,
            receivingAt: timeoutReviews?.allFlowsReceivingAt[linkIndex] ?? -.infinity)
        reviewRequestTimeout(
            received: receivedBits(of: current), fraction: link.uncappedFraction(owner: index), moment: moment)
    }

    /// The end of the timeout within the first zero-capacity stretch that starts after `now` and lasts the
    /// timeout, if before `horizon` (O(log n) in a ``ZeroCapacityIndex`` built on first use).
    func longStretchDeadline(after now: Double, horizon: Double, timeout: Double) -> Double? {
        guard horizon - now >= timeout else { return nil }
        let stretches: ZeroCapacityIndex
        if let known = download.zeroCapacityIndex, known.link == linkIndex {
            stretches = known.index
        } else {
            stretches = link.zeroCapacityIndex(minimumLength: timeout)
            download.zeroCapacityIndex = (linkIndex, stretches)
        }
        guard let start = stretches.firstStretch(after: now) else { return nil }
        return start + timeout <= horizon ? start + timeout : nil
    }

    /// The general case (caps or loss): walks the curve's pieces, water-filling each, and stops as soon as no
    /// stretch without data can reach the timeout before `horizon`.
    func walkedDeadline(from now: Double, horizon: Double, timeout: Double) -> Double? {
        var stretchStart: Double?
        var from = now
        for _ in 0..<Self.maximumTimeoutPieces {
            let to = min(link.nextChange(after: from), horizon)
            if link.deliversNothing(owner: index, at: from) {
                let start = stretchStart ?? (from == now ? min(download.idleSince, now) : from)
                stretchStart = start
                if start + timeout <= to { return max(start + timeout, now) }
            } else {
                stretchStart = nil
                // A stretch starting at `to` or later would time out after the horizon.
                if horizon - to < timeout { return nil }
            }
            if to >= horizon { return nil }
            from = to
        }
        return from
    }

    /// Arms the timeout event at `deadline` (keeping one already armed there) or disarms it.
    func arm(_ deadline: Double?, at now: Double) {
        if deadline == download.armedTimeout { return }
        kernel.cancel(&download.timeoutTimer)
        setArmedTimeout(deadline)
        guard let deadline else { return }
        download.timeoutTimer = kernel.schedule(at: deadline, .player(index, .requestTimeout))
    }

    /// Sets when the armed timeout fires (`nil`: none), keeping the link's count of armed timeouts, which lets a
    /// review pass skip the players only when none is armed.
    func setArmedTimeout(_ deadline: Double?) {
        let wasArmed = download.armedTimeout != nil
        download.armedTimeout = deadline
        guard wasArmed != (deadline != nil), let reviews = timeoutReviews else { return }
        reviews.armedTimeouts[linkIndex] += wasArmed ? -1 : 1
    }

    /// The armed timeout event fired: the request times out if it still has received nothing for the timeout;
    /// otherwise (data came, or the walk was cut short) the timeout is re-armed.
    func requestTimeoutFired(at now: Double) {
        guard let current = download.request else { return }
        setArmedTimeout(nil)
        link.advance(to: now)
        let timeout = settings.requests.timeoutSeconds
        var idle = receivedBits(of: current) <= download.receivedAtReview + link.completionToleranceBits
        if link.isCapped {
            download.idleSince = cappedIdleSince(of: current, at: now)
            timeoutReviews?.lowerIdleFloor(link: linkIndex, to: download.idleSince)
            idle = true
        }
        guard idle, now - download.idleSince >= timeout - SimulationTime.tolerance else {
            reviewRequestTimeout(at: now)
            return
        }
        timeOut(current, at: now)
    }

    /// Abandons `current` (its partial bytes counted as transferred and wasted), then schedules its retry after
    /// the back-off delay, or fails the player when the retries are used up.
    func timeOut(_ current: InFlightRequest, at now: Double) {
        let received = cancelTransfer(current, at: now)
        totals.timedOutRequests += 1
        let buffer = playhead.bufferLevel(at: now)
        let row = record(
            current, bits: received, firstByte: current.firstByteTime ?? now, at: now, bufferAfter: buffer,
            stallSeconds: 0, abandoned: true, cacheHit: current.fromCache, timedOut: true)
        totals.bytes += current.fromCache ? 0 : row.bytes
        keep(row)
        download.request = nil
        download.cancelRequestTimers(on: kernel)
        kernel.cancel(&download.timeoutTimer)
        let requests = settings.requests
        if current.attempt > requests.maximumRetries {
            let seconds = formatCSVNumber(requests.timeoutSeconds)
            let reason =
                "segment \(current.segment) timed out \(current.attempt) times (no data for \(seconds) s; "
                + "retry limit \(requests.maximumRetries))"
            finish(.failed(reason: reason), at: now)
            return
        }
        var retry = current
        retry.attempt += 1
        download.pendingRetry = retry
        let delay = requests.delay(beforeRetry: current.attempt)
        download.retryTimer = kernel.schedule(at: now + delay, .player(index, .retry))
        requestNextIfNeeded(at: now)
    }

    /// Sends the pending retry: a new request for the same segment and variant, paying the RTT again.
    func sendRetry(at now: Double) {
        guard let retry = download.pendingRetry else { return }
        download.pendingRetry = nil
        totals.retries += 1
        send(
            segment: retry.segment, variant: retry.variant, buffer: playhead.bufferLevel(at: now), at: now,
            attempt: retry.attempt)
    }
}

extension SharedLink {
    /// c(t) in bit/s (read through the link, so the curve is not copied).
    func capacity(at t: Double) -> Double {
        var piece = lookupPiece
        defer { lookupPiece = piece }
        return curve.rate(at: t, after: &piece)
    }

    /// The curve's next piece boundary after `t` (read through the link, so the curve is not copied).
    func nextChange(after t: Double) -> Double { curve.nextChange(after: t) }

    /// The start of the zero-capacity stretch that ends at `t` (`t` itself if the capacity just before is
    /// positive): when a flow with a positive share last received a bit.
    func lastDelivery(before t: Double) -> Double {
        var piece = lookupPiece
        defer { lookupPiece = piece }
        return curve.time(atCumulativeBits: curve.cumulativeBits(at: t, after: &piece), after: &piece)
    }

    /// Where the zero capacity at `t` ends: the first piece boundary after `t` with a positive rate (`.infinity`
    /// if none; after ``Player/maximumTimeoutPieces`` zero pieces, the boundary reached).
    func zeroStretchEnd(after t: Double) -> Double {
        var end = t
        for _ in 0..<Player.maximumTimeoutPieces {
            end = curve.nextChange(after: end)
            if end.isInfinite || curve.rate(at: end) > 0 { return end }
        }
        return end
    }

    /// The long zero-capacity stretches of the curve.
    func zeroCapacityIndex(minimumLength: Double) -> ZeroCapacityIndex {
        curve.zeroCapacityIndex(minimumLength: minimumLength)
    }

    /// `owner`'s fraction of the capacity when no flow is capped (`nil` when capped or without a flow).
    func uncappedFraction(owner: Int) -> Double? {
        guard !isCapped, let index = position(of: owner) else { return nil }
        return fractions[index]
    }

    /// Whether `owner`'s flow receives no data at time `t` under the current allocation (zero capacity, a zero
    /// share, or a water-filled rate below the flow's minimum data rate: so low that not one byte arrives within
    /// the request timeout, e.g. a rate limit of a millibit per second); `true` without a flow.
    func deliversNothing(owner: Int, at t: Double) -> Bool {
        guard let index = position(of: owner) else { return true }
        if !isCapped { return fractions[index] <= 0 || curve.rate(at: t) <= 0 }
        fillRates(at: t)
        return receivesNothing(index)
    }
}
