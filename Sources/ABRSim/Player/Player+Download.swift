/// The player's side of the download-model seam (issue 19): at a request's first byte the player asks its
/// ``DownloadModel`` for a plan and gives the flow its window on the shared link; at the end it keeps what a
/// persistent connection carries to the next request.
extension Player {
    /// Starts the flow of `bits` for `current` on the link at `now` (its first byte) under the player's download
    /// model, and returns the request with the model's view filled in.
    func startDownload(_ current: Request, at now: Double) -> Request {
        var started = current
        link.startFlow(
            owner: index, bits: current.bits, demand: demand, at: now, minimumDataRateBps: minimumDataRateBps)
        let available = link.capacity(at: now) * link.fairShare(owner: index)
        started.availableBps = available
        let model = downloadModel
        guard !(model is FluidModel) else { return started }
        let rtt = model.roundTripSeconds ?? link.latency(at: current.requestTime) ?? 0
        guard available > 0, rtt > 0 || !model.needsRoundTrip else { return started }
        let request = DownloadRequest(
            bits: current.bits, availableBps: available, peakBps: link.peakRateBps, roundTripSeconds: rtt,
            idleSeconds: now - connectionBusyUntil, connection: connection)
        let plan = model.plan(request)
        started.plan = plan
        if let window = plan.window {
            link.setWindow(owner: index, window, start: now, at: now)
        }
        return started
    }

    /// Records that the connection carried `finished` up to `now`.
    func connectionFinished(_ finished: Request, at now: Double) {
        guard let plan = finished.plan, let firstByte = finished.firstByteTime else {
            connectionBusyUntil = now
            return
        }
        connection = downloadModel.connection(
            after: plan, bits: finished.bits, seconds: now - firstByte, from: connection)
        connectionBusyUntil = now
    }

    /// The model's view of `request` for its `segments.csv` row: the capacity available at its first byte and
    /// the throughput the model gives at that capacity (bit/s; `nil` where there is none).
    func modelView(of request: Request) -> (availableBps: Double?, modelThroughputBps: Double?) {
        guard !request.fromCache, let available = request.availableBps else { return (nil, nil) }
        let seconds = request.plan?.modelSeconds ?? (available > 0 ? request.bits / available : .infinity)
        return (available, seconds > 0 && seconds.isFinite ? request.bits / seconds : nil)
    }
}
