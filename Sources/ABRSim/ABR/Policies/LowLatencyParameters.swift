/// What the low-latency dash.js rules (`l2a-ll`, `lolp`) share: their throughput-calculation parameter and dash.js's
/// choice of a variant for a throughput.
public enum LowLatencyParameters {
    /// dash.js `abr.throughput.lowLatencyDownloadTimeCalculationMode`.
    public static let throughputMode = Parameter.choice(
        "throughputMode", default: DashLowLatencyThroughput.Mode.moof,
        source: "dash.js abr.throughput.lowLatencyDownloadTimeCalculationMode (moof parsing)",
        "download time of a chunked request: moof = per-chunk moof-to-mdat times, downloaded = body reads")

    /// dash.js `getOptimalRepresentationForBitrate`: the highest variant up to ``ABRContext/maxVariant`` whose
    /// bitrate in kbit/s is at most `kbps`; the lowest when none is, or when `kbps` ≤ 0.
    public static func optimalVariant(forKbps kbps: Double, context: ABRContext) -> Int {
        guard kbps > 0 else { return 0 }
        var chosen = 0
        for index in 0...context.maxVariant where context.content.variants[index].bitrateBps / 1000 <= kbps {
            chosen = index
        }
        return chosen
    }
}
