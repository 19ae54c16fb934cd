/// The player's side of the download-model seam (issue 19): at a request's first byte the player asks its
/// ``DownloadModel`` for a plan and gives the flow its window on the shared link; at the end it keeps what a
/// persistent connection carries to the next request, and records the model's view of the download.
extension Player {
    /// Starts the flow of `current` on the link at `now` (its first byte) under the player's download model, and
    /// returns the request with its share and plan filled in.
    func startDownload(_ current: Request, at now: Double) -> Request {
        var started = current
        link.startFlow(
            owner: index, bits: current.bits, demand: demand, at: now, minimumDataRateBps: minimumDataRateBps)
        let share = link.fairShare(owner: index)
        started.fairShare = share
        started.bitsAtFirstByte = link.lastCumulativeBits
        started.firstByteLink = linkIndex
        guard !isFluidDownload else { return started }
        let model = downloadModel
        let available = link.capacity(at: now) * share
        let rtt = model.roundTripSeconds ?? link.latency(at: current.requestTime) ?? 0
        guard available > 0, rtt > 0 || !model.needsRoundTrip else { return started }
        let request = DownloadRequest(
            bits: current.bits, availableBps: available, peakBps: link.peakRateBps, roundTripSeconds: rtt,
            idleSeconds: now - connectionBusyUntil, connection: connection)
        let plan = model.plan(request)
        started.modelRequest = request
        started.plan = plan
        if let window = plan.window {
            link.setWindow(owner: index, window, start: now, at: now)
        }
        return started
    }

    /// Records that the connection carried `finished` up to `now`.
    func connectionFinished(_ finished: Request, at now: Double) {
        if let plan = finished.plan, let firstByte = finished.firstByteTime {
            connection = downloadModel.connection(
                after: plan, bits: finished.bits, seconds: now - firstByte, from: connection)
        }
        connectionBusyUntil = now
    }

    /// The model's view of `request` (first byte at `firstByte`, ended at `now`) for its `segments.csv` row: the
    /// capacity available to it — its share at the first byte times the mean of c(t) over the download — and the
    /// throughput the model gives alone at that capacity (bit/s; `nil` from the cache or where there is none).
    func modelView(of request: Request, firstByte: Double, at now: Double) -> (
        availableBps: Double?, modelThroughputBps: Double?
    ) {
        guard !request.fromCache, let share = request.fairShare else { return (nil, nil) }
        let capacity: Double
        if !(now > firstByte) {
            capacity = link.capacity(at: firstByte)
        } else if request.firstByteLink == linkIndex && link.lastUpdate == now {
            // The link was just brought to `now`: S(now) − S(first byte) without a look-up.
            capacity = (link.lastCumulativeBits - request.bitsAtFirstByte) / (now - firstByte)
        } else {
            capacity = link.meanCapacity(from: firstByte, to: now)
        }
        let available = capacity * share
        guard available > 0 else { return (available, nil) }
        guard var asked = request.modelRequest else { return (available, available) }
        asked.availableBps = available
        let seconds = downloadModel.plan(asked).modelSeconds
        return (available, seconds > 0 && seconds.isFinite ? request.bits / seconds : nil)
    }
}
