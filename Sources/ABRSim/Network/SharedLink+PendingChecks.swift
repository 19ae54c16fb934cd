/// What a player needs from its link to skip progress checks that provably change nothing: the bits its flow will
/// have received at a later instant if the flows do not change. See Player+ProgressSkipping.swift.
extension SharedLink {
    /// Bits `owner`'s flow will have received at `t` (not before the last update) if the flows stay as they are, in
    /// the uncapped regime (`nil` under a cap, or without a flow): received so far plus its fraction of S(t) − S(last
    /// update). The link's own accounting reaches the same value within rounding.
    func projectedReceivedBits(owner: Int, at t: Double) -> Double? {
        guard !isCapped, let position = position(of: owner) else { return nil }
        let flow = flows[position]
        let received = flow.totalBits - max(flow.remainingBits, 0)
        guard t > lastUpdate else { return received }
        return received + fractions[position] * (curve.cumulativeBits(at: t) - lastCumulativeBits)
    }
}
