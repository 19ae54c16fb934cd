/// The request timeout: a request that receives no byte for ``RequestRetrySettings/timeoutSeconds`` is
/// abandoned, sent again after a back-off delay, and after the retry limit the player fails.
///
/// Between two changes of its link's flows (the link's generation), a flow's rate is zero exactly on the pieces
/// of the capacity curve where it gets nothing: zero capacity (an outage), or a share of zero (strict priority
/// starving it, total loss). After every change ``Simulation`` calls ``reviewRequestTimeout(horizon:at:)``,
/// which walks the curve's pieces from now to the link's next completion (the next change it can foresee) and
/// arms one timeout event where a stretch without data first reaches the timeout. Everything goes through the
/// event queue with generations, so runs stay deterministic.
extension Player {
    /// Pieces walked per review at most; past them the review arms a re-evaluation instead of a timeout.
    static let maximumTimeoutPieces = 4096

    /// A new request leaves `now` with no data yet and no timeout armed.
    func resetRequestTimeout(at now: Double) {
        idleSince = now
        receivedAtReview = 0
        timeoutReviewedAt = now
        timeoutHorizon = .infinity
        armedTimeout = nil
        timeoutGeneration &+= 1
    }

    /// Bits the request in flight has received (as of the link's last update).
    func receivedBits(of current: Request) -> Double {
        current.bits - (link.remainingBits(owner: index) ?? current.bits)
    }

    /// After a change of the link's flows at `now` (the link will change again by `horizon` at the latest):
    /// brings the idle stretch up to date and arms the timeout event for the new allocation.
    func reviewRequestTimeout(horizon: Double, at now: Double) {
        guard let current = request, !current.fromCache, current.firstByteTime != nil else { return }
        let timeout = settings.requests.timeoutSeconds
        guard timeout.isFinite else { return }
        link.advance(to: now)
        let received = receivedBits(of: current)
        if received > receivedAtReview + link.completionToleranceBits {
            // Data arrived since the last review, the last of it where the capacity last was positive.
            let curve = link.curve
            let lastByte = curve.time(atCumulativeBits: curve.cumulativeBits(at: now))
            idleSince = min(max(timeoutReviewedAt, lastByte), now)
            receivedAtReview = received
        }
        timeoutReviewedAt = now
        timeoutHorizon = horizon
        arm(timeoutDeadline(from: now, horizon: horizon, timeout: timeout), at: now)
    }

    /// When the current allocation leaves the request without data for `timeout` seconds, if before `horizon`; a
    /// re-evaluation time when the walk is cut short; `nil` when neither.
    func timeoutDeadline(from now: Double, horizon: Double, timeout: Double) -> Double? {
        if let fraction = link.uncappedFraction(owner: index) {
            // Uncapped, the rate is the fraction of c(t): zero throughout, or exactly on zero-capacity stretches.
            let deadline: Double?
            if fraction <= 0 {
                deadline = max(idleSince + timeout, now)
            } else {
                deadline = zeroCapacityDeadline(from: now, timeout: timeout)
            }
            guard let deadline, deadline <= horizon else { return nil }
            return deadline
        }
        return walkedDeadline(from: now, horizon: horizon, timeout: timeout)
    }

    /// With a positive share: the end of the timeout within the zero-capacity stretch containing `now` (counted
    /// from ``idleSince``), else within the first later stretch that lasts the timeout.
    func zeroCapacityDeadline(from now: Double, timeout: Double) -> Double? {
        if zeroCapacity[linkIndex] == nil { zeroCapacity[linkIndex] = ZeroCapacityIndex(link.curve) }
        let stretches = zeroCapacity[linkIndex]!
        if let current = stretches.stretch(containing: now), min(idleSince, now) + timeout <= current.end {
            return max(min(idleSince, now) + timeout, now)
        }
        return stretches.firstStretch(after: now, lasting: timeout).map { $0 + timeout }
    }

    /// The general case (caps or loss): walks the curve's pieces, water-filling each.
    func walkedDeadline(from now: Double, horizon: Double, timeout: Double) -> Double? {
        var stretchStart: Double?
        var from = now
        for _ in 0..<Self.maximumTimeoutPieces {
            let to = min(link.curve.nextChange(after: from), horizon)
            if link.deliversNothing(owner: index, at: from) {
                let start = stretchStart ?? (from == now ? idleSince : from)
                stretchStart = start
                if start + timeout <= to { return max(start + timeout, now) }
            } else {
                stretchStart = nil
            }
            if to >= horizon { return nil }
            from = to
        }
        return from
    }

    /// Arms the timeout event at `deadline` (keeping one already armed there) or disarms it.
    func arm(_ deadline: Double?, at now: Double) {
        if deadline == armedTimeout { return }
        timeoutGeneration &+= 1
        armedTimeout = deadline
        guard let deadline else { return }
        engine.schedule(at: deadline, .player(index, .requestTimeout(generation: timeoutGeneration)))
    }

    /// The armed timeout event fired: the request times out if it still has received nothing for the timeout;
    /// otherwise (data came, or the walk was cut short) the timeout is re-armed.
    func requestTimeoutFired(at now: Double) {
        guard let current = request else { return }
        armedTimeout = nil
        link.advance(to: now)
        let timeout = settings.requests.timeoutSeconds
        let idle = receivedBits(of: current) <= receivedAtReview + link.completionToleranceBits
        guard idle, now - idleSince >= timeout - SimulationTime.tolerance else {
            reviewRequestTimeout(horizon: timeoutHorizon, at: now)
            return
        }
        timeOut(current, at: now)
    }

    /// Abandons `current` (its partial bytes counted as transferred and wasted), then schedules its retry after
    /// the back-off delay, or fails the player when the retries are used up.
    func timeOut(_ current: Request, at now: Double) {
        let received = current.fromCache ? 0 : link.cancelFlow(owner: index, at: now)
        totals.bytes += received / 8
        totals.timedOutRequests += 1
        let buffer = bufferLevel(at: now)
        segments.append(
            record(
                current, bits: received, firstByte: current.firstByteTime ?? now, at: now, bufferAfter: buffer,
                stallSeconds: 0, abandoned: true, timedOut: true))
        request = nil
        requestGeneration &+= 1
        timeoutGeneration &+= 1
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
        pendingRetry = retry
        let delay = requests.delay(beforeRetry: current.attempt)
        engine.schedule(at: now + delay, .player(index, .retry(generation: requestGeneration)))
        requestNextIfNeeded(at: now)
    }

    /// Sends the pending retry: a new request for the same segment and variant, paying the RTT again.
    func sendRetry(at now: Double) {
        guard let retry = pendingRetry else { return }
        pendingRetry = nil
        totals.retries += 1
        send(
            segment: retry.segment, variant: retry.variant, buffer: bufferLevel(at: now), at: now,
            attempt: retry.attempt)
    }
}

extension SharedLink {
    /// `owner`'s fraction of the capacity when no flow is capped (`nil` when capped or without a flow).
    func uncappedFraction(owner: Int) -> Double? {
        guard !isCapped, let index = flows.firstIndex(where: { $0.owner == owner }) else { return nil }
        return fractions[index]
    }

    /// Whether `owner`'s flow receives no data at time `t` under the current allocation (zero capacity, a zero
    /// share, or a zero water-filled rate); `true` without a flow.
    func deliversNothing(owner: Int, at t: Double) -> Bool {
        guard let index = flows.firstIndex(where: { $0.owner == owner }) else { return true }
        if !isCapped { return fractions[index] <= 0 || curve.rate(at: t) <= 0 }
        fillRates(at: t)
        return scratchRates[index] <= 0
    }
}
