extension LiveNQoE {
    /// LoL+'s `calculateSingleUseQoe` (dash.js v5.1.1 `src/streaming/rules/abr/lolp/LoLpQoEEvaluator.js`): the total
    /// of a fresh session set up with these weights' inputs that logs one segment, or 0 when the segment duration or
    /// either bitrate is 0 or NaN (dash.js tests them for truth). Units as ``logSegmentMetrics(bitrateKbps:rebufferSeconds:latencySeconds:playbackSpeed:)``.
    public static func singleUseQoe(
        segmentDurationSeconds: Double, maxBitrateKbps: Double, minBitrateKbps: Double, bitrateKbps: Double,
        rebufferSeconds: Double, latencySeconds: Double, playbackSpeed: Double
    ) -> Double {
        func given(_ x: Double) -> Bool { x != 0 && !x.isNaN }
        guard given(segmentDurationSeconds), given(maxBitrateKbps), given(minBitrateKbps) else { return 0 }
        var session = LiveNQoE(
            segmentDurationSeconds: segmentDurationSeconds, maxBitrateKbps: maxBitrateKbps,
            minBitrateKbps: minBitrateKbps)
        session.logSegmentMetrics(
            bitrateKbps: bitrateKbps, rebufferSeconds: rebufferSeconds, latencySeconds: latencySeconds,
            playbackSpeed: playbackSpeed)
        return session.totalQoe
    }
}
