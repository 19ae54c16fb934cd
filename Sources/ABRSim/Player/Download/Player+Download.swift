/// The player's side of the download-model seam (issue 19): at a request's first byte the player asks its
/// ``DownloadModel`` for a plan and gives the flow its window on the shared link; at the end it keeps what a
/// persistent connection carries to the next request, and records the model's view of the download.
extension Player {
    /// Starts the flow of the request in flight (``Downloader/request``) on the link at `now` (its first byte) under
    /// the player's download model, and fills in its share, and the plan in ``Downloader/transfer``.
    func startDownload(at now: Double) {
        guard let bits = download.request?.bits, let requestTime = download.request?.requestTime else { return }
        link.startFlow(owner: index, bits: bits, demand: demand, at: now, minimumDataRateBps: minimumDataRateBps)
        let share = link.fairShare(owner: index)
        let bitsAtFirstByte = link.lastCumulativeBits
        download.request!.fairShare = share
        download.request!.bitsAtFirstByte = bitsAtFirstByte
        download.request!.firstByteLink = linkIndex
        guard let (asked, plan) = planFlow(bits: bits, requestTime: requestTime, at: now) else { return }
        download.transfer.modelRequest = asked
        download.transfer.plan = plan
    }

    /// Asks the download model for the plan of a flow of `bits` just started at `now` (for a request sent at
    /// `requestTime`) and gives the flow its window on the link; `nil` for the fluid model, or where the model has
    /// no capacity or round trip to work from. A whole request and each CMAF chunk of a chunked one start here.
    func planFlow(bits: Double, requestTime: Double, at now: Double) -> (DownloadRequest, DownloadPlan)? {
        guard !download.isFluid else { return nil }
        let model = download.model
        let available = link.capacity(at: now) * link.fairShare(owner: index)
        let rtt = model.roundTripSeconds ?? link.latency(at: requestTime) ?? 0
        guard available > 0, rtt > 0 || !model.needsRoundTrip else { return nil }
        let asked = DownloadRequest(
            bits: bits, availableBps: available, peakBps: link.peakRateBps, roundTripSeconds: rtt,
            idleSeconds: now - download.connectionBusyUntil, connection: download.connection)
        let plan = model.plan(asked)
        if let window = plan.window {
            link.setWindow(owner: index, window, start: now, at: now)
        }
        return (asked, plan)
    }

    /// Records that the connection carried a chunk of `bits` planned as `plan` from `firstByte` to `now`.
    func connectionCarried(_ plan: DownloadPlan, bits: Double, from firstByte: Double, to now: Double) {
        download.connection = download.model.connection(
            after: plan, bits: bits, seconds: now - firstByte, from: download.connection)
        download.connectionBusyUntil = now
    }

    /// Records that the connection carried `finished` up to `now`.
    func connectionFinished(_ finished: InFlightRequest, at now: Double) {
        if let plan = download.transfer.plan, let firstByte = finished.firstByteTime {
            download.connection = download.model.connection(
                after: plan, bits: finished.bits, seconds: now - firstByte, from: download.connection)
        }
        download.connectionBusyUntil = now
    }

    /// The model's view of `current` (first byte at `firstByte`, ended at `now`) for its `segments.csv` row: the
    /// capacity available to it — its share at the first byte times the mean of c(t) over the download — and the
    /// throughput the model gives alone at that capacity (bit/s; `nil` from the cache or where there is none).
    func modelView(of current: InFlightRequest, firstByte: Double, at now: Double) -> (
        availableBps: Double?, modelThroughputBps: Double?
    ) {
        guard !current.fromCache, let share = current.fairShare else { return (nil, nil) }
        let capacity: Double
        if !(now > firstByte) {
            capacity = link.capacity(at: firstByte)
        } else if current.firstByteLink == linkIndex && link.lastUpdate == now {
            // The link was just brought to `now`: S(now) − S(first byte) without a look-up.
            capacity = (link.lastCumulativeBits - current.bitsAtFirstByte) / (now - firstByte)
        } else {
            capacity = link.meanCapacity(from: firstByte, to: now)
        }
        let available = capacity * share
        guard available > 0 else { return (available, nil) }
        guard var asked = download.transfer.modelRequest else { return (available, available) }
        asked.availableBps = available
        let seconds = download.model.plan(asked).modelSeconds
        return (available, seconds > 0 && seconds.isFinite ? current.bits / seconds : nil)
    }
}
