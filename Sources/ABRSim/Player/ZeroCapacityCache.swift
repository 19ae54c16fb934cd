/// What the request timeouts of one run share per link (``Simulation`` gives every player the same instance):
/// the ``ZeroCapacityIndex``es by link and timeout, and when each link's flows were last all seen receiving.
final class ZeroCapacityCache {
    var indexes: [Int: [Double: ZeroCapacityIndex]] = [:]
    /// Per link, the last review at which every flow had a positive share of a positive capacity and none could
    /// time out before the next change; the players' own reviews were skipped then (see
    /// ``Simulation/reviewRequestTimeouts(on:horizon:)``).
    var allReceivingAt: [Double] = []

    /// The index of `link`'s curve for stretches of at least `timeout` seconds, built on first use.
    func index(link: Int, of shared: SharedLink, timeout: Double) -> ZeroCapacityIndex {
        if let index = indexes[link]?[timeout] { return index }
        let index = shared.zeroCapacityIndex(minimumLength: timeout)
        indexes[link, default: [:]][timeout] = index
        return index
    }
}
